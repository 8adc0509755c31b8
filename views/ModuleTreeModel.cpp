#include "views/ModuleTreeModel.h"

namespace mvp::views {

// Internal ids are node index + 1, so that 0 stays "no node" (the root).
ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ModuleTreeModel::setTree(ModuleCostTree tree, double ridge) {
    beginResetModel();
    tree_ = std::move(tree);
    ridge_ = ridge;
    parentOf_.assign(tree_.nodes.size(), std::nullopt);
    rowOf_.assign(tree_.nodes.size(), 0);
    for (size_t r = 0; r < tree_.roots.size(); ++r)
        rowOf_[tree_.roots[r]] = int(r);
    for (size_t i = 0; i < tree_.nodes.size(); ++i)
        for (size_t r = 0; r < tree_.nodes[i].children.size(); ++r) {
            const size_t c = tree_.nodes[i].children[r];
            parentOf_[c] = i;
            rowOf_[c] = int(r);
        }
    endResetModel();
}

const ModuleCost* ModuleTreeModel::costAt(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == 0) return nullptr;
    return &tree_.nodes[size_t(index.internalId() - 1)];
}

const std::vector<size_t>& ModuleTreeModel::childrenOf(const QModelIndex& parent) const {
    if (!parent.isValid()) return tree_.roots;
    return tree_.nodes[size_t(parent.internalId() - 1)].children;
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const auto& kids = childrenOf(parent);
    if (size_t(row) >= kids.size()) return {};
    return createIndex(row, column, quintptr(kids[size_t(row)] + 1));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const auto p = parentOf_[size_t(child.internalId() - 1)];
    if (!p) return {};
    return createIndex(rowOf_[*p], 0, quintptr(*p + 1));
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    return int(childrenOf(parent).size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
    const ModuleCost* n = costAt(index);
    if (!n) return {};
    const double totalMs = double(n->totalNs) / 1e6, selfMs = double(n->selfNs) / 1e6;
    const double gflops = double(n->flops) / 1e9, mbytes = double(n->bytes) / 1e6;
    const double ai = n->bytes > 0 ? double(n->flops) / double(n->bytes) : 0.0;
    // No op of the module has a FLOP formula: "–", never a misleading 0.
    const bool known = n->flopsKnown;
    const QString bound = !known || n->bytes == 0 || ridge_ <= 0 ? QString()
                          : ai < ridge_                          ? tr("memory")
                                                                 : tr("compute");
    if (role == SortRole) {
        switch (index.column()) {
        case Module:
            return QString::fromStdString(n->module.path);
        case Kind:
            return QString::fromStdString(n->module.kind);
        case Calls:
            return qlonglong(n->calls);
        case TotalMs:
            return totalMs;
        case SelfMs:
            return selfMs;
        case Share:
            return n->share;
        case GFlops:
            return known ? gflops : -1.0;
        case MBytes:
            return mbytes;
        case Intensity:
            return known ? ai : -1.0;
        case BoundColumn:
            return bound;
        case DeviceMs:
            return n->deviceNs ? double(*n->deviceNs) / 1e6 : -1.0;
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Module: {
            // The last path component reads best in a tree ("layer.3" rather than
            // "3" for numbered children); the tooltip has the full path.
            const QString path = QString::fromStdString(n->module.path);
            bool numbered = false;
            path.section(QLatin1Char('.'), -1).toInt(&numbered);
            return path.section(QLatin1Char('.'), numbered ? -2 : -1);
        }
        case Kind:
            return QString::fromStdString(n->module.kind);
        case Calls:
            return qlonglong(n->calls);
        case TotalMs:
            return QString::number(totalMs, 'f', 3);
        case SelfMs:
            return QString::number(selfMs, 'f', 3);
        case Share:
            return QString(QString::number(n->share * 100.0, 'f', 1) + QLatin1Char('%'));
        case GFlops:
            return known ? QString::number(gflops, 'f', 4) : QStringLiteral("–");
        case MBytes:
            return QString::number(mbytes, 'f', 2);
        case Intensity:
            return known && n->bytes > 0 ? QString::number(ai, 'f', 2) : QString();
        case BoundColumn:
            return bound;
        case DeviceMs:
            return n->deviceNs ? QString::number(double(*n->deviceNs) / 1e6, 'f', 3)
                               : QStringLiteral("–");
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1 (%2 parameters)")
            .arg(QString::fromStdString(n->module.path))
            .arg(n->module.params);
    if (role == Qt::TextAlignmentRole && index.column() >= Calls)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Module:
            return tr("Module");
        case Kind:
            return tr("Kind");
        case Calls:
            return tr("Calls");
        case TotalMs:
            return tr("Total ms");
        case SelfMs:
            return tr("Self ms");
        case Share:
            return tr("% of run");
        case GFlops:
            return tr("GFLOP (est.)");
        case MBytes:
            return tr("MB (est.)");
        case Intensity:
            return tr("FLOP/B (est.)");
        case BoundColumn:
            return tr("Bound");
        case DeviceMs:
            return tr("GPU ms");
        }
    }
    if (role == Qt::ToolTipRole) {
        if (section >= TotalMs && section <= Share) return tr("Measured wall time");
        if (section == BoundColumn)
            return tr("Memory- or compute-bound against the device's measured ridge point");
        if (section == DeviceMs)
            return tr("Measured GPU time of the module, children included: the kernels, copies "
                      "and fills launched inside it (CUPTI or the trace's profiler), or without "
                      "them the time between CUDA events at each call's start and end");
        if (section >= GFlops) return tr("Estimated from the recorded op shapes");
    }
    return {};
}

} // namespace mvp::views
