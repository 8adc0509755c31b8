#pragma once
// Table models for a what-if comparison (docs/diagnostics.md §9): the design
// note's setup table plus fidelity, what the transforms did, and the module
// A/B diff. Every figure says whether it is measured or predicted (its
// header, or its tooltip and kind column). SortRole gives numbers to sort by.

#include "core/compare/Comparison.h"
#include "core/compare/EvalComparison.h"
#include "views/ItemViews.h"
#include "views/RowTableModel.h"

#include <optional>

namespace mvp::views {

inline constexpr int ComparisonSortRole = SortRole;

// The one latency a comparison shows per side — in the setup table and in
// the summary alike, so the two cannot disagree: the A/B medians with their
// intervals when the what-if ran repetitions, the per-item medians of eval
// runs, else each run's probed wall time (one run each, no interval).
struct ShownLatency {
    enum class Source { AbMedians, ItemMedians, ProbedRuns };
    Source source = Source::ProbedRuns;
    Interval a, b;   // milliseconds; low = high = median without an interval
    int samples = 1; // repetitions, items, or 1
    bool hasInterval() const { return source != Source::ProbedRuns; }
};
ShownLatency shownLatency(const Comparison& c, const EvalComparison* eval);
QString latencyText(const Interval& ms, bool interval); // "41.70 [40.90, 43.00]"

// One line of the setup table: a run as measured, or a what-if as predicted.
struct SetupRow {
    QString setup;
    bool predicted = false;
    Interval latencyMs;  // the shown latency (ShownLatency), or the prediction
    double probedMs = 0; // the probed run's wall time: what it cost with probes on
    double qps = 0;
    std::optional<double> peakMiB, peakGpuMiB, weightsMiB, kvMiB, predictionError;
    int visualTokens = 0;
    std::optional<double> klMean, top1, tokenMatch, visionCosine;
    QString energy;
};

class ComparisonModel : public RowTableModel<SetupRow> {
    Q_OBJECT
public:
    enum Column {
        Setup,
        Latency,
        ProbedLatency, // hidden where it is the shown latency (no repetitions)
        PeakMemory,
        PeakGpu,
        Qps,
        Energy,
        Weights,
        Kv,
        VisualTokens,
        Kl,
        Top1,
        TokenMatch,
        VisionCosine,
        ColumnCount
    };
    explicit ComparisonModel(QObject* parent = nullptr);
    void setComparison(const Comparison& c, const QString& baseLabel, const QString& runLabel,
                       const EvalComparison* eval = nullptr);
    const ShownLatency& latency() const { return latency_; }
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString header(int section) const; // one line
    QString gpuMemoryWhy_; // why the GPU column is n/a; empty where it is shown or not a GPU run
    ShownLatency latency_;
};

class RunMetricsModel : public RowTableModel<RunMetricRow> {
    Q_OBJECT
public:
    enum Column { Name, Value, Unit, Kind, Note, ColumnCount };
    explicit RunMetricsModel(QObject* parent = nullptr);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

class ModuleDiffModel : public RowTableModel<ModuleDiffRow> {
    Q_OBJECT
public:
    enum Column {
        Module,
        Kind,
        ATime,
        BTime,
        DeltaTime,
        DeltaSelf,
        Ratio,
        DeltaFlops,
        DeltaBytes,
        ColumnCount
    };
    explicit ModuleDiffModel(QObject* parent = nullptr);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

} // namespace mvp::views
