// Per-op capture cost on many tiny ATen ops (see bench_capture_overhead):
// the same loop of 20 000 adds on 8-element tensors bare, under mvprof's
// Recorder (ops, shapes, FLOPs, as a capture records them) and under
// libtorch's own profiler (the legacy one torch.profiler drives on this
// libtorch: shapes, FLOPs and modules), interleaved.
#include "TinyOps.h"

#include "capture/Recorder.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <chrono>
#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/torch.h>

namespace mvp::bench {

namespace {
double loopNs(int ops) {
    c10::InferenceMode inference;
    auto a = torch::ones({8}), b = torch::ones({8});
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < ops; ++i)
        (void)torch::add(a, b);
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - t0)
                      .count());
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
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
    std::vector<double> bare, mvprof, torchProfiler;
    for (int i = -1; i < reps; ++i) { // i = -1 warms every path up
        const double b = loopNs(ops);
        double m = 0;
        {
            Recorder rec(writer, *run, true);
            rec.beginPhase("decode", 1);
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
        if (i < 0) continue;
        bare.push_back(b);
        mvprof.push_back(m);
        torchProfiler.push_back(t);
    }
    (void)writer.endRun(*run, RunResult{});
    TinyOpCosts c;
    c.ops = ops;
    c.bareNsPerOp = median(bare) / ops;
    c.mvprofNsPerOp = (median(mvprof) - median(bare)) / ops;
    c.torchNsPerOp = (median(torchProfiler) - median(bare)) / ops;
    return c;
}

} // namespace mvp::bench
