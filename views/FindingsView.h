#pragma once
// The findings list, most severe first; activating one asks the window to
// show the view and selection it points to.

#include "core/analysis/Analysis.h"

#include <QWidget>

class QSortFilterProxyModel;
class QTableView;

namespace mvp::views {

class FindingsModel;

class FindingsView : public QWidget {
    Q_OBJECT
public:
    explicit FindingsView(QWidget* parent = nullptr);
    void setFindings(std::vector<Finding> findings);
    QTableView* table() const { return table_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }

signals:
    void findingActivated(const mvp::Finding& finding);

private:
    FindingsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
};

} // namespace mvp::views
