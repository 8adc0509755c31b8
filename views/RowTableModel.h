#pragma once
// The common part of the table models that show one plain row per line:
// the rows, their count and a typed lookup. Subclasses add columns, data()
// and headerData().

#include <QAbstractTableModel>
#include <vector>

namespace mvp::views {

template <typename Row> class RowTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    const std::vector<Row>& rows() const { return rows_; }
    const Row* rowAt(const QModelIndex& index) const {
        return index.isValid() && index.row() < int(rows_.size()) ? &rows_[size_t(index.row())]
                                                                  : nullptr;
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(rows_.size());
    }

protected:
    std::vector<Row> rows_;
};

} // namespace mvp::views
