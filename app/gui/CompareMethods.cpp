#include "app/gui/CompareMethods.h"

#include "app/gui/WhatIf.h"
#include "views/ParetoView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace mvp {

QStringList SweepRequest::arguments() const {
    QStringList a{QStringLiteral("whatif"),     session,
                  QStringLiteral("--progress"), QStringLiteral("jsonl"),
                  QStringLiteral("--sweep"),    methods.join(QLatin1Char(','))};
    if (baseline > 0) a << QStringLiteral("--run") << QString::number(baseline);
    if (!budgets.trimmed().isEmpty()) a << QStringLiteral("--budgets") << budgets.trimmed();
    a << QStringLiteral("--reps") << QString::number(reps);
    return a;
}

CompareMethodsDialog::CompareMethodsDialog(QWidget* parent)
    : QDialog(parent), family_(new QComboBox(this)), budgets_(new QLineEdit(this)),
      reps_(new QSpinBox(this)) {
    setWindowTitle(tr("Compare Methods"));
    family_->addItem(tr("Visual-token methods (budget: image tokens)"));
    family_->addItem(tr("KV-cache methods (budget: fraction of the prompt kept)"));
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(tr("Each method runs at each budget against the baseline, as a "
                               "what-if of its own, stored in the session."),
                            this));
    form->addRow(tr("Family:"), family_);
    // The methods mvprof-cli's --sweep takes, by family: their budgets count
    // different things, so one sweep holds one family.
    for (const MethodSpec& m : whatIfMethods()) {
        if (m.budget == Budget::None) continue;
        const QString how = methodText(budgetDescription(m.budget));
        auto* box = new QCheckBox(
            how.isEmpty() ? methodText(m.name) : tr("%1 (%2)").arg(methodText(m.name), how), this);
        box->setObjectName(QString::fromLatin1(m.key));
        box->setProperty("kv", m.budget == Budget::KvFraction);
        methods_.emplace_back(QString::fromLatin1(m.key), box);
        form->addRow(box);
    }
    budgets_->setToolTip(tr("Comma-separated; empty: 192, 128, 64 of 576 image tokens (scaled "
                            "to the model), or 0.4, 0.2, 0.1 of the KV cache"));
    form->addRow(tr("Budgets:"), budgets_);
    reps_->setRange(0, 100);
    reps_->setValue(3);
    form->addRow(tr("A/B repetitions per point:"), reps_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    connect(family_, &QComboBox::currentIndexChanged, this, &CompareMethodsDialog::showFamily);
    showFamily();
}

void CompareMethodsDialog::showFamily() {
    const bool kv = family_->currentIndex() == 1;
    for (auto& [name, box] : methods_) {
        const bool mine = box->property("kv").toBool() == kv;
        box->setVisible(mine);
        box->setChecked(mine && name != QLatin1String("prune") &&
                        name != QLatin1String("downsample"));
    }
    budgets_->setPlaceholderText(kv ? QStringLiteral("0.4,0.2,0.1") : QStringLiteral("192,128,64"));
}

SweepRequest CompareMethodsDialog::request() const {
    SweepRequest r;
    for (const auto& [name, box] : methods_)
        if (box->isChecked()) r.methods << name;
    r.budgets = budgets_->text();
    r.reps = reps_->value();
    return r;
}

CompareMethodsWindow::CompareMethodsWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), model_(new views::SweepTableModel(this)),
      proxy_(new QSortFilterProxyModel(this)), view_(new QTableView(this)),
      pareto_(new views::ParetoView(this)) {
    setObjectName(QStringLiteral("compareMethodsWindow"));
    setWindowTitle(tr("Compare Methods"));
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setObjectName(QStringLiteral("compareMethodsTable"));
    // Every column as wide as its contents but the last, why a point did not
    // run: it takes the rest of the width and wraps, so no reason is cut.
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setMinimumSectionSize(120);
    view_->setWordWrap(true);
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(pareto_);
    split->addWidget(view_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->setObjectName(QStringLiteral("compareMethodsButtons"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QWidget::close);
    connect(new QShortcut(QKeySequence(Qt::Key_Escape), this), &QShortcut::activated, this,
            &QWidget::close);
    connect(pareto_, &views::ParetoView::runClicked, this, &CompareMethodsWindow::selectRun);
    connect(pareto_, &views::ParetoView::runClicked, this, &CompareMethodsWindow::openRun);
    connect(view_, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (const auto* p = model_->rowAt(proxy_->mapToSource(index)); p && p->run)
            emit openRun(p->run);
    });
    resize(900, 700);
}

void CompareMethodsWindow::setTable(const views::SweepTable& table) {
    model_->setTable(table);
    pareto_->setTable(table);
}

void CompareMethodsWindow::selectRun(qint64 run) {
    for (int row = 0; row < model_->rowCount(); ++row) {
        const QModelIndex source = model_->index(row, 0);
        const views::SweepPoint* p = model_->rowAt(source);
        if (!p || p->run != run) continue;
        const QModelIndex shown = proxy_->mapFromSource(source);
        view_->selectRow(shown.row());
        view_->scrollTo(shown);
        return;
    }
}

} // namespace mvp
