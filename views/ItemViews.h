#pragma once
// The one way mvprof's tables and trees are set up, and the item-data roles
// every model answers beyond Qt's own: a view always sits behind a sorting,
// filtering proxy that sorts by the raw value (SortRole), never by the
// formatted text; tables select whole rows and hide the row numbers.

#include <Qt>

class QAbstractItemModel;
class QSortFilterProxyModel;
class QTableView;
class QTreeView;

namespace mvp::views {

// The raw value a cell sorts (and filters) by: a number, a full path.
inline constexpr int SortRole = Qt::UserRole;

// Source → proxy (sorting by SortRole) → view, sortable by clicking a column.
void setUpTable(QTableView* view, QSortFilterProxyModel* proxy, QAbstractItemModel* source);
void setUpTree(QTreeView* view, QSortFilterProxyModel* proxy, QAbstractItemModel* source);

} // namespace mvp::views
