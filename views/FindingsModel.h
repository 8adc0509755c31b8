#pragma once
// Findings as a table model: severity, title, suggestion, where to look.
// Qt::UserRole sorts (severity by rank); FindingRole returns the row index.

#include "core/analysis/Analysis.h"

#include <QAbstractTableModel>

namespace mvp::views {

class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, Title, Suggestion, View, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit FindingsModel(QObject* parent = nullptr);
    void setFindings(std::vector<Finding> findings);
    const Finding* findingAt(const QModelIndex& index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<Finding> findings_;
};

} // namespace mvp::views
