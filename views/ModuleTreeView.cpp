#include "views/ModuleTreeView.h"

#include "views/ItemViews.h"
#include "views/ModuleTreeModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <set>

namespace mvp::views {

namespace {
// Text filter on the full path plus a kind filter; a match keeps its ancestors.
class ModuleFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QString kind;
    void refresh() { invalidateFilter(); }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        if (!kind.isEmpty()) {
            const QModelIndex k = sourceModel()->index(row, ModuleTreeModel::Kind, parent);
            if (k.data().toString() != kind) return false;
        }
        return QSortFilterProxyModel::filterAcceptsRow(row, parent);
    }
};
} // namespace

ModuleTreeView::ModuleTreeView(QWidget* parent)
    : QWidget(parent), model_(new ModuleTreeModel(this)), proxy_(new ModuleFilter(this)),
      view_(new QTreeView(this)), filter_(new QLineEdit(this)), kind_(new QComboBox(this)) {
    setUpTree(view_, proxy_, model_);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setRecursiveFilteringEnabled(true); // a match keeps its ancestors visible
    // Filter on the full path (the sort role of the first column), not the short label.
    proxy_->setFilterRole(ModuleTreeModel::SortRole);
    proxy_->setFilterKeyColumn(ModuleTreeModel::Module);

    filter_->setPlaceholderText(tr("Filter modules (e.g. expert, layer.1, attn)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

    view_->sortByColumn(ModuleTreeModel::TotalMs, Qt::DescendingOrder);
    view_->header()->setStretchLastSection(false);
    // Names whole ("patch_embed", not "patch_…"): the column takes its
    // contents' width when a run loads; the view scrolls sideways instead.
    view_->header()->setSectionResizeMode(ModuleTreeModel::Module, QHeaderView::Interactive);

    kind_->setToolTip(tr("Show only modules of one kind"));
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        auto* f = static_cast<ModuleFilter*>(proxy_);
        f->kind = kind_->currentData().toString();
        f->refresh();
    });
    auto* row = new QHBoxLayout;
    row->addWidget(filter_, 1);
    row->addWidget(kind_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(view_);
}

namespace {
// Rows are identified across reloads by their full path (the first column's sort role).
QString pathOf(const QModelIndex& index) {
    return index.siblingAtColumn(ModuleTreeModel::Module)
        .data(ModuleTreeModel::SortRole)
        .toString();
}

template <typename Visit>
void visitRows(const QAbstractItemModel& m, const QModelIndex& parent, const Visit& visit) {
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        visit(i);
        visitRows(m, i, visit);
    }
}
} // namespace

void ModuleTreeView::setTree(ModuleCostTree tree, double ridge, bool keepState) {
    std::set<QString> expanded;
    const QString kind = kind_->currentData().toString();
    const QString current = pathOf(view_->currentIndex());
    if (keepState)
        visitRows(*proxy_, {}, [&](const QModelIndex& i) {
            if (view_->isExpanded(i)) expanded.insert(pathOf(i));
        });
    {
        QSignalBlocker block(kind_);
        kind_->clear();
        kind_->addItem(tr("All kinds"), QString());
        std::set<std::string> kinds;
        for (const auto& n : tree.nodes)
            kinds.insert(n.module.kind);
        for (const auto& k : kinds)
            kind_->addItem(QString::fromStdString(k), QString::fromStdString(k));
        static_cast<ModuleFilter*>(proxy_)->kind.clear();
    }
    // A run without GPU activity has no GPU time to show: no column of "–".
    const bool gpu = !tree.nodes.empty() && tree.nodes.front().deviceNs.has_value();
    model_->setTree(std::move(tree), ridge);
    view_->setColumnHidden(ModuleTreeModel::DeviceMs, !gpu);
    if (!keepState) {
        view_->expandToDepth(0);
        for (int c = 0; c < ModuleTreeModel::ColumnCount; ++c)
            view_->resizeColumnToContents(c);
        return;
    }
    kind_->setCurrentIndex(std::max(0, kind_->findData(kind)));
    visitRows(*proxy_, {}, [&](const QModelIndex& i) {
        const QString path = pathOf(i);
        if (expanded.count(path)) view_->setExpanded(i, true);
        if (!current.isEmpty() && path == current) view_->setCurrentIndex(i);
    });
}

} // namespace mvp::views
