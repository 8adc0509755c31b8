#include "views/Labels.h"

#include <QCoreApplication>

namespace mvp::views {

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

} // namespace mvp::views
