#include "views/LiveRunsModel.h"

#include <QBrush>
#include <QColor>

namespace mvp::views {

LiveRunsModel::LiveRunsModel(QObject* parent) : QAbstractTableModel(parent) {}

void LiveRunsModel::refresh() {
    setRuns(listLiveRuns());
}

void LiveRunsModel::setRuns(std::vector<LiveRun> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

const LiveRun* LiveRunsModel::runAt(const QModelIndex& index) const {
    return index.isValid() && index.row() < int(runs_.size()) ? &runs_[size_t(index.row())]
                                                              : nullptr;
}

int LiveRunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(runs_.size());
}
int LiveRunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveRunsModel::data(const QModelIndex& index, int role) const {
    const LiveRun* r = runAt(index);
    if (!r) return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Pid:
            return qlonglong(r->pid);
        case Model:
            return QString::fromStdString(r->model);
        case Session:
            return QString::fromStdString(r->session);
        case Started:
            return QString::fromStdString(r->startedUtc);
        case State:
            return r->stale ? tr("stale (process gone)") : tr("live");
        }
    }
    if (role == Qt::ForegroundRole && r->stale) return QBrush(QColor(140, 140, 140));
    return {};
}

QVariant LiveRunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Pid:
        return tr("Process");
    case Model:
        return tr("Model");
    case Session:
        return tr("Session file");
    case Started:
        return tr("Started (UTC)");
    case State:
        return tr("State");
    }
    return {};
}

} // namespace mvp::views
