// What an eval what-if costs per item beyond the model's own passes
// (docs/eval.md): a generated set through `whatif --eval`'s runner
// (capture/run/EvalWhatIf.h) against the same items through bare,
// unrecorded generate passes of the same model, in one process.
//   per item, bare:   the median pass time of the baseline's configuration
//   per item, eval:   (wall(N items) − wall(1 item)) / (N − 1): steady state,
//                     model loading and warm-up excluded; both arms
//   overhead:         eval per item / the sum of both arms' stored pass times
//                     per item − 1 (scoring, fidelity, rows, input swaps)
// for W8 (a model rewrite) and --prune-visual 0.4 (which adds an observed
// baseline pass per item to plan it), each without and with the items'
// heatmaps (an extra untimed, observed pass per item and arm, which the
// overhead then counts). Prints; never fails on timing.
//
//   bench_eval ITEMS [PRESET]
#include "capture/run/Capture.h"
#include "capture/run/EvalWhatIf.h"
#include "core/eval/EvalSet.h"
#include "core/eval/Scenes.h"
#include "core/image/Image.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace mvp;
namespace fs = std::filesystem;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// `n` generated scenes (flat and noise backdrops), one question each.
Result<EvalSet> writeSet(const fs::path& dir, int n) {
    fs::create_directories(dir);
    std::ofstream out(dir / "set.jsonl");
    for (int i = 0; i < n; ++i) {
        const scenes::Scene s = scenes::makeScene(2'000'000'000ull + uint64_t(i));
        const auto& q = s.questions[size_t(i) % s.questions.size()];
        const std::string image = "scene-" + std::to_string(i) + ".png";
        if (auto png = encodePng(s.image); png)
            std::ofstream(dir / image, std::ios::binary)
                .write(reinterpret_cast<const char*>(png->data()), std::streamsize(png->size()));
        EvalItem item{std::to_string(i), image, q.prompt, {q.answer}, "", 0};
        out << evalItemLine(item) << "\n";
    }
    out.close();
    return readEvalSet((dir / "set.jsonl").string());
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The bare pass per item, over the set's items (the median).
Result<double> barePerItemMs(const CaptureOptions& o, const EvalSet& set) {
    CaptureOptions first = o;
    first.imagePath = set.items.front().image;
    auto prep = prepareCapture(first);
    if (!prep) return prep.error();
    auto capturer = Capturer::create(std::move(prep.value()));
    if (!capturer) return capturer.error();
    (void)(*capturer)->timedPass();
    std::vector<double> ms;
    for (const auto& item : set.items) {
        const double t0 = now();
        auto pass = (*capturer)->itemPass(item.image, item.prompt);
        if (!pass) return pass.error();
        ms.push_back((now() - t0) * 1e3);
    }
    return median(ms);
}

struct EvalCost {
    double perItemMs = 0;    // steady state, both arms
    double passesPerItemMs = 0; // the stored pass times of both arms, per item
};

Result<EvalCost> evalCost(const std::string& session, const EvalSet& set, const WhatIfRequest& r,
                          bool heatmaps) {
    auto base = loadWhatIfBaseline(session, std::nullopt, r);
    if (!base) return base.error();
    EvalSet one = set;
    one.items.resize(1);
    const EvalWhatIfOptions options{{}, heatmaps};
    double t0 = now();
    if (auto runs = runEvalWhatIf(session, *base, r, one, options); !runs) return runs.error();
    const double single = now() - t0;
    t0 = now();
    auto runs = runEvalWhatIf(session, *base, r, set, options);
    if (!runs) return runs.error();
    const double all = now() - t0;
    double passes = 0;
    for (const auto* d : {&runs->baseline, &runs->whatIf})
        for (const auto& i : d->evalItems)
            passes += double(i.totalNs()) / 1e6;
    const double n = double(set.items.size());
    return EvalCost{(all - single) / (n - 1) * 1e3, passes / n};
}

} // namespace

int main(int argc, char** argv) {
    const int n = std::max(2, argc > 1 ? std::atoi(argv[1]) : 50);
    const fs::path dir = fs::temp_directory_path() / "mvprof-bench-eval";
    fs::remove_all(dir);
    auto set = writeSet(dir / "set", n);
    if (!set) return std::fprintf(stderr, "%s\n", set.error().message.c_str()), 1;
    CaptureOptions o;
    o.model = argc > 2 ? argv[2] : "ref:demo";
    o.imagePath = set->items.front().image;
    o.prompt = set->items.front().prompt;
    o.steps = 8;
    o.threads = 1;
    o.outPath = (dir / "base.mvprof").string();
    if (auto c = capture(o); !c) return std::fprintf(stderr, "%s\n", c.error().message.c_str()), 1;
    auto bare = barePerItemMs(o, *set);
    if (!bare) return std::fprintf(stderr, "%s\n", bare.error().message.c_str()), 1;
    std::printf("%s, %d items, one thread: bare generate %.2f ms per item (measured, median)\n",
                o.model.c_str(), n, *bare);
    WhatIfRequest w8, prune;
    w8.methods[Method::W8] = 1;
    prune.methods[Method::PruneVisual] = 0.4;
    for (const auto& [name, request] : {std::pair{"w8", w8}, std::pair{"prune-visual 0.4", prune}})
        for (const bool heatmaps : {false, true}) {
            auto cost = evalCost(o.outPath, *set, request, heatmaps);
            if (!cost) return std::fprintf(stderr, "%s\n", cost.error().message.c_str()), 1;
            std::printf("  whatif --eval %-17s %-19s %.2f ms per item for both arms (steady "
                        "state); their passes %.2f ms; overhead %+.1f %%; %.2f× a bare generate\n",
                        name, heatmaps ? "(item heatmaps)" : "--no-item-heatmaps",
                        cost->perItemMs, cost->passesPerItemMs,
                        100.0 * (cost->perItemMs / cost->passesPerItemMs - 1),
                        cost->perItemMs / *bare);
        }
    fs::remove_all(dir);
    return 0;
}
