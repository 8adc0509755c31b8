#include "views/ComparisonModels.h"

#include "views/Colours.h"
#include "views/Labels.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>

namespace mvp::views {

namespace {
QVariant number(const std::optional<double>& v, int decimals) {
    return v ? QVariant(QString::number(*v, 'f', decimals)) : QVariant(ComparisonModel::tr("n/a"));
}
QString percent(double v) {
    return QStringLiteral("%1 %").arg(100.0 * v, 0, 'f', 0);
}

QString latencyWhy(const ShownLatency& l) {
    switch (l.source) {
    case ShownLatency::Source::AbMedians:
        return ComparisonModel::tr(
                   "Measured: the median of the interleaved A/B repetitions without probes "
                   "(%1 pairs), with its 95 % interval; the summary's speed-up comes from the "
                   "same repetitions. QPS derived: 1 / latency.")
            .arg(l.samples);
    case ShownLatency::Source::ItemMedians:
        return ComparisonModel::tr("Measured: the median wall time per item over the items "
                                   "(%1), with its 95 % interval. QPS derived: 1 / latency.")
            .arg(l.samples);
    case ShownLatency::Source::ProbedRuns:
        return ComparisonModel::tr(
            "Measured: one run each, with the probes on, so no interval; run the what-if with "
            "repetitions (--reps) to compare latency. QPS derived: 1 / latency.");
    }
    return {};
}
} // namespace

// ---- setups ------------------------------------------------------------------

ShownLatency shownLatency(const Comparison& c, const EvalComparison* eval) {
    ShownLatency l;
    auto ms = [](const Interval& ns) {
        return Interval{ns.median / 1e6, ns.low / 1e6, ns.high / 1e6, ns.n, ns.coverage};
    };
    if (eval) {
        l.source = ShownLatency::Source::ItemMedians;
        l.a = eval->baseline.itemMs;
        l.b = eval->whatIf.itemMs;
        l.samples = eval->whatIf.items;
    } else if (c.ab) {
        l.source = ShownLatency::Source::AbMedians;
        l.a = ms(c.ab->total.baseline);
        l.b = ms(c.ab->total.whatIf);
        l.samples = c.ab->reps;
    } else {
        const double a = double(c.baseWallNs) / 1e6, b = double(c.runWallNs) / 1e6;
        l.a = {a, a, a, 1, 0};
        l.b = {b, b, b, 1, 0};
    }
    return l;
}

QString latencyText(const Interval& ms, bool interval) {
    const QString median = QString::number(ms.median, 'f', 2);
    return interval
               ? QStringLiteral("%1 [%2, %3]")
                     .arg(median, QString::number(ms.low, 'f', 2), QString::number(ms.high, 'f', 2))
               : median;
}

ComparisonModel::ComparisonModel(QObject* parent) : RowTableModel(parent) {}

void ComparisonModel::setComparison(const Comparison& c, const QString& baseLabel,
                                    const QString& runLabel, const EvalComparison* eval) {
    latency_ = shownLatency(c, eval);
    auto qpsOf = [](double ms) { return ms > 0 ? 1e3 / ms : 0.0; };
    const double mib = double(1 << 20);
    auto optMiB = [&](const std::optional<double>& b) {
        return b ? std::optional<double>(*b / mib) : std::nullopt;
    };
    // Joules where both runs read RAPL, else "n/a" (the reason is in the tooltip's text).
    const QString na = QString::fromStdString(c.energy).section(QLatin1Char(' '), 0, 0);
    auto joules = [&](const std::optional<double>& j) {
        return j ? QString::number(*j, 'g', 3) : na;
    };
    std::vector<SetupRow> rows;
    SetupRow base;
    base.setup = baseLabel;
    base.latencyMs = latency_.a;
    base.probedMs = double(c.baseWallNs) / 1e6;
    base.qps = qpsOf(latency_.a.median);
    base.peakMiB = double(c.basePeakRss) / mib;
    base.peakGpuMiB = optMiB(c.basePeakGpuBytes);
    base.weightsMiB = optMiB(c.baseWeightBytes);
    base.kvMiB = optMiB(c.baseKvBytes);
    base.visualTokens = c.baseVisualTokens;
    base.energy = joules(c.baseEnergyJ);
    rows.push_back(base);
    SetupRow run;
    run.setup = runLabel;
    run.latencyMs = latency_.b;
    run.probedMs = double(c.runWallNs) / 1e6;
    run.qps = qpsOf(latency_.b.median);
    run.peakMiB = double(c.runPeakRss) / mib;
    run.peakGpuMiB = optMiB(c.runPeakGpuBytes);
    run.weightsMiB = optMiB(c.runWeightBytes);
    run.kvMiB = optMiB(c.runKvBytes);
    run.visualTokens = c.runVisualTokens;
    run.energy = joules(c.runEnergyJ);
    if (c.fidelity) {
        run.klMean = c.klMean;
        run.top1 = c.top1Agreement;
        run.tokenMatch = c.tokenMatch;
        run.visionCosine = c.visionCosine;
    }
    rows.push_back(run);
    if (c.predictedWallNs) {
        SetupRow p;
        p.setup = tr("%1 (predicted)").arg(runLabel);
        p.predicted = true;
        const double ms = *c.predictedWallNs / 1e6;
        p.latencyMs = {ms, ms, ms, 1, 0};
        p.qps = qpsOf(ms);
        p.predictionError = c.predictionError();
        p.visualTokens = c.runVisualTokens;
        p.energy = QStringLiteral("–"); // no energy is predicted
        rows.push_back(p);
    }
    gpuMemoryWhy_ = QString::fromStdString(c.gpuMemory);
    setRows(std::move(rows));
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    const SetupRow* r = rowAt(index);
    if (!r) return {};
    const int col = index.column();
    const bool onlyMeasured = col == ProbedLatency || col == PeakMemory || col == PeakGpu ||
                              col == Weights || col == Kv || col >= Kl;
    if (role == Qt::DisplayRole) {
        if (r->predicted && onlyMeasured) return QStringLiteral("–");
        switch (col) {
        case Setup:
            return r->setup;
        case Latency:
            return r->predictionError
                       ? tr("%1 (%2 vs measured)")
                             .arg(r->latencyMs.median, 0, 'f', 2)
                             .arg(QString::asprintf("%+.0f %%", 100.0 * *r->predictionError))
                       : latencyText(r->latencyMs, latency_.hasInterval());
        case ProbedLatency:
            return QString::number(r->probedMs, 'f', 2);
        case PeakMemory:
            return number(r->peakMiB, 1);
        case PeakGpu:
            return number(r->peakGpuMiB, 1);
        case Qps:
            return QString::number(r->qps, 'f', 2);
        case Energy:
            return r->energy;
        case Weights:
            return number(r->weightsMiB, 2);
        case Kv:
            return number(r->kvMiB, 3);
        case VisualTokens:
            return r->visualTokens;
        case Kl:
            return r->klMean ? QVariant(QString::number(*r->klMean, 'g', 4))
                             : QVariant(QStringLiteral("–"));
        case Top1:
            return r->top1 ? QVariant(percent(*r->top1)) : QVariant(QStringLiteral("–"));
        case TokenMatch:
            return r->tokenMatch ? QVariant(percent(*r->tokenMatch))
                                 : QVariant(QStringLiteral("–"));
        case VisionCosine:
            return r->visionCosine ? QVariant(QString::number(*r->visionCosine, 'f', 4))
                                   : QVariant(QStringLiteral("–"));
        }
    }
    if (role == ComparisonSortRole) {
        switch (col) {
        case Latency:
            return r->latencyMs.median;
        case ProbedLatency:
            return r->probedMs;
        case Qps:
            return r->qps;
        case VisualTokens:
            return r->visualTokens;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && col == PeakGpu && !r->predicted)
        return r->peakGpuMiB ? tr("Derived: the run's weights plus the most its tensors grew by "
                                  "during the run (libtorch's CUDA caching allocator, measured)")
               : gpuMemoryWhy_.isEmpty() ? tr("Not a GPU run")
                                         : gpuMemoryWhy_;
    if (role == Qt::ToolTipRole && col != Setup)
        return r->predicted && (col == Latency || col == Qps)
                   ? tr("Predicted: an int4/int8 kernel reading the packed weights, from the "
                        "roofline of bytes moved")
               : col == Latency || col == Qps ? latencyWhy(latency_)
               : col == ProbedLatency
                   ? tr("Measured: the capture with its probes on, one run — what it cost "
                        "to record, not for comparison")
                   : tr("Measured");
    if (role == Qt::FontRole && r->predicted) {
        QFont f;
        f.setItalic(true);
        return f;
    }
    return {};
}

// Two lines where the header has a parenthesis ("Peak RSS MiB" over
// "(measured)"), so the columns stay narrow and no header is cut; the tooltip
// has it on one line, or says where the latency comes from.
QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole)
        return section == Latency || section == Qps ? latencyWhy(latency_) : header(section);
    if (role != Qt::DisplayRole) return {};
    QString text = header(section);
    if (const qsizetype open = text.indexOf(QStringLiteral(" (")); open > 0 && section != Setup)
        text.replace(open, 1, QLatin1Char('\n'));
    return text;
}

QString ComparisonModel::header(int section) const {
    switch (section) {
    case Setup:
        return tr("Setup");
    case Latency:
        switch (latency_.source) {
        case ShownLatency::Source::AbMedians:
            return tr("Latency ms (A/B median, measured)");
        case ShownLatency::Source::ItemMedians:
            return tr("Latency ms per item (median, measured)");
        case ShownLatency::Source::ProbedRuns:
            return tr("Latency ms (one probed run, measured)");
        }
        return {};
    case ProbedLatency:
        return tr("Probed run ms (not for comparison)");
    case PeakMemory:
        return tr("Peak RSS MiB (measured)");
    case PeakGpu:
        return tr("Peak GPU MiB (derived)");
    case Qps:
        return tr("QPS (derived, 1/latency)");
    case Energy:
        return tr("J/inference (measured)");
    case Weights:
        return tr("Weights MiB (measured)");
    case Kv:
        return tr("KV cache MiB (measured)");
    case VisualTokens:
        return tr("Visual tokens");
    case Kl:
        return tr("KL mean (measured)");
    case Top1:
        return tr("Top-1 agreement");
    case TokenMatch:
        return tr("Token match");
    case VisionCosine:
        return tr("Vision cosine");
    }
    return {};
}

// ---- run metrics ---------------------------------------------------------------

RunMetricsModel::RunMetricsModel(QObject* parent) : RowTableModel(parent) {}

int RunMetricsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunMetricsModel::data(const QModelIndex& index, int role) const {
    const RunMetricRow* m = rowAt(index);
    if (!m) return {};
    if (role == ComparisonSortRole && index.column() == Value) return m->value;
    if (role == Qt::DisplayRole || role == ComparisonSortRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(m->name);
        case Value:
            return QString::number(m->value, 'g', 6);
        case Unit:
            return QString::fromStdString(m->unit);
        case Kind:
            return provenanceLabel(provenanceFromString(m->kind).value_or(Provenance::Measured));
        case Note:
            return QString::fromStdString(m->note);
        }
    }
    if (role == Qt::ToolTipRole) return QString::fromStdString(m->note);
    return {};
}

QVariant RunMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Figure");
    case Value:
        return tr("Value");
    case Unit:
        return tr("Unit");
    case Kind:
        return tr("Measured or predicted");
    case Note:
        return tr("How it was obtained");
    }
    return {};
}

// ---- module diff ----------------------------------------------------------------

ModuleDiffModel::ModuleDiffModel(QObject* parent) : RowTableModel(parent) {}

int ModuleDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ModuleDiffModel::data(const QModelIndex& index, int role) const {
    const ModuleDiffRow* r = rowAt(index);
    if (!r) return {};
    if (role == ComparisonSortRole) {
        switch (index.column()) {
        case Module:
            return QString::fromStdString(r->path);
        case Kind:
            return QString::fromStdString(r->kind);
        case ATime:
            return double(r->aNs);
        case BTime:
            return double(r->bNs);
        case DeltaTime:
            return double(r->deltaNs());
        case DeltaSelf:
            return std::abs(double(r->bSelfNs - r->aSelfNs)); // impact
        case Ratio:
            return r->ratio();
        case DeltaFlops:
            return r->flopsComparable() ? double(r->deltaFlops()) : 0.0;
        case DeltaBytes:
            return double(r->deltaBytes());
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Module:
            return QString::fromStdString(r->path);
        case Kind:
            return QString::fromStdString(r->kind);
        case ATime:
            return r->inA ? QVariant(QString::number(double(r->aNs) / 1e6, 'f', 3))
                          : QVariant(tr("not run"));
        case BTime:
            return r->inB ? QVariant(QString::number(double(r->bNs) / 1e6, 'f', 3))
                          : QVariant(tr("not run"));
        case DeltaTime:
            return QString::asprintf("%+.3f", double(r->deltaNs()) / 1e6);
        case DeltaSelf:
            return QString::asprintf("%+.3f", double(r->bSelfNs - r->aSelfNs) / 1e6);
        case Ratio:
            return r->aNs > 0 ? QVariant(QStringLiteral("%1×").arg(r->ratio(), 0, 'f', 2))
                              : QVariant(QStringLiteral("–"));
        case DeltaFlops: // "–" where a side's ops have no FLOP formula
            return r->flopsComparable() ? QString::asprintf("%+.4g", double(r->deltaFlops()))
                                        : QStringLiteral("–");
        case DeltaBytes:
            return QString::asprintf("%+.4g", double(r->deltaBytes()));
        }
    }
    if (role == Qt::ForegroundRole &&
        (index.column() == DeltaTime || index.column() == DeltaSelf)) {
        const int64_t d = index.column() == DeltaTime ? r->deltaNs() : r->bSelfNs - r->aSelfNs;
        if (d < 0) return QBrush(colours::good(QGuiApplication::palette()));
        if (d > 0) return QBrush(colours::bad(QGuiApplication::palette()));
    }
    return {};
}

QVariant ModuleDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Module:
        return tr("Module");
    case Kind:
        return tr("Kind");
    case ATime:
        return tr("A ms (measured)");
    case BTime:
        return tr("B ms (measured)");
    case DeltaTime:
        return tr("Δ ms");
    case DeltaSelf:
        return tr("Δ self ms");
    case Ratio:
        return tr("B ÷ A");
    case DeltaFlops:
        return tr("Δ FLOPs (estimated)");
    case DeltaBytes:
        return tr("Δ bytes (estimated)");
    }
    return {};
}

} // namespace mvp::views
