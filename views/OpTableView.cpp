#include "views/OpTableView.h"

#include "views/ItemViews.h"
#include "views/SessionData.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace mvp::views {

OpTableModel::OpTableModel(QObject* parent) : RowTableModel(parent) {}

void OpTableModel::setRun(std::vector<OpTotal> byName, int64_t wallNs) {
    wallNs_ = std::max<int64_t>(wallNs, 1);
    setRows(std::move(byName));
}

int OpTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpTableModel::data(const QModelIndex& index, int role) const {
    const OpTotal* t = rowAt(index);
    if (!t) return {};
    const bool known = t->knownNs > 0 || (t->ns == 0 && t->flops > 0);
    if (role == SortRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(t->name);
        case Calls:
            return qlonglong(t->calls);
        case TotalMs:
        case Share:
            return double(t->ns);
        case GFlops:
            return known ? double(t->flops) : -1.0;
        case MBytes:
            return double(t->bytes);
        case FlopsKnown:
            return t->ns > 0 ? double(t->knownNs) / double(t->ns) : 0.0;
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(t->name);
        case Calls:
            return QString::number(t->calls);
        case TotalMs:
            return QString::number(double(t->ns) / 1e6, 'f', 3);
        case Share:
            return QStringLiteral("%1 %").arg(100.0 * double(t->ns) / double(wallNs_), 0, 'f', 1);
        case GFlops: // "–": no formula for it or anything it ran
            return known ? QString::number(double(t->flops) / 1e9, 'f', 4) : QStringLiteral("–");
        case MBytes:
            return QString::number(double(t->bytes) / 1e6, 'f', 2);
        case FlopsKnown:
            return t->ns > 0 ? QStringLiteral("%1 %").arg(
                                   100.0 * double(t->knownNs) / double(t->ns), 0, 'f', 0)
                             : QStringLiteral("–");
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant OpTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        if (section == GFlops || section == MBytes) return tr("Estimated from the op shapes");
        if (section == TotalMs || section == Share) return tr("Measured");
        if (section == FlopsKnown)
            return tr("Share of the op's time whose FLOPs are known (derived)");
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Op");
    case Calls:
        return tr("Calls");
    case TotalMs:
        return tr("Total ms");
    case Share:
        return tr("Share");
    case GFlops:
        return tr("GFLOP*");
    case MBytes:
        return tr("MB*");
    case FlopsKnown:
        return tr("FLOPs known");
    }
    return {};
}

OpTableView::OpTableView(QWidget* parent)
    : QWidget(parent), model_(new OpTableModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), filter_(new QLineEdit(this)) {
    filter_->setPlaceholderText(tr("Filter ops by name"));
    filter_->setClearButtonEnabled(true);
    setUpTable(table_, proxy_, model_);
    proxy_->setFilterKeyColumn(OpTableModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_);
    layout->addWidget(table_, 1);
}

// Summed over phases by name: the table answers "which ops cost the most".
void OpTableView::setSession(const std::shared_ptr<const SessionData>& data) {
    if (!data) return;
    std::vector<OpTotal> rows = opTotalsByName(data->data.opTotals);
    model_->setRun(std::move(rows), data->analysis.modules.wallNs);
    table_->sortByColumn(OpTableModel::TotalMs, Qt::DescendingOrder);
    // Op names whole ("aten::repeat_interleave", not "aten::repeat_…").
    table_->resizeColumnToContents(OpTableModel::Name);
}

} // namespace mvp::views
