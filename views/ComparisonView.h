#pragma once
// Two runs side by side (docs/diagnostics.md §9): choose A and B, then the setup
// table (latency, peak memory, QPS, J/inference, weight and KV bytes, visual
// tokens, fidelity; measured or predicted), the A/B repetitions as a table
// and as bars with error bars, what B's transforms did, the
// module-by-module diff sorted by impact, and both heatmaps with pruned
// patches greyed out. Two eval runs (docs/eval.md) add their accuracy with
// intervals to the summary and an items table, filterable to the answers
// that changed; choosing an item shows its two heatmaps (EvalItemHeatmaps).
// Loading and comparing happen off the GUI thread.

#include "core/session/Records.h"
#include "views/LatestJob.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QCheckBox;
class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace mvp::views {

struct SessionData;
struct ComparisonResult;
class AbChart;
class AbTimingsModel;
class EvalItemsModel;
class EvalItemHeatmaps;
class ComparisonModel;
class HeatmapView;
class ModuleDiffModel;
class RunMetricsModel;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);
    ~ComparisonView() override;

    // The session's runs to choose from. Keeps the chosen pair when it still exists;
    // with none chosen in this session, compares its newest what-if with its baseline.
    void setRuns(const QString& path, const std::vector<RunInfo>& runs);
    // Compares run a (A, usually the baseline) with run b in the background; compared() follows.
    void compare(qint64 a, qint64 b);
    // The height that shows the setup table whole and a few rows of what
    // B's transforms did (the window sizes its dock to it).
    int preferredHeight() const;
    qint64 runA() const { return a_; }
    qint64 runB() const { return b_; }

    ComparisonModel* setups() const { return setups_; }
    RunMetricsModel* details() const { return details_; }
    ModuleDiffModel* moduleDiff() const { return diff_; }
    AbTimingsModel* abTimings() const { return ab_; }
    AbChart* abChart() const { return abChart_; }
    QSortFilterProxyModel* moduleDiffProxy() const { return diffProxy_; }
    HeatmapView* heatmapA() const { return heatA_; }
    HeatmapView* heatmapB() const { return heatB_; }
    QTabWidget* tabs() const { return tabs_; }
    EvalItemsModel* evalItems() const { return evalItems_; }
    EvalItemHeatmaps* itemHeatmaps() const { return itemHeatmaps_; }

signals:
    void compared();
    void compareFailed(const QString& message);

private:
    void chosen();
    void show(const ComparisonResult& r);
    void showEval(const ComparisonResult& r);
    QWidget* makeItemsPage();
    QWidget* makeHeatmapsPage();
    void showItemHeatmaps(const QModelIndex& current);

    QString path_;
    qint64 a_ = 0, b_ = 0;
    QComboBox* pickA_;
    QComboBox* pickB_;
    QLabel* summary_;
    QTabWidget* tabs_;
    ComparisonModel* setups_;
    RunMetricsModel* details_;
    ModuleDiffModel* diff_;
    QSortFilterProxyModel* setupsProxy_;
    QSortFilterProxyModel* detailsProxy_;
    QSortFilterProxyModel* diffProxy_;
    QLineEdit* diffFilter_;
    QTableView* setupTable_ = nullptr;
    QTableView* detailsTable_ = nullptr;
    EvalItemsModel* evalItems_ = nullptr;
    QSortFilterProxyModel* evalItemsProxy_ = nullptr;
    QCheckBox* changedOnly_ = nullptr;
    QTableView* evalItemsTable_ = nullptr;
    QWidget* itemsPage_ = nullptr;
    EvalItemHeatmaps* itemHeatmaps_ = nullptr;
    AbTimingsModel* ab_;
    QSortFilterProxyModel* abProxy_;
    QTableView* abTable_ = nullptr;
    AbChart* abChart_;
    HeatmapView* heatA_;
    HeatmapView* heatB_;
    void finishComparison(const std::shared_ptr<ComparisonResult>& r);
    // Declared last: destroyed first, before the widgets its results fill.
    LatestJob<std::shared_ptr<ComparisonResult>> comparisons_{
        this, [this](auto r) { finishComparison(r); }};
};

} // namespace mvp::views
