#pragma once
// The module cost tree view: a filter box over a sortable tree.

#include "core/analysis/ModuleCosts.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace mvp::views {

class ModuleTreeModel;

class ModuleTreeView : public QWidget {
    Q_OBJECT
public:
    explicit ModuleTreeView(QWidget* parent = nullptr);
    // keepState: a reload of the same run (a live capture growing) keeps the
    // kind filter, the expanded rows and the current row.
    void setTree(ModuleCostTree tree, double ridge = 0, bool keepState = false);

    ModuleTreeModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTreeView* tree() const { return view_; }
    QLineEdit* filter() const { return filter_; }

private:
    ModuleTreeModel* model_;
    QSortFilterProxyModel* proxy_;
    QTreeView* view_;
    QLineEdit* filter_;
    QComboBox* kind_;
};

} // namespace mvp::views
