// The C ABI's hardware counters (mvprof_capture.h): the range profiler of
// CaptureCounters.cpp, driven by a host that replays its own work (the
// Python package replays the user's pass). Ranges are named by module path,
// so the counts land on the recorded run's modules by name.
#include "capture/api/ApiSession.h"
#include "capture/cuda/CounterConfig.h"

namespace mvp::api {
namespace {

// Stops the passes with the first failure; the run will say why.
void failCounting(CounterReplays& c, const std::string& why) {
    if (c.failure.empty()) c.failure = why;
    c.ranges.reset();
}

int beginPass(CounterReplays& c) {
    if (!c.failure.empty()) return MVPROF_OK;
    if (c.profiler->passesRun() >= cuda::kMaxCounterReplays) {
        failCounting(c, "the counters needed more than " +
                            std::to_string(cuda::kMaxCounterReplays) + " replays");
        return MVPROF_OK;
    }
    if (auto s = c.profiler->beginPass(); !s) {
        failCounting(c, s.error().message);
        return MVPROF_OK;
    }
    c.ranges.emplace(*c.profiler, c.levels);
    return MVPROF_OK;
}

int endPass(CounterReplays& c, int* done) {
    if (c.failure.empty() && c.ranges) {
        c.ranges.reset();
        auto finished = c.profiler->endPass();
        if (!finished)
            failCounting(c, finished.error().message);
        else if (*finished) {
            if (done) *done = 1;
            return MVPROF_OK;
        }
    }
    if (done) *done = c.failure.empty() ? 0 : 1;
    return MVPROF_OK;
}

std::vector<RunMetricRow> countedMetrics(CounterReplays& c) {
    if (!c.failure.empty()) return {cuda::countersUnavailable(c.failure)};
    auto ranges = c.profiler->ranges();
    if (!ranges) return {cuda::countersUnavailable(ranges.error().message)};
    const cuda::RangeProfiler& p = *c.profiler;
    return cuda::counterRunMetrics(
        *ranges, {p.chip(), p.passesRun(), p.configPasses(), c.levels, p.droppedRanges()});
}

} // namespace
} // namespace mvp::api

using mvp::api::fail;
using mvp::api::guarded;
using mvp::api::text;

extern "C" {

int mvprof_counters_begin(mvprof_session* s, int* available) {
    return guarded(s, true, [&]() -> int {
        if (!s->gpuIndex)
            return fail(MVPROF_BAD_INPUT,
                        "hardware counters are a GPU's: this run's device is not CUDA (put the "
                        "model on a GPU, or profile without counters)");
        if (s->counters || s->recordingFinished)
            return fail(MVPROF_BAD_INPUT, "this run's counters were already read");
        mvp::api::finishRecording(*s);
        const mvp::Recorder& rec = *s->recorder;
        const int levels = mvp::cuda::counterLevels(rec.deepestSpan());
        auto profiler = mvp::cuda::RangeProfiler::start(*s->gpuIndex, mvp::cuda::rooflineMetrics(),
                                                        size_t(rec.spansRecorded()) + 16, levels);
        if (!profiler) {
            s->rows.runMetrics.push_back(mvp::cuda::countersUnavailable(profiler.error().message));
            if (available) *available = 0;
            return MVPROF_OK;
        }
        s->counters = std::make_unique<mvp::api::CounterReplays>();
        s->counters->profiler = std::move(profiler.value());
        s->counters->levels = levels;
        if (available) *available = 1;
        return MVPROF_OK;
    });
}

int mvprof_counter_pass(mvprof_session* s, int begin, int* done) {
    return guarded(s, true, [&]() -> int {
        if (!s->counters)
            return fail(MVPROF_BAD_INPUT,
                        "no counters are being read: mvprof_counters_begin first");
        if (begin) return mvp::api::beginPass(*s->counters);
        return mvp::api::endPass(*s->counters, done);
    });
}

int mvprof_counter_push(mvprof_session* s, const char* path) {
    return guarded(s, true, [&]() -> int {
        if (s->counters && s->counters->ranges) s->counters->ranges->push(text(path));
        return MVPROF_OK;
    });
}

int mvprof_counter_pop(mvprof_session* s) {
    return guarded(s, true, [&]() -> int {
        if (s->counters && s->counters->ranges) s->counters->ranges->pop();
        return MVPROF_OK;
    });
}

int mvprof_counters_end(mvprof_session* s, const char* failure) {
    return guarded(s, true, [&]() -> int {
        if (!s->counters)
            return fail(MVPROF_BAD_INPUT,
                        "no counters are being read: mvprof_counters_begin first");
        mvp::api::CounterReplays& c = *s->counters;
        const bool passOpen = c.ranges.has_value();
        if (failure) mvp::api::failCounting(c, "a counter replay failed: " + text(failure));
        if (passOpen) (void)c.profiler->endPass(); // a replay that raised: closed, unread
        for (auto& m : mvp::api::countedMetrics(c))
            s->rows.runMetrics.push_back(std::move(m));
        s->counters.reset();
        return MVPROF_OK;
    });
}

} // extern "C"
