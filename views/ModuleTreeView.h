#pragma once
// The module cost tree view: a filter box over a sortable tree.

#include "core/analysis/ModuleCosts.h"

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace mvp::views {

class ModuleTreeModel;

class ModuleTreeView : public QWidget {
    Q_OBJECT
public:
    explicit ModuleTreeView(QWidget* parent = nullptr);
    void setTree(ModuleCostTree tree);

    ModuleTreeModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTreeView* tree() const { return view_; }
    QLineEdit* filter() const { return filter_; }

private:
    ModuleTreeModel* model_;
    QSortFilterProxyModel* proxy_;
    QTreeView* view_;
    QLineEdit* filter_;
};

} // namespace mvp::views
