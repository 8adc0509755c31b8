#include "views/Labels.h"

#include <QComboBox>
#include <QCoreApplication>

namespace mvp::views {

QString runTitle(const RunInfo& r) {
    const bool plain = r.label.empty() || r.label == "baseline";
    const QString what = r.transform.empty() && plain
                             ? QCoreApplication::translate("mvp::views::Labels", "baseline")
                             : QString::fromStdString(r.label);
    return QCoreApplication::translate("mvp::views::Labels", "run %1 · %2").arg(r.id).arg(what);
}

QString provenanceLabel(Provenance p) {
    switch (p) {
    case Provenance::Measured:
        return QCoreApplication::translate("mvp::views::Labels", "measured");
    case Provenance::Estimated:
        return QCoreApplication::translate("mvp::views::Labels", "estimated");
    case Provenance::Predicted:
        return QCoreApplication::translate("mvp::views::Labels", "predicted");
    case Provenance::Derived:
        return QCoreApplication::translate("mvp::views::Labels", "derived");
    case Provenance::Apportioned:
        return QCoreApplication::translate("mvp::views::Labels", "apportioned");
    }
    return {};
}

void addLlmPhaseChoices(QComboBox* box) {
    box->addItem(QCoreApplication::translate("mvp::views::Labels", "All phases"), -1);
    box->addItem(QCoreApplication::translate("mvp::views::Labels", "Prefill"), int(Phase::Prefill));
    box->addItem(QCoreApplication::translate("mvp::views::Labels", "Decode"), int(Phase::Decode));
}

std::optional<Phase> chosenPhase(const QComboBox* box) {
    bool ok = false;
    const int v = box->currentData().toInt(&ok);
    if (!ok || v < 0) return std::nullopt;
    return Phase(v);
}

} // namespace mvp::views
