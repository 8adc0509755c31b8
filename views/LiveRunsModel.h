#pragma once
// Runs being captured right now (from their announcements), as a table.

#include "core/session/LiveRuns.h"

#include <QAbstractTableModel>

namespace mvp::views {

class LiveRunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Pid, Model, Session, Started, State, ColumnCount };
    explicit LiveRunsModel(QObject* parent = nullptr);
    void refresh(); // re-reads the announcements
    void setRuns(std::vector<LiveRun> runs);
    const LiveRun* runAt(const QModelIndex& index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<LiveRun> runs_;
};

} // namespace mvp::views
