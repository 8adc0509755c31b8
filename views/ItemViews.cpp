#include "views/ItemViews.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>

namespace mvp::views {

namespace {
void connectProxy(QSortFilterProxyModel* proxy, QAbstractItemModel* source) {
    if (source) proxy->setSourceModel(source);
    proxy->setSortRole(SortRole);
}
} // namespace

void setUpTable(QTableView* view, QSortFilterProxyModel* proxy, QAbstractItemModel* source) {
    connectProxy(proxy, source);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
}

void setUpTree(QTreeView* view, QSortFilterProxyModel* proxy, QAbstractItemModel* source) {
    connectProxy(proxy, source);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
}

} // namespace mvp::views
