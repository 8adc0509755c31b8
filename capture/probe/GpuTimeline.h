#pragma once
// Puts a GPU tracer's records on a recorded run's clock and attributes them
// to the run's ops and module spans. Plain C++ (no CUPTI, no libtorch), so
// it is tested with hand-built records.
//
// The tracer stamps records on its own clock (CUPTI: Unix-epoch ns); the run
// is timed on HostClock from its origin, less the profiler's own work
// (Recorder::beginProbeWork). A pair of readings of both clocks at the run's
// start and one at its end fix the line between them; the probe-work
// intervals are then taken off exactly as the Recorder took them off its
// spans, so a kernel lines up with the op that launched it.

#include "capture/cuda/CuptiTracer.h"
#include "capture/probe/HostClock.h"
#include "core/session/Records.h"

#include <cstdint>
#include <vector>

namespace mvp {

// One moment read on both clocks.
struct ClockPair {
    int64_t tracerNs = 0;
    int64_t hostNs = 0; // HostClock::nowNs()
};

class RunClockMap {
public:
    // `probeWork` (the profiler's own work) sorted by start and disjoint (the Recorder's order);
    // `start` and `end` read at least a microsecond apart, else only the offset of `start` is used
    // (the two clocks then count at one rate).
    RunClockMap(ClockPair start, ClockPair end, int64_t originHostNs,
                std::vector<HostInterval> probeWork);
    // A tracer timestamp as ns of the run: inside probe work, the moment the
    // work began (the run's clock stands still there).
    int64_t runNs(int64_t tracerNs) const;

private:
    int64_t hostNs(int64_t tracerNs) const;
    ClockPair start_;
    double slope_ = 1;
    int64_t origin_ = 0;
    std::vector<HostInterval> work_;
    std::vector<int64_t> excludedBefore_; // excluded ns of the intervals before each
};

struct PlacedActivities {
    std::vector<DeviceActivityRow> rows; // ids 1.., times on the run's clock, by start
    JoinStats stats;                     // of the rows the model's own work launched
    int64_t profilerWork = 0;            // kernels and copies the profiler's hooks launched
    int64_t profilerWorkNs = 0;          // … their device time
    int64_t outsideRun = 0;              // records that ended before the run's origin (not kept)
    int64_t dropped = 0, buffers = 0;    // as CUPTI reported them
};

// External id 0, pushed by the Recorder around its probe work
// (CorrelationMarks::probeWorkStarted), marks the profiler's own GPU work:
// such rows keep no op or span and are counted apart. Consumes `traced`.
PlacedActivities placeActivities(cuda::TracedActivities&& traced, const RunClockMap& clock);

// The run metrics of a traced run: gpu.work (kernels, copies, fills),
// gpu.device_ns, gpu.attributed_share (their device time with a module
// span), the profiler's own GPU work and CUPTI's dropped records.
std::vector<RunMetricRow> traceMetrics(const PlacedActivities& placed);

} // namespace mvp
