// Capture overhead: the same prepared input through the same model, probed and
// unprobed (--no-probes), interleaved in one process so machine noise hits both
// alike. Prints the median and fastest wall time of each and their ratios (on a
// shared 2-core machine the fastest runs are the least disturbed); no thresholds.
//
//   bench_capture_overhead [IMAGE] [PRESET] [REPETITIONS]
//   bench_capture_overhead --tiny-ops [REPETITIONS]
//   bench_capture_overhead --gpu-trace [PRESET] [REPETITIONS] [LAYERS]
// The last on a GPU (bfloat16): CUPTI tracing with device timing against
// neither, both probed, interleaved on one model in one process; exits 77
// with the reason where there is no CUDA device.
#include "TinyOps.h"
#include "capture/run/Capture.h"
#include "core/compare/Intervals.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace mvp;

// The bundled sample photograph: $MVP_SAMPLE_IMAGE, else its path from the
// source tree's root (where tests/gpu/run.sh runs the benchmark).
static std::string sampleImage() {
    const char* path = std::getenv("MVP_SAMPLE_IMAGE");
    return path ? path : "resources/samples/astronaut.png";
}

namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The capture's model, built once for all the runs.
Result<std::unique_ptr<Capturer>> buildCapturer(const CaptureOptions& o) {
    auto prepared = prepareCapture(o);
    if (!prepared) return prepared.error();
    return Capturer::create(std::move(prepared.value()));
}

// The session's growth per recorded op (docs/format.md): one probed run's
// file against one unprobed run's, each alone in a fresh, closed session.
int sessionBytesPerOp(Capturer& capturer) {
    std::uintmax_t size[2] = {0, 0};
    int64_t ops = 0;
    for (const bool probes : {true, false}) {
        const auto path = std::filesystem::temp_directory_path() /
                          (probes ? "mvprof-bench-bytes-on.mvprof" : "mvprof-bench-bytes-off.mvprof");
        auto writer = SessionWriter::open(path.string(), SessionWriter::Mode::Overwrite);
        if (!writer) {
            std::fprintf(stderr, "%s\n", writer.error().message.c_str());
            return 1;
        }
        auto r = capturer.run(**writer, probes);
        const auto closed = (*writer)->close();
        if (!r || !closed) {
            std::fprintf(stderr, "%s\n", (!r ? r.error() : closed.error()).message.c_str());
            return 1;
        }
        size[probes ? 0 : 1] = std::filesystem::file_size(path);
        if (probes) ops = r->opsRecorded;
        std::filesystem::remove(path);
    }
    std::printf("  session growth %.1f bytes per recorded op (measured: %ju bytes probed − %ju "
                "unprobed, over %lld ops; target ≤ 30 on ref:small)\n",
                ops > 0 ? (double(size[0]) - double(size[1])) / double(ops) : 0.0, size[0], size[1],
                static_cast<long long>(ops));
    return 0;
}

// The model probed and unprobed; prints the medians and fastest runs' ratio.
int modelOverhead(SessionWriter& writer, CaptureOptions o, int reps) {
    auto capturer = buildCapturer(o);
    if (!capturer) {
        std::fprintf(stderr, "%s\n", capturer.error().message.c_str());
        return capturer.error().exitCode();
    }
    std::vector<double> on, off;
    int64_t ops = 0;
    for (int i = -1; i < reps; ++i) { // i = -1 warms both paths up
        for (bool probes : {true, false}) {
            auto r = (*capturer)->run(writer, probes);
            if (!r) {
                std::fprintf(stderr, "%s\n", r.error().message.c_str());
                return 1;
            }
            if (i >= 0) (probes ? on : off).push_back(double(r->wallNs) / 1e6);
            if (probes) ops = r->opsRecorded;
        }
    }
    const double mOn = median(on), mOff = median(off);
    const double bestOn = *std::min_element(on.begin(), on.end()),
                 bestOff = *std::min_element(off.begin(), off.end());
    std::printf("capture overhead, %s, %d interleaved repetitions, 8 decode steps\n",
                o.model.c_str(), reps);
    std::printf("  probes on   median %.2f ms (measured), %lld ops recorded per run\n", mOn,
                static_cast<long long>(ops));
    std::printf("  --no-probes median %.2f ms (measured)\n", mOff);
    std::printf("  ratio on/off %.3f (medians; target ≤ 1.03 on ref:small), %.3f (fastest runs: "
                "%.2f vs %.2f ms)\n",
                mOff > 0 ? mOn / mOff : 0.0, bestOff > 0 ? bestOn / bestOff : 0.0, bestOn, bestOff);
    return sessionBytesPerOp(**capturer);
}

// The model on a GPU, traced (CUPTI + CUDA events) and untraced, interleaved.
int gpuTraceCost(SessionWriter& writer, CaptureOptions o, int reps) {
    o.device = "cuda";
    o.dtype = "bfloat16";
    auto capturer = buildCapturer(o);
    if (!capturer) {
        std::printf("tracing cost: skipped (%s)\n", capturer.error().message.c_str());
        return 77;
    }
    std::vector<double> traced, untraced;
    for (int i = -1; i < reps; ++i) // i = -1 warms both up (CUPTI's first start is slow)
        for (bool trace : {true, false}) {
            (*capturer)->setGpuObservation(trace, trace ? cuda::DeviceTiming::Events
                                                        : cuda::DeviceTiming::Off);
            auto r = (*capturer)->run(writer, true);
            if (!r) {
                std::fprintf(stderr, "%s\n", r.error().message.c_str());
                return 1;
            }
            if (i >= 0) (trace ? traced : untraced).push_back(double(r->wallNs) / 1e6);
        }
    const Interval ratio = pairedRatioInterval(traced, untraced);
    std::printf("tracing cost, %s on cuda (bfloat16), %d interleaved repetitions in one process\n",
                o.model.c_str(), reps);
    std::printf("  traced (CUPTI + CUDA events) median %.2f ms, untraced %.2f ms (measured)\n",
                median(traced), median(untraced));
    std::printf("  tracing cost ratio %.3f [%.3f, %.3f] (median of paired ratios, %.0f %% "
                "interval%s; goal ≤ 1.03)\n",
                ratio.median, ratio.low, ratio.high, 100 * ratio.coverage,
                ratio.containsOne() ? ": within noise" : "");
    return 0;
}

// 20 000 tiny ops bare, recorded by mvprof and by libtorch's profiler.
void perOpCost(SessionWriter& writer, int reps) {
    const auto tiny = bench::measureTinyOps(writer, 20000, reps);
    std::printf("per-op cost, %d tiny ops (add of 8 floats, %.0f ns bare), %d interleaved "
                "repetitions (measured, medians of paired differences):\n",
                tiny.ops, tiny.bareNsPerOp, reps);
    std::printf("  mvprof (ops, shapes, FLOPs)             %7.0f ns added per op [quartiles %.0f, "
                "%.0f] (target 300)\n",
                tiny.mvprof.median, tiny.mvprof.q1, tiny.mvprof.q3);
    std::printf("    of which libtorch's RecordFunction %7.0f ns [%.0f, %.0f] (an empty callback "
                "asking for inputs); mvprof's own %.0f ns\n",
                tiny.floor.median, tiny.floor.q1, tiny.floor.q3,
                tiny.mvprof.median - tiny.floor.median);
    std::printf("  libtorch profiler (shapes, FLOPs, modules) %4.0f ns added per op [%.0f, %.0f]\n",
                tiny.torch.median, tiny.torch.q1, tiny.torch.q3);
    std::printf("  set-up + teardown of a run around no work (outside the per-op figures): "
                "mvprof %.1f µs [%.1f, %.1f], libtorch's profiler %.1f µs [%.1f, %.1f]\n",
                tiny.mvprofOpenClose.median, tiny.mvprofOpenClose.q1, tiny.mvprofOpenClose.q3,
                tiny.torchOpenClose.median, tiny.torchOpenClose.q1, tiny.torchOpenClose.q3);
    // An observer that reads inputs pays the floor even if it does nothing
    // else: the most any such observer can undercut libtorch's profiler by.
    std::printf("  libtorch's profiler costs %.1f× mvprof's per op (medians; goal ≥ 20×); the "
                "floor alone is %.1f× cheaper: no observer that reads inputs can do better\n",
                tiny.mvprof.median > 0 ? tiny.torch.median / tiny.mvprof.median : 0.0,
                tiny.floor.median > 0 ? tiny.torch.median / tiny.floor.median : 0.0);
}
} // namespace

int main(int argc, char** argv) {
    // --tiny-ops [REPETITIONS]: the per-op cost alone (no model), e.g. under a profiler.
    const bool tinyOnly = argc > 1 && std::string(argv[1]) == "--tiny-ops";
    CaptureOptions o;
    o.warmup = 0; // the benchmark warms up itself (its i = -1 pass)
    if (argc > 1 && std::string(argv[1]) == "--gpu-trace") {
        o.imagePath = sampleImage();
        o.model = argc > 2 ? argv[2] : "ref:small";
        if (argc > 4) o.overrides.layers = std::max(1, std::atoi(argv[4]));
        const auto path = std::filesystem::temp_directory_path() / "mvprof-bench-gpu-trace.mvprof";
        auto writer = SessionWriter::open(path.string(), SessionWriter::Mode::Overwrite);
        if (!writer) {
            std::fprintf(stderr, "%s\n", writer.error().message.c_str());
            return 1;
        }
        const int rc = gpuTraceCost(**writer, o, argc > 3 ? std::max(2, std::atoi(argv[3])) : 7);
        (void)(*writer)->close();
        std::filesystem::remove(path);
        return rc;
    }
    o.imagePath = argc > 1 && !tinyOnly ? argv[1] : sampleImage();
    o.model = argc > 2 && !tinyOnly ? argv[2] : "ref:tiny";
    const int repArg = tinyOnly ? 2 : 3;
    const int reps = argc > repArg ? std::max(1, std::atoi(argv[repArg])) : 7;
    o.steps = 8;
    const auto path = std::filesystem::temp_directory_path() / "mvprof-bench-overhead.mvprof";
    auto writer = SessionWriter::open(path.string(), SessionWriter::Mode::Overwrite);
    if (!writer) {
        std::fprintf(stderr, "%s\n", writer.error().message.c_str());
        return 1;
    }
    const int rc = tinyOnly ? 0 : modelOverhead(**writer, o, reps);
    if (rc == 0) perOpCost(**writer, tinyOnly ? reps : std::max(reps, 15));
    (void)(*writer)->close();
    std::filesystem::remove(path);
    return rc;
}
