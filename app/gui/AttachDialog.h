#pragma once
// Attach…: lists the runs being captured on this machine right now (programs
// using the capture library announce themselves) and opens the chosen one live.

#include <QDialog>

class QSortFilterProxyModel;
class QTableView;

namespace mvp {
namespace views {
class LiveRunsModel;
}

class AttachDialog : public QDialog {
    Q_OBJECT
public:
    explicit AttachDialog(QWidget* parent = nullptr);
    views::LiveRunsModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString chosenSession() const { return chosen_; }
    qint64 chosenRun() const { return run_; }
    void accept() override;

private:
    views::LiveRunsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QString chosen_;
    qint64 run_ = 0;
};

} // namespace mvp
