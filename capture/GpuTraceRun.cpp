#include "capture/GpuTrace.h"
#include "capture/Recorder.h"

namespace mvp {

RunGpuTrace RunGpuTrace::begin() {
    RunGpuTrace t;
    auto trace = GpuTrace::start();
    if (trace)
        t.trace_ = std::move(trace.value());
    else
        t.reason_ = trace.error().message;
    return t;
}

void RunGpuTrace::attach(Recorder& rec) {
    if (!trace_) return;
    rec.setCorrelationMarks(&trace_->marks());
    start_ = trace_->pairClocks();
}

Batch RunGpuTrace::finish(const Recorder& rec) {
    Batch rows;
    auto unavailable = [&](const std::string& why) {
        rows.runMetrics.push_back({"gpu.trace_available", 0, "", "measured", "n/a: " + why});
        return std::move(rows);
    };
    if (!trace_) return unavailable(reason_);
    const ClockPair end = trace_->pairClocks();
    auto traced = trace_->collect();
    if (!traced) return unavailable(traced.error().message);
    const RunClockMap clock(start_, end, rec.originHostNs(), rec.probeWork());
    PlacedActivities placed = placeActivities(std::move(traced.value()), clock);
    rows.runMetrics = traceMetrics(placed);
    rows.activities = std::move(placed.rows);
    return rows;
}

} // namespace mvp
