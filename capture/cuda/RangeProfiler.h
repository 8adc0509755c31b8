#pragma once
// Hardware counters per range through CUPTI's range profiler
// (docs/capture-notes.md §5): the caller pushes and pops named user ranges around
// its work and replays that work as often as CUPTI asks — each pass collects
// the metrics one pass of the configuration holds, at one nesting level —
// then reads every range's metric values. Plain C++: no CUPTI header here.

#include "core/Result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mvp::cuda {

struct CounterRange {
    std::vector<std::string> path;        // the names pushed, outermost first
    std::map<std::string, double> values; // metric → its value over the range
};

// Where a replay's ranges go: pushes and pops nest, each pop ends the
// innermost range pushed.
class RangeSink {
public:
    virtual ~RangeSink() = default;
    virtual void push(const std::string& name) = 0;
    virtual void pop() = 0;
};

class RangeProfiler final : public RangeSink {
public:
    // On the calling thread's current CUDA context, for CUDA device `device`:
    // the metrics checked and configured for its chip, up to `maxRanges`
    // ranges a pass, at nesting levels 1 to `levels`. Errors say why (no
    // CUPTI, no context, a chip or metric CUPTI refuses, profiling not
    // permitted).
    static Result<std::unique_ptr<RangeProfiler>>
    start(int device, const std::vector<std::string>& metrics, size_t maxRanges, int levels);
    ~RangeProfiler() override; // disables the profiler
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    const std::string& chip() const;
    int configPasses() const; // passes of the metrics per nesting level
    int passesRun() const { return passes_; }

    // One replay of the work: begin, pushes and pops around it, end. end
    // says whether CUPTI now has every pass it needs.
    Status beginPass();
    void push(const std::string& name) override;
    void pop() override;
    Result<bool> endPass();

    // After the last pass: each range's names and values.
    Result<std::vector<CounterRange>> ranges();
    int64_t droppedRanges() const { return dropped_; }

private:
    struct State;
    explicit RangeProfiler(std::unique_ptr<State> state);
    std::unique_ptr<State> d;
    int passes_ = 0;
    int64_t dropped_ = 0;
};

} // namespace mvp::cuda
