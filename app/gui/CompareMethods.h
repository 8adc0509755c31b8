#pragma once
// What-if → Compare Methods…: a sweep of published methods over budgets
// (`mvprof-cli whatif --sweep … --progress jsonl`) chosen in a dialog, and a
// window with its table and its Pareto plot; a point or row opens that
// what-if's comparison, a clicked point selects its row. Close or Escape
// closes the window.

#include "views/SweepModels.h"

#include <QDialog>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace mvp {
namespace views {
class ParetoView;
}

struct SweepRequest {
    QString session;
    qint64 baseline = 0; // 0: the session's first complete baseline
    QStringList methods; // catalogue keys of one budget family: visual tokens or the KV cache
    QString budgets;     // "192,128,64"; empty: mvprof-cli's default grid
    int reps = 3;
    QStringList arguments() const;
};

class CompareMethodsDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareMethodsDialog(QWidget* parent = nullptr);
    SweepRequest request() const; // session and baseline left for the caller

private:
    void showFamily(); // the methods and default budgets of the chosen family

    QComboBox* family_;
    std::vector<std::pair<QString, QCheckBox*>> methods_; // name, check box
    QLineEdit* budgets_;
    QSpinBox* reps_;
};

class CompareMethodsWindow : public QWidget {
    Q_OBJECT
public:
    explicit CompareMethodsWindow(QWidget* parent = nullptr);
    void setTable(const views::SweepTable& table);
    views::ParetoView* pareto() const { return pareto_; }
    QTableView* table() const { return view_; }
    void selectRun(qint64 run); // the table's row of this what-if, selected and scrolled to

signals:
    void openRun(qint64 run);

private:
    views::SweepTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    views::ParetoView* pareto_;
};

} // namespace mvp
