#include "capture/probe/GpuTimeline.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace mvp {

RunClockMap::RunClockMap(ClockPair start, ClockPair end, int64_t originHostNs,
                         std::vector<HostInterval> probeWork)
    : start_(start), origin_(originHostNs), work_(std::move(probeWork)) {
    // Below a microsecond apart the pairs' own read error (a few hundred ns)
    // would dominate the rate.
    const int64_t tracerSpan = end.tracerNs - start.tracerNs;
    if (tracerSpan >= 1000) slope_ = double(end.hostNs - start.hostNs) / double(tracerSpan);
    int64_t excluded = 0;
    excludedBefore_.reserve(work_.size());
    for (const auto& w : work_) {
        excludedBefore_.push_back(excluded);
        excluded += w.endNs - w.startNs;
    }
}

int64_t RunClockMap::hostNs(int64_t tracerNs) const {
    return start_.hostNs + int64_t(std::llround(double(tracerNs - start_.tracerNs) * slope_));
}

int64_t RunClockMap::runNs(int64_t tracerNs) const {
    const int64_t h = hostNs(tracerNs);
    const auto after =
        std::upper_bound(work_.begin(), work_.end(), h,
                         [](int64_t t, const HostInterval& w) { return t < w.startNs; });
    if (after == work_.begin()) return h - origin_;
    const size_t i = size_t(after - work_.begin()) - 1;
    const auto& w = work_[i];
    if (h < w.endNs) return w.startNs - origin_ - excludedBefore_[i];
    return h - origin_ - excludedBefore_[i] - (w.endNs - w.startNs);
}

namespace {

// Correlation ids of the API calls made inside the profiler's probe work
// (external id 0), and the links without them.
std::unordered_set<int64_t> takeProfilerLinks(std::vector<ExternalLink>& links) {
    std::unordered_set<int64_t> profiler;
    std::erase_if(links, [&](const ExternalLink& l) {
        if (l.externalId != 0) return false;
        profiler.insert(l.correlation);
        return true;
    });
    return profiler;
}

// Moves every row onto the run's clock; rows that ended before the origin
// (the tracer starts a little earlier) are dropped and counted.
void moveOntoRun(std::vector<DeviceActivityRow>& rows, const RunClockMap& clock, int64_t& outside) {
    std::erase_if(rows, [&](DeviceActivityRow& r) {
        r.startNs = clock.runNs(r.startNs);
        r.endNs = clock.runNs(r.endNs);
        if (r.endNs < 0) {
            ++outside;
            return true;
        }
        r.startNs = std::max<int64_t>(0, r.startNs);
        return false;
    });
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i].id = int64_t(i + 1);
}

} // namespace

PlacedActivities placeActivities(cuda::TracedActivities&& traced, const RunClockMap& clock) {
    PlacedActivities placed;
    placed.dropped = traced.dropped;
    placed.buffers = traced.buffers;
    auto& links = traced.parsed.links;
    const auto profiler = takeProfilerLinks(links);
    placed.rows = std::move(traced.parsed.rows);
    moveOntoRun(placed.rows, clock, placed.outsideRun);
    // An op runs inside its module span, whose id is on CUPTI's span stack
    // too: no op → span lookup is needed.
    (void)joinActivities(placed.rows, links, {});
    for (auto& r : placed.rows) {
        if (!r.correlation || !profiler.count(*r.correlation)) continue;
        r.op.reset();
        r.span.reset();
        if (!onDevice(r.kind)) continue;
        ++placed.profilerWork;
        placed.profilerWorkNs += std::max<int64_t>(0, r.endNs - r.startNs);
    }
    placed.stats = countActivities(placed.rows);
    return placed;
}

std::vector<RunMetricRow> traceMetrics(const PlacedActivities& p) {
    const auto& s = p.stats;
    const int64_t modelWork = s.gpuWork - p.profilerWork;
    const int64_t modelNs = s.gpuNs - p.profilerWorkNs;
    std::vector<RunMetricRow> m = {
        {"gpu.work", double(s.gpuWork), "count", "measured",
         "kernels, copies and fills CUPTI recorded in the run"},
        {"gpu.device_ns", double(s.gpuNs), "ns", "measured",
         "their summed device time (concurrent work counted once per record)"},
        {"gpu.profiler_work", double(p.profilerWork), "count", "measured",
         "of those, launched by mvprof's own hooks (copies of what they read): attributed to no "
         "module"},
        {"gpu.profiler_work_ns", double(p.profilerWorkNs), "ns", "measured",
         "the device time of the profiler's own GPU work"},
        {"cupti.dropped", double(p.dropped), "count", "measured",
         "activity records CUPTI could not store (its buffers were full): the trace misses them"},
        {"cupti.buffers", double(p.buffers), "count", "measured", "activity buffers read"},
    };
    if (modelNs > 0)
        // A ratio of two measured sums: run_metric's kinds are measured or
        // predicted, and the note says how it is derived.
        m.push_back({"gpu.attributed_share", double(s.gpuNsWithSpan) / double(modelNs), "ratio",
                     "measured",
                     "derived: device time of the model's kernels, copies and fills attributed to "
                     "a module span, over all of it (" +
                         std::to_string(modelWork) + " records)"});
    return m;
}

} // namespace mvp
