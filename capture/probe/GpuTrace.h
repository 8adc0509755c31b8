#pragma once
// A recorded run's GPU trace: CUPTI's kernels, copies, fills and CUDA calls,
// attributed to the run's ops and module spans and put on its clock
// (GpuTimeline.h). Plain C++: the CUPTI tracer sits behind GpuTrace, and a
// build without the CUDA toolkit has one that says so, so the capture never
// needs the toolkit to compile.

#include "capture/cuda/CorrelationMarks.h"
#include "capture/cuda/EventTimer.h"
#include "capture/cuda/NvmlEnergy.h"
#include "capture/machine/DeviceMemory.h"
#include "capture/probe/GpuTimeline.h"
#include "core/Result.h"
#include "core/session/Records.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

class Recorder;

class GpuTrace {
public:
    // Starts tracing this process's GPU work, or says why it cannot (a build
    // without CUPTI, no GPU or driver, another profiler holding CUPTI).
    static Result<std::unique_ptr<GpuTrace>> start();
    virtual ~GpuTrace() = default;

    // The external correlation marks the Recorder sets while ops and spans run.
    virtual CorrelationMarks& marks() = 0;
    // One moment on the tracer's clock and on HostClock.
    virtual ClockPair pairClocks() const = 0;
    // What was recorded so far: call once the GPU's queue has drained.
    virtual Result<cuda::TracedActivities> collect() = 0;
};

// The trace of one Recorder's run: attach before the run starts, finish after
// it ended and the GPU settled. Without a tracer (`reason` says why) finish
// gives the run metric gpu.trace_available = 0 with that reason.
class RunGpuTrace {
public:
    // Starts a tracer; `reason` is kept when there is none.
    static RunGpuTrace begin();
    void attach(Recorder& rec);
    // The run's activity rows and trace metrics (or the reason there are none).
    Batch finish(const Recorder& rec);

private:
    std::unique_ptr<GpuTrace> trace_;
    std::string reason_;
    ClockPair start_;
};

// Everything a run on a GPU is observed with, for the CLI's captures and the
// C ABI's (Python) runs alike: the GPU's energy between phases (NVML), its
// kernels and copies (CUPTI, when `trace`), module spans timed by CUDA events
// in `timing` mode, and the allocator's memory peak (DeviceMemory.h). Each part that cannot start
// leaves a run metric saying why. Outlives the Recorder's use of it (the Recorder holds its timer
// and energy meter).
class GpuObservation {
public:
    GpuObservation(Recorder& rec, int cudaIndex, bool trace, cuda::DeviceTiming timing);
    // After the run ended and the GPU settled: the trace's activity rows and
    // metrics, and the reasons for what is missing, into `rows`; tracing
    // stops (before any counter replay).
    void finish(Recorder& rec, Batch& rows);

private:
    std::optional<cuda::NvmlEnergy> energy_;
    DeviceMemoryWatch memory_;
    std::optional<RunGpuTrace> trace_;
    std::unique_ptr<cuda::EventTimer> timer_;
    std::vector<RunMetricRow> absent_;
};

} // namespace mvp
