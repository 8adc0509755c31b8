#pragma once
// Traces a process's GPU work with CUPTI's activity API (docs/capture-notes.md §3):
// kernels (concurrent), copies, fills, CUDA runtime and driver calls and the
// external correlation records that tie them to the op or module span that
// launched them. Plain C++: no CUPTI header here.
//
// CUPTI's activity callbacks are process-global, so one tracer runs at a
// time. Records arrive in 4 MB buffers that CUPTI completes in any order;
// collect() forces them out and parses them (ActivityBuffer.h), and the join
// (core/interop/ActivityJoin.h) runs on everything collected.

#include "capture/cuda/ActivityBuffer.h"
#include "capture/cuda/CorrelationMarks.h"
#include "core/Result.h"

#include <cstdint>
#include <memory>

namespace mvp::cuda {

struct TracedActivities {
    ParsedActivities parsed;
    int64_t dropped = 0; // records CUPTI could not store (its buffers were full)
    int64_t buffers = 0; // completed buffers parsed
};

class CuptiTracer {
public:
    // Registers the buffer callbacks and enables the activity kinds. Fails
    // with the reason when another tracer runs in this process, or when
    // CUPTI cannot trace (no GPU or driver: CUPTI says CUPTI_ERROR_UNKNOWN);
    // nothing stays enabled then.
    static Result<std::unique_ptr<CuptiTracer>> start();
    // Disables the activity kinds; records not collected are lost.
    ~CuptiTracer();
    CuptiTracer(const CuptiTracer&) = delete;
    CuptiTracer& operator=(const CuptiTracer&) = delete;

    // External correlation on the calling thread: the CUDA API calls made
    // between a push and its pop are linked to the innermost pushed op
    // (CUSTOM2) and span (CUSTOM1) id. Each costs one CUPTI call.
    static void pushOp(int64_t id);
    static void popOp();
    static void pushSpan(int64_t id);
    static void popSpan();
    // Id 0 on both stacks: the profiler's own work (GpuTimeline.h), until
    // popProfilerWork.
    static void pushProfilerWork();
    static void popProfilerWork();

    // CUPTI's clock, the one its records are stamped on (ns).
    static int64_t timestampNs();

    // Forces every buffer out (also those of work still running on the GPU:
    // call it after a device synchronisation) and parses the buffers
    // completed since the last collect.
    Result<TracedActivities> collect();

private:
    CuptiTracer() = default;
};

// A Recorder's op and span ids as CUPTI external correlation ids
// (Recorder::setCorrelationMarks), for the tracer running on that thread.
class CuptiMarks final : public CorrelationMarks {
public:
    void opStarted(int64_t op) override { CuptiTracer::pushOp(op); }
    void opEnded() override { CuptiTracer::popOp(); }
    void spanStarted(int64_t span) override { CuptiTracer::pushSpan(span); }
    void spanEnded() override { CuptiTracer::popSpan(); }
    void probeWorkStarted() override { CuptiTracer::pushProfilerWork(); }
    void probeWorkEnded() override { CuptiTracer::popProfilerWork(); }
};

} // namespace mvp::cuda
