#pragma once
// What a --hw-counters replay read, as run metrics (docs/capture-notes.md §5).
// Each range a replay pushes is named by its module's path, so the counts of
// a replay, whose module ids are its own, land on the recorded run's modules
// by name. Plain C++: no CUPTI header here.

#include "capture/cuda/RangeProfiler.h"
#include "core/session/Records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp::cuda {

// Nesting levels counted at most (each level costs the metrics' passes
// again), and the replays a configuration may ask for before it is refused.
constexpr int kMaxCounterLevels = 8;
constexpr int kMaxCounterReplays = 64;
// The levels a run whose module spans nested `deepest` deep is counted at.
inline int counterLevels(int deepest) {
    return deepest < 1 ? 1 : deepest > kMaxCounterLevels ? kMaxCounterLevels : deepest;
}

// Passes on the ranges at nesting levels 1 to `levels` only: the profiler
// is configured for that many, and a deeper module's work counts in its
// ancestors'.
class LevelLimitedRanges final : public RangeSink {
public:
    LevelLimitedRanges(RangeSink& to, int levels) : to_(to), levels_(levels) {}
    void push(const std::string& name) override {
        if (++depth_ <= levels_) to_.push(name);
    }
    void pop() override {
        if (depth_-- <= levels_) to_.pop();
    }

private:
    RangeSink& to_;
    int levels_, depth_ = 0;
};

// How the ranges were read, for hw.counters' note.
struct CounterReplays {
    std::string chip;     // as CUPTI names it
    int passesRun = 0;    // replays of the run
    int configPasses = 0; // replays one nesting level needs
    int levels = 0;       // nesting levels of the module tree counted
    int64_t dropped = 0;  // ranges CUPTI dropped
};

// hw.counters = 0 with the reason ("n/a: …"): the counters were not read.
RunMetricRow countersUnavailable(const std::string& why);

// hw.counters (the replays, measured), then per module path, in path order,
// hw.<path>.flops, hw.<path>.dram_bytes and hw.<path>.gpu_ns: the innermost
// module of each range, its values summed over its calls (countedWork's
// rules). A figure whose metrics are missing is left out, never partial.
std::vector<RunMetricRow> counterRunMetrics(const std::vector<CounterRange>& ranges,
                                            const CounterReplays& how);

} // namespace mvp::cuda
