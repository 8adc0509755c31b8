#include "views/LiveRunsModel.h"

#include "views/Colours.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>

namespace mvp::views {

LiveRunsModel::LiveRunsModel(QObject* parent) : RowTableModel(parent) {}

void LiveRunsModel::refresh() {
    setRuns(listLiveRuns());
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
    if (role == Qt::ForegroundRole && r->stale)
        return QBrush(colours::muted(QGuiApplication::palette()));
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
