#include "capture/probe/GpuTrace.h"
#include "capture/probe/Recorder.h"

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

GpuObservation::GpuObservation(Recorder& rec, int cudaIndex, bool trace, cuda::DeviceTiming timing)
    : memory_(cudaIndex) {
    rec.setGpuEnergy(&energy_.emplace(cudaIndex));
    if (trace) trace_.emplace(RunGpuTrace::begin()).attach(rec);
    if (timing == cuda::DeviceTiming::Off) {
        absent_.push_back({"gpu.device_timing", 0, "", "measured",
                           "off (as asked: --device-timing off, or the Python package's "
                           "device_timing=\"off\"): op and span times are host launch times; no "
                           "span has a device time"});
        return;
    }
    auto timer = cuda::EventTimer::open(timing);
    if (!timer) {
        absent_.push_back(
            {"gpu.device_timing", 0, "", "measured", "n/a: " + timer.error().message});
        return;
    }
    timer_ = std::move(timer.value());
    rec.setDeviceTimer(timer_.get());
}

void GpuObservation::finish(Recorder& rec, Batch& rows) {
    if (trace_) {
        Batch traced = trace_->finish(rec);
        rec.setCorrelationMarks(nullptr);
        trace_.reset();
        rows.activities = std::move(traced.activities);
        rows.runMetrics.insert(rows.runMetrics.end(), traced.runMetrics.begin(),
                               traced.runMetrics.end());
    }
    rows.runMetrics.insert(rows.runMetrics.end(), absent_.begin(), absent_.end());
    absent_.clear();
    for (auto& m : memory_.finish())
        rows.runMetrics.push_back(std::move(m));
}

} // namespace mvp
