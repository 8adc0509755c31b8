// Per-op capture cost on many tiny ATen ops (see bench_capture_overhead):
// the same loop of 20 000 adds on 8-element tensors bare, under mvprof's
// Recorder (ops, shapes, FLOPs, as a capture records them) and under
// libtorch's own profiler (the legacy one torch.profiler drives on this
// libtorch: shapes, FLOPs and modules), interleaved.
#include "TinyOps.h"

#include "FloorCallback.h"

#include "capture/probe/Recorder.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <chrono>
#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/torch.h>

namespace mvp::bench {

namespace {
double nsSince(std::chrono::steady_clock::time_point t0) {
    return double(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count());
}

double loopNs(int ops) {
    c10::InferenceMode inference;
    auto a = torch::ones({8}), b = torch::ones({8});
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < ops; ++i)
        (void)torch::add(a, b);
    return nsSince(t0);
}

// The fixed cost of a recorded run around no work: mvprof's Recorder made,
// its phase opened and its op callbacks added, then all of it undone.
double mvprofOpenCloseNs(SessionWriter& writer, int64_t run) {
    const auto t0 = std::chrono::steady_clock::now();
    {
        Recorder rec(writer, run, true);
        rec.beginPhase(Phase::Decode, 1);
        rec.startOps();
        rec.stopOps();
        rec.endPhase();
    }
    return nsSince(t0);
}

// The same for libtorch's profiler: enabled and disabled around no work.
double torchOpenCloseNs() {
    using namespace torch::profiler::impl;
    const auto t0 = std::chrono::steady_clock::now();
    torch::autograd::profiler::enableProfilerLegacy(
        ProfilerConfig(ProfilerState::CPU, /*report_input_shapes=*/true, /*profile_memory=*/false,
                       /*with_stack=*/false, /*with_flops=*/true, /*with_modules=*/true));
    (void)torch::autograd::profiler::disableProfilerLegacy();
    return nsSince(t0);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Quartiles by the nearest rank: spread of the repetitions, per op.
PerOp perOp(std::vector<double> v, int ops) {
    std::sort(v.begin(), v.end());
    if (v.empty()) return {};
    const auto at = [&](double q) { return v[size_t(q * double(v.size() - 1) + 0.5)] / ops; };
    return {at(0.5), at(0.25), at(0.75)};
}

double floorLoopNs(int ops) {
    const FloorCallback floor;
    return loopNs(ops);
}
} // namespace

TinyOpCosts measureTinyOps(SessionWriter& writer, int ops, int reps) {
    RunInfo info;
    info.label = "tiny ops";
    info.model = "bench:tiny-ops";
    info.configJson = "{}";
    info.device = "cpu";
    info.dtype = "float32";
    auto run = writer.beginRun(info);
    if (!run) return {};
    // Each repetition runs every arm once; the costs are medians of the
    // differences within a repetition, which the machine's drift (this one's
    // speed wanders by half over minutes) cancels out of.
    std::vector<double> bare, mvprof, torchProfiler, floor, mvprofFixed, torchFixed;
    for (int i = -1; i < reps; ++i) { // i = -1 warms every path up
        const double b = loopNs(ops);
        const double f = floorLoopNs(ops);
        double m = 0;
        {
            Recorder rec(writer, *run, true);
            rec.beginPhase(Phase::Decode, 1);
            rec.startOps();
            m = loopNs(ops);
            rec.stopOps();
            rec.endPhase();
        }
        using namespace torch::profiler::impl;
        torch::autograd::profiler::enableProfilerLegacy(ProfilerConfig(
            ProfilerState::CPU, /*report_input_shapes=*/true, /*profile_memory=*/false,
            /*with_stack=*/false, /*with_flops=*/true, /*with_modules=*/true));
        const double t = loopNs(ops);
        (void)torch::autograd::profiler::disableProfilerLegacy();
        const double mFixed = mvprofOpenCloseNs(writer, *run), tFixed = torchOpenCloseNs();
        if (i < 0) continue;
        mvprofFixed.push_back(mFixed);
        torchFixed.push_back(tFixed);
        bare.push_back(b);
        mvprof.push_back(m - b);
        torchProfiler.push_back(t - b);
        floor.push_back(f - b);
    }
    (void)writer.endRun(*run, RunResult{});
    TinyOpCosts c;
    c.ops = ops;
    c.bareNsPerOp = median(bare) / ops;
    c.mvprof = perOp(mvprof, ops);
    c.torch = perOp(torchProfiler, ops);
    c.floor = perOp(floor, ops);
    c.mvprofOpenClose = perOp(mvprofFixed, 1000); // µs
    c.torchOpenClose = perOp(torchFixed, 1000);
    return c;
}

} // namespace mvp::bench
