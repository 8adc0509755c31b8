#include "views/ModuleTreeView.h"

#include "views/ModuleTreeModel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace mvp::views {

ModuleTreeView::ModuleTreeView(QWidget* parent)
    : QWidget(parent), model_(new ModuleTreeModel(this)), proxy_(new QSortFilterProxyModel(this)),
      view_(new QTreeView(this)), filter_(new QLineEdit(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ModuleTreeModel::SortRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setRecursiveFilteringEnabled(true);  // a match keeps its ancestors visible
    // Filter on the full path (the sort role of the first column), not the short label.
    proxy_->setFilterRole(ModuleTreeModel::SortRole);
    proxy_->setFilterKeyColumn(ModuleTreeModel::Module);

    filter_->setPlaceholderText(tr("Filter modules (e.g. expert, layer.1, attn)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(ModuleTreeModel::TotalMs, Qt::DescendingOrder);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(ModuleTreeModel::Module, QHeaderView::Stretch);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_);
    layout->addWidget(view_);
}

void ModuleTreeView::setTree(ModuleCostTree tree) {
    model_->setTree(std::move(tree));
    view_->expandToDepth(0);
    for (int c = 1; c < ModuleTreeModel::ColumnCount; ++c) view_->resizeColumnToContents(c);
}

} // namespace mvp::views
