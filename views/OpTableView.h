#pragma once
// The op table: every top-level op of the run summed by name (calls, time,
// share of the run, estimated GFLOP and MB, the share of its time with known
// FLOPs), sortable and filterable by name. For a capture and an imported
// trace alike (op_total rows). Sorting reads views::SortRole (ItemViews.h).

#include "core/session/Records.h"
#include "views/RowTableModel.h"

#include <QWidget>
#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace mvp::views {

struct SessionData;

class OpTableModel : public RowTableModel<OpTotal> {
    Q_OBJECT
public:
    enum Column { Name, Calls, TotalMs, Share, GFlops, MBytes, FlopsKnown, ColumnCount };
    explicit OpTableModel(QObject* parent = nullptr);
    void setRun(std::vector<OpTotal> byName, int64_t wallNs);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    int64_t wallNs_ = 1;
};

class OpTableView : public QWidget {
    Q_OBJECT
public:
    explicit OpTableView(QWidget* parent = nullptr);
    void setSession(const std::shared_ptr<const SessionData>& data);
    OpTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    QLineEdit* filter() const { return filter_; }

private:
    OpTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
};

} // namespace mvp::views
