#include "views/ItemViews.h"

#include <QEvent>
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

// Every column at least as wide as its header asks (a cut header hides what
// the column is); the last one stretches into the room left, never below
// that. Checked again whenever the columns or the view's width change.
class HeaderFitter : public QObject {
public:
    explicit HeaderFitter(QHeaderView* header) : QObject(header), header_(header) {
        header->installEventFilter(this);
        connect(header, &QHeaderView::sectionCountChanged, this, &HeaderFitter::fit);
        if (auto* model = header->model())
            connect(model, &QAbstractItemModel::modelReset, this, &HeaderFitter::fit);
    }
    void fit() {
        const int n = header_->count();
        for (int i = 0; i < n; ++i) {
            if (header_->isSectionHidden(i)) continue;
            const int wanted = header_->sectionSizeHint(i);
            if (header_->sectionSize(i) < wanted) {
                if (i == n - 1 && header_->stretchLastSection())
                    header_->setStretchLastSection(false); // it would stay narrower
                header_->resizeSection(i, wanted);
            }
        }
    }

protected:
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Resize || e->type() == QEvent::Show) fit();
        return false;
    }

private:
    QHeaderView* header_;
};
} // namespace

void setUpTable(QTableView* view, QSortFilterProxyModel* proxy, QAbstractItemModel* source) {
    connectProxy(proxy, source);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    new HeaderFitter(view->horizontalHeader());
}

void setUpTree(QTreeView* view, QSortFilterProxyModel* proxy, QAbstractItemModel* source) {
    connectProxy(proxy, source);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    new HeaderFitter(view->header());
}

} // namespace mvp::views
