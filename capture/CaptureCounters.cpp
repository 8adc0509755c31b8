// --hw-counters (capture-tech.md §5): after a CUDA capture's recorded run the
// same pipeline is replayed under CUPTI's range profiler, a user range around
// every module span (module-tree levels 1 to 4), as many times as the metrics
// and levels need (user replay). Each module's counted FLOPs, DRAM bytes and
// kernel time, summed over its calls, become run metrics; the roofline then
// plots those instead of the estimates. The replays are no part of the run:
// their spans go to a scratch session that is removed.
#include "capture/CapturerImpl.h"
#include "capture/CorrelationMarks.h"
#include "capture/Recorder.h"
#include "capture/cuda/CounterConfig.h"
#include "capture/cuda/RangeProfiler.h"
#include "core/session/SessionWriter.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace mvp {

namespace {

// llm → layer → moe → expert: the module tree's depth in the built-in model.
constexpr int kCounterLevels = 4;
// A configuration that needs more replays than this is refused, not run.
constexpr int kMaxReplays = 64;

// Pushes a range named by the module's id at every span the replay opens.
class RangeMarks final : public CorrelationMarks {
public:
    RangeMarks(const Recorder& rec, cuda::RangeProfiler& profiler)
        : rec_(rec), profiler_(profiler) {}
    void opStarted(int64_t) override {}
    void opEnded() override {}
    void spanStarted(int64_t) override {
        profiler_.push(std::to_string(rec_.innermostModule().value_or(0)));
    }
    void spanEnded() override { profiler_.pop(); }
    void probeWorkStarted() override {}
    void probeWorkEnded() override {}

private:
    const Recorder& rec_;
    cuda::RangeProfiler& profiler_;
};

// A session file for the replays' spans, removed with it.
class ScratchSession {
public:
    static Result<std::unique_ptr<ScratchSession>> open() {
        auto s = std::unique_ptr<ScratchSession>(new ScratchSession);
        s->path_ = std::filesystem::temp_directory_path() /
                   ("mvprof-counters-" + std::to_string(::getpid()) + ".mvprof");
        auto writer = SessionWriter::open(s->path_.string(), SessionWriter::Mode::Overwrite);
        if (!writer) return writer.error();
        s->writer_ = std::move(writer.value());
        auto run = s->writer_->beginRun(RunInfo{});
        if (!run) return run.error();
        s->run_ = *run;
        return s;
    }
    ~ScratchSession() {
        if (writer_) (void)writer_->close();
        std::error_code ignored;
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path_.string() + suffix, ignored);
    }
    SessionWriter& writer() { return *writer_; }
    int64_t run() const { return run_; }

private:
    ScratchSession() = default;
    std::filesystem::path path_;
    std::unique_ptr<SessionWriter> writer_;
    int64_t run_ = 0;
};

// One replay of the pipeline with a range around every module span.
void replayOnce(VlmModel& model, const PreparedCapture& prep, const std::vector<int>& seen,
                ScratchSession& scratch, cuda::RangeProfiler& profiler) {
    Recorder rec(scratch.writer(), scratch.run(), /*recordOps=*/false);
    RangeMarks marks(rec, profiler);
    rec.setCorrelationMarks(&marks);
    ForwardHooks hooks;
    hooks.recorder = &rec;
    ReferencePipeline pipeline(model, prep, seen, hooks);
    (void)runPipeline(prep, pipeline, [&](Phase phase, int step) { rec.beginPhase(phase, step); });
    rec.endPhase();
}

Status replayUnderCounters(VlmModel& model, const PreparedCapture& prep,
                           const std::vector<int>& seen, cuda::RangeProfiler& profiler) {
    auto scratch = ScratchSession::open();
    if (!scratch) return scratch.error();
    for (int replay = 0; replay < kMaxReplays; ++replay) {
        if (auto s = profiler.beginPass(); !s) return s;
        try {
            replayOnce(model, prep, seen, **scratch, profiler);
        } catch (const std::exception& e) {
            model.reset();
            (void)profiler.endPass();
            return makeError(ErrorCode::Internal,
                             std::string("a counter replay of the model failed: ") + e.what());
        }
        model.reset();
        auto done = profiler.endPass();
        if (!done) return done.error();
        if (*done) return Ok{};
    }
    return makeError(ErrorCode::Internal,
                     "the counters needed more than " + std::to_string(kMaxReplays) + " replays");
}

RunMetricRow measured(std::string name, double value, const char* unit, std::string note) {
    return RunMetricRow{std::move(name), value, unit, "measured", std::move(note)};
}

// Per module (a range's innermost name is its module id): the metrics summed
// over its calls, as FLOPs, DRAM bytes and kernel time.
std::vector<RunMetricRow> counterMetrics(const std::vector<cuda::CounterRange>& ranges,
                                         const std::vector<ModuleRow>& modules,
                                         const cuda::RangeProfiler& profiler) {
    std::map<int64_t, std::map<std::string, double>> byModule;
    for (const auto& r : ranges) {
        if (r.path.empty()) continue;
        const int64_t id = std::strtoll(r.path.back().c_str(), nullptr, 10);
        for (const auto& [metric, value] : r.values)
            byModule[id][metric] += value;
    }
    std::vector<RunMetricRow> out{
        measured("hw.counters", double(profiler.passesRun()), "count",
                 "replays of the run under CUPTI's range profiler on " + profiler.chip() + " (" +
                     std::to_string(profiler.configPasses()) + " per nesting level, levels 1-" +
                     std::to_string(kCounterLevels) + " of the module tree), " +
                     std::to_string(ranges.size()) + " ranges, " +
                     std::to_string(profiler.droppedRanges()) + " dropped")};
    const std::string how = "CUPTI range profiler, summed over the module's calls";
    for (const auto& m : modules) {
        const auto it = byModule.find(m.id);
        if (it == byModule.end()) continue;
        const cuda::CountedWork w = cuda::countedWork(it->second);
        const std::string at = "hw." + m.path + ".";
        if (w.flops)
            out.push_back(measured(at + "flops", *w.flops, "flop",
                                   how + ": 2 per fma, 1 per add or mul thread instruction, 1 "
                                         "per tensor-core op"));
        if (w.dramBytes)
            out.push_back(measured(at + "dram_bytes", *w.dramBytes, "bytes",
                                   how + ": DRAM bytes read + written"));
        if (w.seconds)
            out.push_back(measured(at + "gpu_ns", *w.seconds * 1e9, "ns",
                                   how + ": kernel time (gpu__time_duration)"));
    }
    return out;
}

} // namespace

std::vector<RunMetricRow> countHardware(VlmModel& model, const PreparedCapture& prep,
                                        const std::vector<int>& seen, int64_t spansPerPass) {
    auto unavailable = [](const std::string& why) {
        return std::vector<RunMetricRow>{{"hw.counters", 0, "", "measured", "n/a: " + why}};
    };
    auto profiler = cuda::RangeProfiler::start(model.device().index(), cuda::rooflineMetrics(),
                                               size_t(spansPerPass) + 16, kCounterLevels);
    if (!profiler) return unavailable(profiler.error().message);
    if (auto s = replayUnderCounters(model, prep, seen, **profiler); !s)
        return unavailable(s.error().message);
    auto ranges = (*profiler)->ranges();
    if (!ranges) return unavailable(ranges.error().message);
    return counterMetrics(*ranges, model.modules(), **profiler);
}

} // namespace mvp
