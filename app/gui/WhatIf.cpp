#include "app/gui/WhatIf.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QToolBar>
#include <algorithm>
#include <set>

namespace mvp {

QString methodText(const char* text) {
    return QCoreApplication::translate("mvp::WhatIfMethods", text);
}

QStringList WhatIfJob::arguments() const {
    QStringList a{QStringLiteral("whatif"), session, QStringLiteral("--progress"),
                  QStringLiteral("jsonl")};
    if (baseline > 0) a << QStringLiteral("--run") << QString::number(baseline);
    for (const auto& arg : requestArguments(request))
        a << QString::fromStdString(arg);
    a << QStringLiteral("--reps") << QString::number(reps);
    return a;
}

QString WhatIfJob::label() const {
    QStringList parts;
    for (const auto& [m, value] : request.methods) {
        const MethodSpec& s = methodSpec(m);
        QString text = methodText(s.valueLabel);
        if (text.contains(QLatin1String("%1")))
            text = text.arg(s.budget == Budget::KvFraction ? request.options.kvBudget : value);
        parts << text;
    }
    return parts.join(QStringLiteral(" + "));
}

namespace {
// The object names tests and style sheets find a family's widgets by.
QString familyName(Family f) {
    switch (f) {
    case Family::DecoderDrop:
        return QStringLiteral("decoderDrop");
    case Family::EncoderTokens:
        return QStringLiteral("encoder");
    case Family::Quant:
        return QStringLiteral("quant");
    case Family::KvCache:
        return QStringLiteral("kvMethod");
    case Family::None:
        break;
    }
    return {};
}

QString noneOf(Family f) {
    switch (f) {
    case Family::DecoderDrop:
        return WhatIfDialog::tr("No visual tokens dropped inside the decoder");
    case Family::EncoderTokens:
        return WhatIfDialog::tr("The encoder sends every visual token");
    case Family::Quant:
        return WhatIfDialog::tr("No weight quantisation");
    case Family::KvCache:
        return WhatIfDialog::tr("No published KV-cache method");
    case Family::None:
        break;
    }
    return {};
}

bool takesValue(const MethodSpec& m) {
    return m.kind == ValueKind::Fraction || m.kind == ValueKind::Count ||
           m.budget == Budget::KvFraction;
}

// The value box for `m`: its range, step and default from the catalogue
// (a KV method's value is the fraction of the prompt each head keeps).
void fitValueBox(QDoubleSpinBox* box, const MethodSpec& m) {
    box->setEnabled(takesValue(m));
    if (m.budget == Budget::KvFraction) {
        box->setDecimals(2);
        box->setRange(0.05, 0.95);
        box->setSingleStep(0.05);
        box->setValue(MethodOptions().kvBudget);
        box->setToolTip(WhatIfDialog::tr("The fraction of the prompt's positions each KV head keeps"));
        return;
    }
    box->setToolTip(QString());
    if (m.kind == ValueKind::Count) {
        box->setDecimals(0);
        box->setRange(m.range.min, std::min(m.range.max, 4096.0));
        box->setSingleStep(1);
    } else if (m.kind == ValueKind::Fraction) {
        box->setDecimals(2);
        box->setRange(m.range.minOpen || m.range.min == 0 ? 0.05 : m.range.min,
                      m.range.maxOpen ? m.range.max - 0.05 : m.range.max);
        box->setSingleStep(0.05);
    }
    if (takesValue(m)) box->setValue(m.preset);
}
} // namespace

WhatIfDialog::WhatIfDialog(QWidget* parent)
    : QDialog(parent), saliency_(new QComboBox(this)), reps_(new QSpinBox(this)) {
    setWindowTitle(tr("Custom What-if"));
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(
        tr("The transforms apply together in one real run of the baseline's inputs."), this));
    saliency_->setObjectName(QStringLiteral("saliency"));
    saliency_->addItem(tr("by the attention the patches received"),
                       QString::fromLatin1(toString(SaliencySource::Attention)));
    saliency_->addItem(tr("by the saliency map (needs attention maps)"),
                       QString::fromLatin1(toString(SaliencySource::Saliency)));
    saliency_->addItem(tr("by the visual features' norm"),
                       QString::fromLatin1(toString(SaliencySource::FeatureNorm)));
    std::set<Family> shown;
    for (const MethodSpec& m : whatIfMethods()) {
        if (m.family != Family::None) {
            if (shown.insert(m.family).second) addFamily(m.family);
            continue;
        }
        addMethod(m);
        if (m.method == Method::PruneVisual) form->addRow(QString(), saliency_);
    }
    reps_->setObjectName(QStringLiteral("reps"));
    reps_->setRange(0, 100);
    reps_->setValue(WhatIfJob().reps);
    reps_->setToolTip(tr("Both setups re-run this many times each, interleaved, so the speed-up "
                         "comes with an interval; 0 compares one run of each"));
    form->addRow(tr("A/B repetitions:"), reps_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void WhatIfDialog::addFamily(Family family) {
    auto* form = static_cast<QFormLayout*>(layout());
    FamilyChoice c{new QComboBox(this), nullptr};
    c.method->setObjectName(familyName(family));
    c.method->addItem(noneOf(family), QString());
    bool anyValue = false;
    for (const MethodSpec& m : whatIfMethods())
        if (m.family == family) {
            c.method->addItem(methodText(m.dialogLabel), QString::fromLatin1(m.key));
            anyValue |= takesValue(m);
        }
    if (anyValue) {
        c.value = new QDoubleSpinBox(this);
        c.value->setObjectName(familyName(family) + QStringLiteral("Value"));
        c.value->setEnabled(false);
        form->addRow(c.method, c.value);
    } else {
        form->addRow(c.method);
    }
    families_[family] = c;
    connect(c.method, &QComboBox::currentIndexChanged, this, [this, family] { familyChosen(family); });
}

void WhatIfDialog::addMethod(const MethodSpec& m) {
    auto* form = static_cast<QFormLayout*>(layout());
    MethodCheck c{new QCheckBox(methodText(m.dialogLabel), this), nullptr};
    c.check->setObjectName(QString::fromLatin1(m.key));
    if (takesValue(m)) {
        c.value = new QDoubleSpinBox(this);
        c.value->setObjectName(QString::fromLatin1(m.key) + QStringLiteral("Value"));
        fitValueBox(c.value, m);
        form->addRow(c.check, c.value);
    } else {
        form->addRow(c.check);
    }
    methods_[m.method] = c;
}

void WhatIfDialog::familyChosen(Family family) {
    const FamilyChoice& c = families_.at(family);
    if (!c.value) return;
    const auto m = methodFromKey(c.method->currentData().toString().toStdString());
    if (m)
        fitValueBox(c.value, methodSpec(*m));
    else
        c.value->setEnabled(false);
}

WhatIfJob WhatIfDialog::job() const {
    WhatIfJob j;
    WhatIfRequest& r = j.request;
    for (const auto& [m, c] : methods_)
        if (c.check->isChecked()) r.methods[m] = c.value ? c.value->value() : 1.0;
    if (r.has(Method::PruneVisual))
        r.options.saliency = saliencySourceFromString(saliency_->currentData().toString().toStdString())
                                 .value_or(SaliencySource::Attention);
    for (const auto& [family, c] : families_) {
        const auto m = methodFromKey(c.method->currentData().toString().toStdString());
        if (!m) continue;
        const MethodSpec& s = methodSpec(*m);
        r.methods[*m] = s.kind == ValueKind::Word ? 1.0 : c.value->value();
        if (s.budget == Budget::KvFraction) r.options.kvBudget = c.value->value();
    }
    j.reps = reps_->value();
    return j;
}

WhatIfActions::WhatIfActions(QMenu* menu, QToolBar* toolbar, QWidget* dialogParent)
    : QObject(menu) {
    auto add = [&](const QString& name, const QString& text, const QString& shortText,
                   const WhatIfJob& job, bool onToolbar) {
        auto* a = new QAction(text, this);
        a->setIconText(shortText);
        a->setToolTip(tr("Run again with: %1").arg(text));
        connect(a, &QAction::triggered, this, [this, job] { emit requested(job); });
        menu->addAction(a);
        if (onToolbar) toolbar->addAction(a);
        actions_.emplace_back(name, a);
    };
    for (const MethodSpec& m : whatIfMethods()) {
        if (!m.oneClick) continue;
        WhatIfJob job;
        job.request.methods[m.method] = m.kind == ValueKind::Fraction || m.kind == ValueKind::Count
                                            ? m.preset
                                            : 1.0;
        add(QString::fromLatin1(m.key), methodText(m.menuLabel), methodText(m.shortLabel), job,
            m.toolbar);
    }
    WhatIfJob combined; // the design note's setup
    combined.request.methods = {{Method::W4, 1.0},
                                {Method::KvInt4, 1.0},
                                {Method::PruneVisual, methodSpec(Method::PruneVisual).preset}};
    add(QStringLiteral("combined"), tr("W4 + KV INT4 + Prune 0.4 (the design note's setup)"),
        tr("W4+KV+Prune"), combined, true);
    menu->addSeparator();
    auto* custom = menu->addAction(tr("&Custom What-if…"));
    connect(custom, &QAction::triggered, this, [this, dialogParent] {
        WhatIfDialog dialog(dialogParent);
        if (dialog.exec() != QDialog::Accepted) return;
        const WhatIfJob job = dialog.job();
        if (!job.request.empty()) emit requested(job);
    });
    actions_.emplace_back(QStringLiteral("custom"), custom);
    auto* compare = menu->addAction(tr("Compare &Methods…"));
    connect(compare, &QAction::triggered, this, &WhatIfActions::compareRequested);
    actions_.emplace_back(QStringLiteral("compare"), compare);
    setEnabled(false);
}

void WhatIfActions::setEnabled(bool enabled) {
    for (auto& [name, a] : actions_)
        a->setEnabled(enabled);
}

QAction* WhatIfActions::action(const QString& name) const {
    for (const auto& [n, a] : actions_)
        if (n == name) return a;
    return nullptr;
}

} // namespace mvp
