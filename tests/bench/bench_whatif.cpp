// Visual-token pruning speed-up: the same inputs through the same model with
// all visual tokens and with 40 % of them (every other patch and then some,
// spread over the image), interleaved in one process, without probes so the
// probes' cost does not blur the ratio. Prints prefill and total times and the
// ratios; no thresholds.
//
//   bench_whatif [IMAGE] [PRESET] [REPETITIONS]
#include "capture/run/Capture.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

using namespace mvp;

// The bundled sample photograph: $MVP_SAMPLE_IMAGE, else its path from the
// source tree's root (where tests/gpu/run.sh runs the benchmark).
static std::string sampleImage() {
    const char* path = std::getenv("MVP_SAMPLE_IMAGE");
    return path ? path : "resources/samples/astronaut.png";
}

int main(int argc, char** argv) {
    CaptureOptions o;
    o.warmup = 0; // the benchmark warms up itself (its i = -1 pass)
    o.imagePath = argc > 1 ? argv[1] : sampleImage();
    o.model = argc > 2 ? argv[2] : "ref:tiny";
    const int reps = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    o.steps = 4;
    auto prepared = prepareCapture(o);
    if (!prepared) return std::fprintf(stderr, "%s\n", prepared.error().message.c_str()), 2;
    const int n = prepared->config.vision.patches(), k = int(std::lround(0.4 * n));
    RunTransform pruned;
    pruned.label = "prune-visual 0.4";
    for (int i = 0; i < k; ++i)
        pruned.keepPatches.push_back(int(double(i) * n / k));
    auto capturer = Capturer::create(std::move(prepared.value()));
    if (!capturer) return std::fprintf(stderr, "%s\n", capturer.error().message.c_str()), 1;
    const auto path =
        (std::filesystem::temp_directory_path() / "mvprof-bench-whatif.mvprof").string();
    auto writer = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
    if (!writer) return std::fprintf(stderr, "%s\n", writer.error().message.c_str()), 1;
    std::vector<int64_t> runs[2];
    for (int i = -1; i < reps; ++i) // i = -1 warms up
        for (int which = 0; which < 2; ++which) {
            auto r = (*capturer)->run(**writer, false, {}, which ? pruned : RunTransform{});
            if (!r) return std::fprintf(stderr, "%s\n", r.error().message.c_str()), 1;
            if (i >= 0) runs[which].push_back(r->run);
        }
    (void)(*writer)->close();
    auto reader = SessionReader::open(path);
    auto best = [&](int which, const char* phase) {
        int64_t b = INT64_MAX;
        for (int64_t id : runs[which]) {
            int64_t sum = 0;
            const auto phases = (*reader)->phases(id); // kept alive for the loop
            if (!phases) continue;
            for (const auto& p : *phases)
                if (!phase || phaseName(p.phase) == phase) sum += p.endNs - p.startNs;
            b = std::min(b, sum);
        }
        return double(b) / 1e6;
    };
    const double preAll = best(0, "prefill"), prePruned = best(1, "prefill");
    const double totAll = best(0, nullptr), totPruned = best(1, nullptr);
    std::filesystem::remove(path);
    std::printf("visual-token pruning, %s, keep %d of %d tokens, %d interleaved repetitions "
                "(fastest of each)\n",
                o.model.c_str(), k, n, reps);
    std::printf("  prefill  %.2f ms → %.2f ms (measured), speed-up %.2f×\n", preAll, prePruned,
                preAll / prePruned);
    std::printf("  total    %.2f ms → %.2f ms (measured), speed-up %.2f×\n", totAll, totPruned,
                totAll / totPruned);
    return 0;
}
