// `mvprof-cli whatif`: a second real run of a baseline's inputs with one or
// more transforms applied, stored in the same session and compared with it.
#include "app/cli/Args.h"
#include "core/Format.h"
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/Progress.h"
#include "app/cli/WhatIfArms.h"
#include "capture/Capture.h"
#include "capture/whatif/ColdExperts.h"
#include "core/analysis/Comparison.h"
#include "core/analysis/PatchMetrics.h"
#include "core/analysis/Prediction.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>

namespace mvp::cli {

namespace {
constexpr const char* kHelp =
    R"(mvprof-cli whatif FILE TRANSFORM… [options] — run a what-if against a baseline

Transforms (combine any of them; they apply in one run):
  --prune-visual KEEP  keep the round(KEEP·N) most salient visual tokens (0 < KEEP ≤ 1), in spatial order;
                       the decoder really runs on fewer tokens
  --saliency S         what ranks the patches: attention (received from the text, default), saliency (the
                       blended patch/sequence map of DIAGNOSTICS.md §2) or feature-norm (‖visual feature‖)
  --saliency-layer L   use decoder layer L's attention for attention and saliency (default: all layers)
  --quant w4|w8        quantise the decoder's linears with AWQ scaling searched on the baseline's
                       activations. W8 runs libtorch's int8 kernels (quantized::linear_dynamic, weights
                       per output channel) where it has a quantized engine; W4, and W8 without one, are
                       group-wise (asymmetric) codes dequantised per call, their latency gain predicted
  --group N            values per quantisation scale of the group-wise codes (default 128)
  --kv int4            merge visual tokens whose keys have cosine > the threshold, then hold the KV cache as INT4
  --kv-threshold C     the merge threshold (default 0.82; 1 merges nothing)
  --freeze-cold        freeze experts with fewer than --freeze-min activations in two consecutive windows of
                       --freeze-window tokens of the baseline (default 3 and 128); their tokens go to the
                       next-best active expert and their weights are released
  --prune-channels F   remove the least sensitive fraction F (0 < F < 1) of each vision MLP's hidden channels,
                       sensitivity |W·∂L/∂W| with L the log-likelihood of the baseline's tokens

Options:
  --run ID             the baseline run (default: the first complete run without a transform)
  --reps N             A/B repetitions (default 5): the baseline's configuration and the what-if's run
                       in this process, warmed up, then interleaved A B A B … N times each without
                       probes; latency is reported as medians with intervals and the speed-up as a
                       paired ratio, "within noise" when its interval holds 1.0 (0: no repetitions)
  --format F           text (default) or json for the comparison
  --progress jsonl     print one JSON object per phase on stdout (the comparison is then not printed)
The what-if is stored as a new run of FILE; the comparison shows latency (total, per phase), peak memory,
weight and KV bytes, QPS, energy where measurable, fidelity (KL of next-token distributions, top-1
agreement, token match, vision feature cosine), what the transforms did, and a module-by-module diff.
Figures are measured unless marked predicted (W4 latency: libtorch 1.13 has no int4 kernel). Where W8 ran
int8 kernels, the cost model's prediction is shown beside the measurement as a check.
Phases the transforms cannot change (vision, for a decoder-side transform) are the noise control: when
their speed-up interval excludes 1.0 the comparison warns that the machine was unsteady.
)";

bool isUserModel(const RunInfo& run) {
    return run.model.rfind("file:", 0) == 0;
}

Result<CaptureOptions> withImage(SessionReader& reader, const RunInfo& base, CaptureOptions o);

// The baseline's capture settings that affect timing (absent in sessions
// written before they were stored: the defaults then).
void copyCaptureSettings(const nlohmann::json& cfg, CaptureOptions& o) {
    if (!cfg.is_object() || !cfg.contains("capture") || !cfg["capture"].is_object()) return;
    const auto& c = cfg["capture"];
    o.warmup = std::max(0, c.value("warmup", o.warmup));
    o.nestedOps = c.value("nested_ops", o.nestedOps);
    o.threads = std::max(0, c.value("threads", o.threads));
}

// Baseline options from what the session recorded about the run.
Result<CaptureOptions> optionsFrom(SessionReader& reader, const RunInfo& base) {
    CaptureOptions o;
    o.model = base.model;
    o.prompt = base.prompt;
    o.steps = base.steps;
    o.device = base.device;
    o.dtype = base.dtype;
    o.imagePath = base.imagePath;
    const auto cfg = nlohmann::json::parse(base.configJson, nullptr, false);
    copyCaptureSettings(cfg, o);
    if (isUserModel(base)) {
        // The same manifest and archive; a user model has no preset to override.
        o.modelFile = base.model.substr(std::string_view("file:").size());
        return withImage(reader, base, std::move(o));
    }
    if (!cfg.is_object())
        return makeError(ErrorCode::NotASession,
                         "run " + std::to_string(base.id) + " has no readable model config");
    o.overrides.seed = cfg.value("seed", uint64_t(0));
    o.overrides.routingSkew = cfg.value("routing_skew", 1.0);
    auto preset = presetConfig(o.model);
    if (!preset) return preset.error();
    const int layers = cfg.contains("llm") ? cfg["llm"].value("layers", 0) : 0;
    if (layers > 0 && layers < preset->llm.layers) o.overrides.layers = layers;
    const int maxSeq = cfg.contains("llm") ? cfg["llm"].value("max_seq", 0) : 0;
    if (maxSeq > 0 && maxSeq != preset->llm.maxSeq) o.overrides.maxSeq = maxSeq;
    auto attn = reader.attnMapLayers(base.id);
    if (!attn) return attn.error();
    o.attnLayers = *attn;
    return withImage(reader, base, std::move(o));
}

// The same pixels as the baseline: the original file if it is still there
// and unchanged in size, else the copy stored in the session.
Result<CaptureOptions> withImage(SessionReader& reader, const RunInfo& base, CaptureOptions o) {
    auto image = reader.image(base.id);
    if (!image) return image.error();
    if (!*image)
        return makeError(ErrorCode::BadInput,
                         "run " + std::to_string(base.id) + " has no stored image");
    auto original = loadImage(base.imagePath);
    if (!original || original->width != (*image)->origWidth ||
        original->height != (*image)->origHeight)
        o.imageData = (*image)->png;
    return o;
}

Result<const RunInfo*> chooseBaseline(const std::vector<RunInfo>& runs, const Args& a,
                                      const std::string& path) {
    const RunInfo* base = nullptr;
    if (a.has("--run")) {
        auto id = a.intValue("--run", 0);
        if (!id) return makeError(ErrorCode::BadInput, id.error().message);
        for (const auto& r : runs)
            if (r.id == *id) base = &r;
        if (!base)
            return makeError(ErrorCode::BadInput,
                             "run " + std::to_string(*id) + " is not in " + path);
    } else {
        for (const auto& r : runs)
            if (r.transform.empty() && r.status == RunStatus::Complete) {
                base = &r;
                break;
            }
        if (!base)
            return makeError(
                ErrorCode::BadInput,
                path + " has no complete baseline run: capture one first (mvprof-cli capture)");
    }
    if (base->status != RunStatus::Complete)
        return makeError(ErrorCode::BadInput, "run " + std::to_string(base->id) + " is " +
                                                  toString(base->status) +
                                                  ": a what-if needs a complete baseline");
    if (base->model.rfind("python:", 0) == 0)
        return makeError(ErrorCode::BadInput,
                         "run " + std::to_string(base->id) +
                             " was profiled from Python (mvprof.profile): its what-ifs run in "
                             "the script, with mvprof.whatif (capture/python/mvprof/README.md)");
    if (isUserModel(*base))
        for (const char* flag : {"--prune-visual", "--kv", "--freeze-cold", "--prune-channels"})
            if (a.has(flag))
                return makeError(ErrorCode::BadInput,
                                 "run " + std::to_string(base->id) + " is a user model: " + flag +
                                     " rewrites the built-in reference model's layers; on a "
                                     "TorchScript model only --quant (its LLM's linear weights, "
                                     "named by the manifest's roles) runs");
    if (!base->probes)
        return makeError(ErrorCode::BadInput, "run " + std::to_string(base->id) +
                                                  " was captured with --no-probes: it has no "
                                                  "attention or routing to plan a what-if from");
    return base;
}

// Per patch (row-major), the norm of the visual feature the baseline fed the
// decoder; patches it did not feed rank last.
std::vector<double> featureNorms(const RunData& base, int patches) {
    std::vector<double> norms(static_cast<size_t>(patches), -1.0);
    if (!base.visionFeatures) return {};
    const auto& f = *base.visionFeatures;
    int row = 0;
    for (const auto& [position, patch] : patchOfPosition(base)) {
        if (row >= f.rows) break;
        double s = 0;
        for (int c = 0; c < f.cols; ++c) {
            const double v = f.data[size_t(row) * size_t(f.cols) + size_t(c)];
            s += v * v;
        }
        if (patch >= 0 && patch < patches) norms[size_t(patch)] = std::sqrt(s);
        ++row;
    }
    return norms;
}

// The round(keep·N) most salient patches, in spatial order.
Result<std::vector<int>> salientPatches(const RunData& base, double keep, const std::string& source,
                                        std::optional<int> layer, int* total) {
    LayerRange layers;
    if (layer) layers = LayerRange{*layer, *layer};
    auto grids = computePatchMetrics(base, layers);
    if (!grids.count("attention"))
        return makeError(ErrorCode::BadInput, "run " + std::to_string(base.run.id) +
                                                  " has no attention values in that layer");
    std::vector<double> saliency;
    if (source == "feature-norm") {
        saliency = featureNorms(base, int(grids["attention"].values.size()));
        if (saliency.empty())
            return makeError(ErrorCode::BadInput,
                             "run " + std::to_string(base.run.id) + " stored no visual features");
    } else {
        if (!grids.count(source))
            return makeError(
                ErrorCode::BadInput,
                "run " + std::to_string(base.run.id) +
                    " has no saliency map in that layer range: it needs "
                    "per-head attention maps and decode steps (capture with --attn-layers all)");
        saliency = grids[source].values;
    }
    const int n = int(saliency.size());
    *total = n;
    const int k = std::max(1, int(std::lround(keep * n)));
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return saliency[size_t(x)] > saliency[size_t(y)]; });
    std::vector<int> kept(order.begin(), order.begin() + k);
    std::sort(kept.begin(), kept.end());
    return kept;
}


} // namespace

int whatIfCommand(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(argv,
                            {"--prune-visual", "--saliency", "--saliency-layer", "--quant",
                             "--group", "--kv", "--kv-threshold", "--freeze-window", "--freeze-min",
                             "--prune-channels", "--run", "--format", "--progress", "--reps"},
                            {"--help", "-h", "--freeze-cold"});
    if (!parsed) return fail(2, parsed.error().message);
    const Args& a = *parsed;
    if (a.has("--help") || a.has("-h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (a.positional.size() != 1)
        return fail(2, "whatif needs exactly one session file (see --help)");
    const std::string path = a.positional[0];
    if (!a.has("--prune-visual") && !a.has("--quant") && !a.has("--kv") &&
        !a.has("--freeze-cold") && !a.has("--prune-channels"))
        return fail(2, "choose a transform: --prune-visual KEEP, --quant w4|w8, --kv int4, "
                       "--freeze-cold or --prune-channels F (see --help)");

    // Every request is checked before anything runs, so a bad one writes nothing.
    std::optional<double> keep;
    if (a.has("--prune-visual")) {
        auto k = a.doubleValue("--prune-visual", 0);
        if (!k || !(*k > 0.0 && *k <= 1.0))
            return fail(2, "--prune-visual must be a number in (0, 1], e.g. 0.4");
        keep = *k;
    }
    const std::string saliencySource = a.value("--saliency").value_or("attention");
    if (saliencySource != "attention" && saliencySource != "saliency" &&
        saliencySource != "feature-norm")
        return fail(2, "--saliency must be attention, saliency or feature-norm");
    std::optional<int> saliencyLayer;
    if (a.has("--saliency-layer")) {
        auto l = a.intValue("--saliency-layer", 0);
        if (!l) return fail(2, l.error().message);
        saliencyLayer = *l;
    }
    ModelTransforms mt;
    if (auto q = a.value("--quant")) {
        if (*q != "w4" && *q != "w8") return fail(2, "--quant must be w4 or w8");
        mt.quantBits = *q == "w4" ? 4 : 8;
    }
    auto group = a.intValue("--group", 128);
    if (!group || *group <= 0 || *group % 2)
        return fail(2, "--group must be a positive even number, e.g. 128");
    mt.quantGroup = *group;
    if (auto kv = a.value("--kv")) {
        if (*kv != "int4") return fail(2, "--kv accepts int4");
        auto thr = a.doubleValue("--kv-threshold", 0.82);
        if (!thr || !(*thr > -1.0 && *thr <= 1.0))
            return fail(2, "--kv-threshold must be a cosine in (-1, 1]");
        mt.kv = KvCompression{*thr, true, true};
    }
    auto window = a.intValue("--freeze-window", 128);
    auto minActs = a.intValue("--freeze-min", 3);
    if (!window || *window <= 0)
        return fail(2, "--freeze-window must be a positive number of tokens");
    if (!minActs || *minActs < 0) return fail(2, "--freeze-min must be zero or more activations");
    if (a.has("--prune-channels")) {
        auto f = a.doubleValue("--prune-channels", 0);
        if (!f || !(*f > 0.0 && *f < 1.0))
            return fail(2, "--prune-channels must be a fraction in (0, 1), e.g. 0.3");
        mt.pruneChannels = *f;
    }
    auto reps = a.intValue("--reps", 5);
    if (!reps || *reps < 0 || *reps > 1000)
        return fail(2, "--reps must be a number of repetitions from 0 to 1000, e.g. 5");
    const std::string format = a.value("--format").value_or("text");
    if (format != "text" && format != "json") return fail(2, "--format must be text or json");
    const std::string progressMode = a.value("--progress").value_or("");
    if (!progressMode.empty() && progressMode != "jsonl")
        return fail(2, "--progress accepts only jsonl");

    auto reader = SessionReader::open(path);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto runs = (*reader)->runs();
    if (!runs) return fail(runs.error().exitCode(), runs.error().message);
    auto chosen = chooseBaseline(*runs, a, path);
    if (!chosen) return fail(2, chosen.error().message);
    const RunInfo base = **chosen;
    auto baseData = loadRunData(**reader, base.id);
    if (!baseData) return fail(baseData.error().exitCode(), baseData.error().message);

    RunTransform t;
    std::vector<std::string> parts, details;
    if (keep) {
        int n = 0;
        auto kept = salientPatches(*baseData, *keep, saliencySource, saliencyLayer, &n);
        if (!kept) return fail(2, kept.error().message);
        t.keepPatches = *kept;
        parts.push_back("prune-visual " + fmt("%.2g", *keep));
        const std::string layerText =
            saliencyLayer ? "layer " + std::to_string(*saliencyLayer) : std::string("all layers");
        details.push_back(std::to_string(kept->size()) + " of " + std::to_string(n) +
                          " visual tokens, by " +
                          (saliencySource == "feature-norm" ? std::string("visual feature norm")
                                                            : layerText + " " + saliencySource));
    }
    auto options = optionsFrom(**reader, base);
    if (!options) return fail(options.error().exitCode(), options.error().message);
    options->cancel = installCancelHandlers();
    auto prepared = prepareCapture(*options);
    if (!prepared) return fail(prepared.error().exitCode(), prepared.error().message);
    const PreparedCapture baselinePrep = *prepared; // the A arm's model is built from the same
    const VlmConfig cfg = prepared->config;
    if (a.has("--freeze-cold")) {
        if (cfg.llm.moeLayers.empty())
            return fail(2, "run " + std::to_string(base.id) +
                               "'s model has no MoE layers: there are no experts to freeze");
        const auto plan =
            planColdExperts(baseData->routing, cfg.llm.experts, cfg.llm.topK, *window, *minActs);
        if (plan.completeWindows < 2)
            return fail(
                2, "the baseline has " + std::to_string(plan.positions) +
                       " tokens per layer: cold-expert freezing needs two complete windows of " +
                       std::to_string(*window) + " (use a smaller --freeze-window)");
        mt.freezeCold = true;
        mt.frozenExperts = plan.frozen;
        int frozen = 0;
        for (const auto& [layer, experts] : plan.frozen)
            frozen += int(experts.size());
        parts.push_back("freeze-cold");
        details.push_back(std::to_string(frozen) + " experts frozen (< " +
                          std::to_string(*minActs) + " activations in two windows of " +
                          std::to_string(*window) + ")");
    }
    if (mt.quantBits) {
        parts.push_back("w" + std::to_string(mt.quantBits));
        details.push_back(isUserModel(base) ? "group " + std::to_string(mt.quantGroup) +
                                                  ", round-to-nearest"
                          : mt.quantBits == 8 ? std::string("AWQ; int8 kernels where libtorch has them")
                                              : "group " + std::to_string(mt.quantGroup) + ", AWQ");
    }
    if (mt.kv) {
        parts.push_back("kv-int4");
        details.push_back("merge keys with cosine > " + fmt("%.3g", mt.kv->threshold));
    }
    if (mt.pruneChannels > 0) {
        parts.push_back("prune-channels " + fmt("%.2g", mt.pruneChannels));
        details.push_back("vision MLPs, by |W·∂L/∂W|");
    }
    for (const auto& s : baseData->stepOutputs)
        mt.baselineTokens.push_back(s.token);
    if ((mt.quantBits || mt.pruneChannels > 0) && mt.baselineTokens.empty())
        return fail(2, "run " + std::to_string(base.id) +
                           " stored no generated tokens: capture a new baseline to calibrate "
                           "quantisation or channel pruning");

    auto capturer = Capturer::create(std::move(prepared.value()));
    if (!capturer) return fail(capturer.error().exitCode(), capturer.error().message);
    // Calibration and sensitivity passes run before the what-if: say so.
    if (progressMode == "jsonl" && mt.touchesModel()) jsonlProgress()({"transforming", 0, 0, 0.0});
    auto outcome = (*capturer)->transformModel(mt);
    if (!outcome) return fail(outcome.error().exitCode(), outcome.error().message);
    reader->reset();

    std::string label, description;
    for (size_t i = 0; i < parts.size(); ++i) {
        label += (i ? " + " : "") + parts[i];
        description += (i ? "; " : "") + parts[i] + " (" + details[i] + ")";
    }
    t.label = label;
    t.transform = description;
    t.baselineRun = base.id;
    t.metrics = outcome->metrics;

    const ProgressFn progress = progressMode == "jsonl" ? jsonlProgress() : ProgressFn();
    auto arms = runBothArms(baselinePrep, **capturer, t, mt, *reps, progress);
    if (!arms) return fail(arms.error().exitCode(), arms.error().message);
    for (const auto& m : arms->resampling)
        t.metrics.push_back(m);
    std::vector<RepetitionRow> repetitions = std::move(arms->repetitions);

    auto writer = SessionWriter::open(path, SessionWriter::Mode::Append);
    if (!writer) return fail(writer.error().exitCode(), writer.error().message);
    // After the repetitions, the recorded run fills the progress bar's last fifth.
    const ProgressFn runProgress =
        progress && *reps > 0 ? ProgressFn([&](CaptureProgress p) {
            p.fraction = 0.8 + 0.2 * p.fraction;
            progress(p);
        })
                              : progress;
    auto result = (*capturer)->run(**writer, true, runProgress, t);
    if (!result) {
        (void)(*writer)->close();
        return fail(result.error().exitCode(), result.error().message);
    }
    // Read the what-if back once (the baseline is already loaded). Where it
    // quantised, the latency this machine cannot measure is predicted from
    // both profiles and stored with the what-if.
    if (auto s = (*writer)->flush(); !s) return fail(s.error().exitCode(), s.error().message);
    auto again = SessionReader::open(path);
    if (!again) return fail(again.error().exitCode(), again.error().message);
    auto w = loadRunData(**again, result->run);
    if (!w)
        return fail(w.error().exitCode(), "reading the what-if back failed: " + w.error().message);
    if (!repetitions.empty()) {
        Batch batch;
        batch.run = result->run;
        batch.repetitions = repetitions;
        (*writer)->submit(std::move(batch));
        w->repetitions = std::move(repetitions);
    }
    if (!outcome->quantised.empty())
        if (auto p = outcome->int8Kernels
                         ? predictFromKernelRatios(*baseData, *w, outcome->quantised)
                         : predictQuantisedLatency(*baseData, *w, outcome->quantised)) {
            const RunMetricRow predicted{
                "latency.predicted_ns", double(p->wallNs), "ns", "predicted",
                (outcome->int8Kernels ? "a check of the cost model, the int8 kernels having run: "
                                      : "") +
                    p->note};
            Batch batch;
            batch.run = result->run;
            batch.runMetrics.push_back(predicted);
            (*writer)->submit(std::move(batch));
            w->runMetrics.push_back(predicted);
        }
    if (auto closed = (*writer)->close(); !closed)
        return fail(closed.error().exitCode(), closed.error().message);
    const Comparison c = compareRuns(*baseData, *w);
    if (result->status != RunStatus::Complete)
        return fail(1, "the what-if was stopped before it finished; " + path +
                           " keeps it, marked incomplete");
    if (progressMode == "jsonl") {
        const nlohmann::json j{{"event", "done"},
                               {"run", result->run},
                               {"baseline_run", base.id},
                               {"status", toString(result->status)},
                               {"out", path},
                               {"wall_ms", double(result->wallNs) / 1e6}};
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    const std::string out =
        format == "json" ? formatComparisonJson(c) + "\n" : formatComparisonText(c);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace mvp::cli
