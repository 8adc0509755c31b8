#pragma once
// Findings as a table model: severity, title, suggestion, where to look.
// Qt::UserRole sorts (severity by rank); FindingRole returns the row index.

#include "core/analysis/Analysis.h"
#include "views/ItemViews.h"
#include "views/RowTableModel.h"

namespace mvp::views {

class FindingsModel : public RowTableModel<Finding> {
    Q_OBJECT
public:
    enum Column { SeverityColumn, Title, Suggestion, View, ColumnCount };
    static constexpr int SortRole = views::SortRole;

    explicit FindingsModel(QObject* parent = nullptr);
    void setFindings(std::vector<Finding> findings) { setRows(std::move(findings)); }
    const Finding* findingAt(const QModelIndex& index) const { return rowAt(index); }

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

} // namespace mvp::views
