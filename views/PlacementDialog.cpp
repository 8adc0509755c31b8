#include "views/PlacementDialog.h"

#include "views/Labels.h"
#include "views/RowTableModel.h"
#include "views/SessionData.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace mvp::views {

struct PlacementLayerRow {
    int layer = 0;
    double before = 0, after = 0;
    QString replicated;
};

// One row per MoE layer: its balancedness before and after, the experts
// given more than one slot.
class PlacementLayersModel : public RowTableModel<PlacementLayerRow> {
public:
    using RowTableModel::RowTableModel;
    enum Column { Layer, Before, After, Replicated, Columns };
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : Columns;
    }
    QVariant data(const QModelIndex& index, int role) const override {
        const PlacementLayerRow* r = rowAt(index);
        if (!r) return {};
        const int c = index.column();
        if (role == Qt::UserRole) // sort keys
            return c == Layer    ? QVariant(r->layer)
                   : c == Before ? QVariant(r->before)
                   : c == After  ? QVariant(r->after)
                                 : QVariant(r->replicated);
        if (role == Qt::TextAlignmentRole && c != Replicated)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (role != Qt::DisplayRole) return {};
        switch (c) {
        case Layer:
            return r->layer;
        case Before:
            return QString::number(r->before, 'f', 3);
        case After:
            return QString::number(r->after, 'f', 3);
        default:
            return r->replicated;
        }
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
        switch (section) {
        case Layer:
            return PlacementDialog::tr("Layer");
        case Before:
            return PlacementDialog::tr("Balancedness before (derived)");
        case After:
            return PlacementDialog::tr("After (derived)");
        default:
            return PlacementDialog::tr("Replicated experts");
        }
    }
};

namespace {
// One spare slot per GPU on as many GPUs as divide the experts (≤ 8).
int defaultGpus(int experts) {
    for (const int g : {8, 4, 2})
        if (experts % g == 0) return g;
    return 1;
}
} // namespace

PlacementDialog::PlacementDialog(std::shared_ptr<const SessionData> data, QWidget* parent)
    : QDialog(parent), data_(std::move(data)), model_(new PlacementLayersModel(this)) {
    setObjectName(QStringLiteral("placementDialog"));
    setWindowTitle(tr("Expert Placement (EPLB) — run %1").arg(data_->runId));
    const int experts = std::max(1, expertCountOf(data_->data.routing, data_->data.experts));
    const int gpus = defaultGpus(experts);
    replicas_ = spin("replicas", experts + gpus,
                     tr("Physical expert slots in all: the experts plus the redundant ones"));
    gpus_ = spin("gpus", gpus, tr("GPUs the slots are spread over"));
    groups_ = spin("groups", 1, tr("Expert groups (DeepSeek-V3: 8)"));
    nodes_ = spin("nodes", 1, tr("Servers; the hierarchical policy keeps replicas within one"));
    phase_ = new QComboBox(this);
    phase_->setObjectName(QStringLiteral("placementPhase"));
    addLlmPhaseChoices(phase_);
    modality_ = new QComboBox(this);
    modality_->setObjectName(QStringLiteral("placementModality"));
    modality_->addItem(tr("All tokens"));
    modality_->addItem(tr("Visual tokens"), QString::fromLatin1(toString(Modality::Visual).data()));
    modality_->addItem(tr("Text tokens"), QString::fromLatin1(toString(Modality::Text).data()));
    auto* form = new QFormLayout;
    form->addRow(tr("Replicas:"), replicas_);
    form->addRow(tr("GPUs:"), gpus_);
    form->addRow(tr("Groups:"), groups_);
    form->addRow(tr("Nodes:"), nodes_);
    form->addRow(tr("Load from:"), phase_);
    form->addRow(QString(), modality_);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("placementSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("placementTable"));
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(PlacementLayersModel::Layer, Qt::AscendingOrder);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    save_ = buttons->addButton(tr("&Save SGLang Placement…"), QDialogButtonBox::ActionRole);
    save_->setObjectName(QStringLiteral("savePlacement"));
    connect(save_, &QPushButton::clicked, this, &PlacementDialog::chooseFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    for (QSpinBox* s : {replicas_, gpus_, groups_, nodes_})
        connect(s, &QSpinBox::valueChanged, this, &PlacementDialog::recompute);
    for (QComboBox* c : {phase_, modality_})
        connect(c, &QComboBox::currentIndexChanged, this, &PlacementDialog::recompute);
    resize(640, 480);
    recompute();
}

PlacementDialog::~PlacementDialog() = default;

QSpinBox* PlacementDialog::spin(const char* name, int value, const QString& tip) {
    auto* s = new QSpinBox(this);
    s->setObjectName(QStringLiteral("placement_") + QString::fromLatin1(name));
    s->setRange(1, 1 << 16);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
}

void PlacementDialog::recompute() {
    LoadFilter filter;
    filter.phase = chosenPhase(phase_);
    if (const auto m = modality_->currentData(); m.isValid())
        filter.modality = modalityFromString(m.toString().toStdString());
    const EplbShape shape{replicas_->value(), groups_->value(), nodes_->value(), gpus_->value()};
    auto plan = planPlacement(expertLoadOf(data_->data.routing, data_->data.experts, filter), shape);
    std::vector<PlacementLayerRow> rows;
    if (!plan) {
        plan_.reset();
        summary_->setText(tr("EPLB cannot place this: %1")
                              .arg(QString::fromStdString(plan.error().message)));
    } else {
        plan_ = std::move(*plan);
        const auto& p = *plan_;
        for (size_t i = 0; i < p.load.layers.size(); ++i) {
            QStringList replicated;
            const auto& counts = p.placement.logicalCount[i];
            for (size_t e = 0; e < counts.size(); ++e)
                if (counts[e] > 1) replicated << tr("%1 (×%2)").arg(e).arg(counts[e]);
            rows.push_back({p.load.layers[i], p.balancednessBefore[i], p.balancednessAfter[i],
                            replicated.join(QStringLiteral(", "))});
        }
        const auto before = spreadOver(p.balancednessBefore);
        const auto after = spreadOver(p.balancednessAfter);
        summary_->setText(
            tr("%1 policy, %2 routed token slots (measured). Balancedness = mean ÷ max of the "
               "GPUs' loads in a layer (1 = even), each expert's load split evenly over its "
               "replicas (derived); before = SGLang's trivial placement. Over %3 layers: worst "
               "%4 → %5, median %6 → %7.")
                .arg(QString::fromLatin1(toString(p.placement.policy)))
                .arg(p.load.routed)
                .arg(p.load.layers.size())
                .arg(before.worst, 0, 'f', 3)
                .arg(after.worst, 0, 'f', 3)
                .arg(before.median, 0, 'f', 3)
                .arg(after.median, 0, 'f', 3));
        if (const int worse = layersMadeWorse(p))
            summary_->setText(summary_->text() + QLatin1Char(' ') +
                              tr("EPLB's placement is predicted to balance %1 layer(s) worse "
                                 "than the trivial one: keep the trivial placement there, or "
                                 "try another number of replicas.")
                                  .arg(worse));
    }
    model_->setRows(std::move(rows));
    save_->setEnabled(plan_.has_value());
}

bool PlacementDialog::savePlacement(const QString& path) {
    if (!plan_) return false;
    QFile f(path);
    const QByteArray json = QByteArray::fromStdString(sglangPlacementJson(*plan_));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(json) == json.size() &&
        f.flush())
        return true;
    QMessageBox::warning(this, tr("Save SGLang Placement"),
                         tr("Could not write %1: %2").arg(path, f.errorString()));
    return false;
}

void PlacementDialog::chooseFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save SGLang Placement"), QStringLiteral("placement.json"),
        tr("SGLang --init-expert-location (*.json)"));
    if (!path.isEmpty()) savePlacement(path);
}

} // namespace mvp::views
