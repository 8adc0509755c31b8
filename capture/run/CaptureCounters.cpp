// --hw-counters (docs/capture-notes.md §5): after a CUDA capture's recorded run the
// same pipeline is replayed under CUPTI's range profiler, a user range around
// every module span, named by the module's path, at as many nesting levels
// as the recorded run's module tree had (up to kMaxCounterLevels), as many
// times as the metrics and levels need (user replay). Each module's counted
// FLOPs, DRAM bytes and kernel time, summed over its calls, become run
// metrics (cuda/CounterMetrics.h); the roofline then plots those instead of
// the estimates. The replays are no part of the run: their spans go to a
// scratch session that is removed. Both the built-in model and a TorchScript
// model replay this way; the latter's spans follow its interpreter's module
// hierarchy, so its op callbacks run during the replays too.
#include "capture/cuda/CorrelationMarks.h"
#include "capture/cuda/CounterConfig.h"
#include "capture/cuda/CounterMetrics.h"
#include "capture/cuda/RangeProfiler.h"
#include "capture/probe/Recorder.h"
#include "capture/run/CapturerImpl.h"
#include "capture/run/ScratchSession.h"
#include "core/session/SessionWriter.h"

#include <map>

namespace mvp {

namespace {

// Pushes a range named by the module's path at every span the replay opens.
class RangeMarks final : public CorrelationMarks {
public:
    RangeMarks(const Recorder& rec, cuda::RangeSink& ranges,
               std::function<std::string(int64_t)> pathOf)
        : rec_(rec), ranges_(ranges), pathOf_(std::move(pathOf)) {}
    void opStarted(int64_t) override {}
    void opEnded() override {}
    void spanStarted(int64_t) override {
        ranges_.push(pathOf_(rec_.innermostModule().value_or(0)));
    }
    void spanEnded() override { ranges_.pop(); }
    void probeWorkStarted() override {}
    void probeWorkEnded() override {}

private:
    const Recorder& rec_;
    cuda::RangeSink& ranges_;
    std::function<std::string(int64_t)> pathOf_;
};

Status replayUnderCounters(const CounterReplay& replay, cuda::RangeProfiler& profiler, int levels) {
    auto scratch = ScratchSession::open();
    if (!scratch) return scratch.error();
    auto run = (*scratch)->newRun();
    if (!run) return run.error();
    for (int pass = 0; pass < cuda::kMaxCounterReplays; ++pass) {
        if (auto s = profiler.beginPass(); !s) return s;
        try {
            cuda::LevelLimitedRanges ranges(profiler, levels);
            replay((*scratch)->writer(), *run, ranges);
        } catch (const std::exception& e) {
            (void)profiler.endPass();
            return makeError(ErrorCode::Internal,
                             std::string("a counter replay of the model failed: ") + e.what());
        }
        auto done = profiler.endPass();
        if (!done) return done.error();
        if (*done) return Ok{};
    }
    return makeError(ErrorCode::Internal, "the counters needed more than " +
                                              std::to_string(cuda::kMaxCounterReplays) +
                                              " replays");
}

} // namespace

void replayWithRanges(VlmModel& model, const PreparedCapture& prep, const std::vector<int>& seen,
                      SessionWriter& scratch, int64_t run, cuda::RangeSink& ranges) {
    std::map<int64_t, std::string> paths;
    for (const auto& m : model.modules())
        paths[m.id] = m.path;
    Recorder rec(scratch, run, /*recordOps=*/false);
    RangeMarks marks(rec, ranges, [&paths](int64_t id) { return paths[id]; });
    rec.setCorrelationMarks(&marks);
    ForwardHooks hooks;
    hooks.recorder = &rec;
    ReferencePipeline pipeline(model, prep, seen, hooks);
    struct Reset { // the model's cache and state, whether the replay ends or throws
        VlmModel& m;
        ~Reset() { m.reset(); }
    } reset{model};
    (void)runPipeline(prep, pipeline, [&](Phase phase, int step) { rec.beginPhase(phase, step); });
    rec.endPhase();
}

void replayWithRanges(ScriptedModel& model, const PreparedCapture& prep, SessionWriter& scratch,
                      int64_t run, cuda::RangeSink& ranges) {
    // Spans come from the op callbacks (the interpreter's hierarchy at each top-level op).
    Recorder rec(scratch, run, /*recordOps=*/true);
    rec.followScriptHierarchy(model.rootType());
    rec.setChildResolver([&model](const std::string& parent, const std::string& instance) {
        return model.childPath(parent, instance);
    });
    RangeMarks marks(rec, ranges, [&rec](int64_t id) { return rec.modulePath(id).value_or(""); });
    rec.setCorrelationMarks(&marks);
    ScriptedPipeline pipeline(model, prep);
    rec.startOps();
    struct Stop { // the op callbacks off, whether the replay ends or throws
        Recorder& r;
        ~Stop() {
            r.endPhase();
            r.stopOps();
        }
    } stop{rec};
    (void)runPipeline(prep, pipeline, [&](Phase phase, int step) { rec.beginPhase(phase, step); });
}

std::vector<RunMetricRow> countHardware(int device, const CounterReplay& replay,
                                        const Recorder& recorded) {
    auto unavailable = [](const std::string& why) {
        return std::vector<RunMetricRow>{cuda::countersUnavailable(why)};
    };
    const int levels = cuda::counterLevels(recorded.deepestSpan());
    auto profiler = cuda::RangeProfiler::start(device, cuda::rooflineMetrics(),
                                               size_t(recorded.spansRecorded()) + 16, levels);
    if (!profiler) return unavailable(profiler.error().message);
    if (auto s = replayUnderCounters(replay, **profiler, levels); !s)
        return unavailable(s.error().message);
    auto ranges = (*profiler)->ranges();
    if (!ranges) return unavailable(ranges.error().message);
    const cuda::RangeProfiler& p = **profiler;
    return cuda::counterRunMetrics(
        *ranges, {p.chip(), p.passesRun(), p.configPasses(), levels, p.droppedRanges()});
}

} // namespace mvp
