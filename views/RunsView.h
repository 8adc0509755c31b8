#pragma once
// The session explorer: the runs of a session with their status, model,
// device, transform, prompt and generated text. Choosing a run asks the window to show it.

#include "core/session/Records.h"
#include "views/ItemViews.h"
#include "views/RowTableModel.h"

#include <QWidget>

class QSortFilterProxyModel;
class QTableView;

namespace mvp::views {

class RunsModel : public RowTableModel<RunInfo> {
    Q_OBJECT
public:
    enum Column {
        Id,
        Label,
        Status,
        Model,
        Device,
        Transform,
        WallMs,
        Prompt,
        Output,
        ColumnCount
    };
    static constexpr int SortRole = views::SortRole;
    explicit RunsModel(QObject* parent = nullptr);
    void setRuns(std::vector<RunInfo> runs, int64_t current);
    const RunInfo* runAt(const QModelIndex& index) const { return rowAt(index); }
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    int64_t current_ = 0;
};

class RunsView : public QWidget {
    Q_OBJECT
public:
    explicit RunsView(QWidget* parent = nullptr);
    void setRuns(std::vector<RunInfo> runs, int64_t current);
    QTableView* table() const { return table_; }

signals:
    void runChosen(qint64 runId);

private:
    RunsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
};

} // namespace mvp::views
