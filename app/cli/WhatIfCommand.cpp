// `mvprof-cli whatif`: a second real run of a baseline's inputs with a
// transform applied, stored in the same session and compared with it.
#include "app/cli/Args.h"
#include "app/cli/Commands.h"
#include "capture/Capture.h"
#include "core/analysis/Comparison.h"
#include "core/analysis/PatchMetrics.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>

namespace mvp::cli {

namespace {
constexpr const char* kHelp = R"(mvprof-cli whatif FILE --prune-visual KEEP [options] — run a what-if against a baseline

  --prune-visual KEEP  keep the round(KEEP·N) most salient visual tokens (0 < KEEP ≤ 1), in spatial order;
                       the decoder really runs on fewer tokens
  --saliency-layer L   rank patches by the attention they received in decoder layer L of the baseline
                       (default: summed over all layers)
  --run ID             the baseline run (default: the first complete run without a transform)
  --format F           text (default) or json for the comparison
The what-if is stored as a new run of FILE; the comparison is printed (latency total and per phase,
peak memory, QPS, fidelity: KL of next-token distributions, top-1 agreement, token match, vision
feature cosine). Other transforms (quantisation, KV compression, expert freezing, channel pruning)
are not available yet.
)";

// Baseline options from what the session recorded about the run.
Result<CaptureOptions> optionsFrom(SessionReader& reader, const RunInfo& base) {
    CaptureOptions o;
    o.model = base.model;
    o.prompt = base.prompt;
    o.steps = base.steps;
    o.device = base.device;
    o.imagePath = base.imagePath;
    const auto cfg = nlohmann::json::parse(base.configJson, nullptr, false);
    if (!cfg.is_object()) return makeError(ErrorCode::NotASession, "run " + std::to_string(base.id) + " has no readable model config");
    o.overrides.seed = cfg.value("seed", uint64_t(0));
    o.overrides.routingSkew = cfg.value("routing_skew", 1.0);
    auto preset = presetConfig(o.model);
    if (!preset) return preset.error();
    const int layers = cfg.contains("llm") ? cfg["llm"].value("layers", 0) : 0;
    if (layers > 0 && layers < preset->llm.layers) o.overrides.layers = layers;
    auto attn = reader.attnMapLayers(base.id);
    if (!attn) return attn.error();
    o.attnLayers = *attn;
    // The same pixels as the baseline: the original file if it is still there
    // and unchanged in size, else the copy stored in the session.
    auto image = reader.image(base.id);
    if (!image) return image.error();
    if (!*image) return makeError(ErrorCode::BadInput, "run " + std::to_string(base.id) + " has no stored image");
    auto original = loadImage(base.imagePath);
    if (!original || original->width != (*image)->origWidth || original->height != (*image)->origHeight)
        o.imageData = (*image)->png;
    return o;
}
} // namespace

int whatIfCommand(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(argv, {"--prune-visual", "--saliency-layer", "--run", "--format"}, {"--help", "-h"});
    if (!parsed) return fail(2, parsed.error().message);
    const Args& a = *parsed;
    if (a.has("--help") || a.has("-h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (a.positional.size() != 1) return fail(2, "whatif needs exactly one session file (see --help)");
    const std::string path = a.positional[0];
    if (!a.has("--prune-visual")) return fail(2, "choose a transform: --prune-visual KEEP (see --help)");
    auto keep = a.doubleValue("--prune-visual", 0);
    if (!keep || !(*keep > 0.0 && *keep <= 1.0)) return fail(2, "--prune-visual must be a number in (0, 1], e.g. 0.4");
    const std::string format = a.value("--format").value_or("text");
    if (format != "text" && format != "json") return fail(2, "--format must be text or json");

    auto reader = SessionReader::open(path);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto runs = (*reader)->runs();
    if (!runs) return fail(runs.error().exitCode(), runs.error().message);
    const RunInfo* base = nullptr;
    if (a.has("--run")) {
        auto id = a.intValue("--run", 0);
        if (!id) return fail(2, id.error().message);
        for (const auto& r : *runs)
            if (r.id == *id) base = &r;
        if (!base) return fail(2, "run " + std::to_string(*id) + " is not in " + path);
    } else {
        for (const auto& r : *runs)
            if (r.transform.empty() && r.status == RunStatus::Complete) {
                base = &r;
                break;
            }
        if (!base) return fail(2, path + " has no complete baseline run: capture one first (mvprof-cli capture)");
    }
    if (base->status != RunStatus::Complete)
        return fail(2, "run " + std::to_string(base->id) + " is " + toString(base->status) + ": a what-if needs a complete baseline");
    if (!base->probes) return fail(2, "run " + std::to_string(base->id) + " was captured with --no-probes: it has no attention to rank patches by");

    auto baseData = loadRunData(**reader, base->id);
    if (!baseData) return fail(baseData.error().exitCode(), baseData.error().message);
    LayerRange layers;
    if (auto l = a.value("--saliency-layer")) {
        auto n = a.intValue("--saliency-layer", 0);
        if (!n) return fail(2, n.error().message);
        layers = LayerRange{*n, *n};
    }
    auto grids = computePatchMetrics(*baseData, layers);
    if (!grids.count("attention")) return fail(2, "run " + std::to_string(base->id) + " has no attention values in that layer");
    const auto& saliency = grids["attention"].values;
    const int n = int(saliency.size());
    const int k = std::max(1, int(std::lround(*keep * n)));
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return saliency[size_t(x)] > saliency[size_t(y)]; });
    std::vector<int> kept(order.begin(), order.begin() + k);
    std::sort(kept.begin(), kept.end());  // the original spatial order

    auto options = optionsFrom(**reader, *base);
    if (!options) return fail(options.error().exitCode(), options.error().message);
    auto prepared = prepareCapture(*options);
    if (!prepared) return fail(prepared.error().exitCode(), prepared.error().message);
    reader->reset();

    auto capturer = Capturer::create(std::move(prepared.value()));
    if (!capturer) return fail(capturer.error().exitCode(), capturer.error().message);
    auto writer = SessionWriter::open(path, SessionWriter::Mode::Append);
    if (!writer) return fail(writer.error().exitCode(), writer.error().message);
    RunTransform t;
    char label[64];
    std::snprintf(label, sizeof label, "prune-visual %.2g", *keep);
    t.label = label;
    t.transform = std::string(label) + " (" + std::to_string(k) + " of " + std::to_string(n) + " visual tokens, by " +
                  (a.has("--saliency-layer") ? "layer " + *a.value("--saliency-layer") : std::string("all layers")) + " attention)";
    t.baselineRun = base->id;
    t.keepPatches = kept;
    auto result = (*capturer)->run(**writer, true, {}, t);
    auto closed = (*writer)->close();
    if (!result) return fail(result.error().exitCode(), result.error().message);
    if (!closed) return fail(closed.error().exitCode(), closed.error().message);

    auto again = SessionReader::open(path);
    if (!again) return fail(again.error().exitCode(), again.error().message);
    auto b = loadRunData(**again, base->id);
    auto w = loadRunData(**again, result->run);
    if (!b || !w) return fail(1, "reading the runs back failed");
    const Comparison c = compareRuns(*b, *w);
    const std::string out = format == "json" ? formatComparisonJson(c) + "\n" : formatComparisonText(c);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace mvp::cli
