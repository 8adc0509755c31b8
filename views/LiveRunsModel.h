#pragma once
// Runs being captured right now (from their announcements), as a table.

#include "core/session/LiveRuns.h"
#include "views/RowTableModel.h"

namespace mvp::views {

class LiveRunsModel : public RowTableModel<LiveRun> {
    Q_OBJECT
public:
    enum Column { Pid, Model, Session, Started, State, ColumnCount };
    explicit LiveRunsModel(QObject* parent = nullptr);
    void refresh(); // re-reads the announcements
    void setRuns(std::vector<LiveRun> runs) { setRows(std::move(runs)); }
    const LiveRun* runAt(const QModelIndex& index) const { return rowAt(index); }

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

} // namespace mvp::views
