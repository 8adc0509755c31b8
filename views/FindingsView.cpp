#include "views/FindingsView.h"

#include "views/FindingsModel.h"
#include "views/ItemViews.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace mvp::views {

FindingsView::FindingsView(QWidget* parent)
    : QWidget(parent), model_(new FindingsModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)) {
    setUpTable(table_, proxy_, model_);
    table_->sortByColumn(FindingsModel::SeverityColumn, Qt::DescendingOrder);
    table_->setWordWrap(true);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(FindingsModel::Title, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(FindingsModel::Suggestion,
                                                     QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (const Finding* f = model_->findingAt(proxy_->mapToSource(index)))
            emit findingActivated(*f);
    });
}

void FindingsView::setFindings(std::vector<Finding> findings) {
    model_->setFindings(std::move(findings));
    table_->resizeColumnToContents(FindingsModel::SeverityColumn);
    table_->resizeColumnToContents(FindingsModel::View);
}

} // namespace mvp::views
