#include "capture/whatif/Plan.h"

#include "capture/cuda/EventTimer.h"
#include "capture/whatif/ColdExperts.h"
#include "capture/whatif/ExpertSparsity.h"
#include "capture/whatif/PlanParts.h"
#include "core/Format.h"
#include "core/analysis/PatchMetrics.h"
#include "core/image/Image.h"
#include "core/session/SessionReader.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

namespace mvp {

namespace {
using planning::Parts;
bool isUserModel(const RunInfo& run) {
    return run.model.rfind("file:", 0) == 0;
}

std::string runName(const RunInfo& r) {
    return "run " + std::to_string(r.id);
}

// The baseline's capture settings that affect timing or what is observed
// (absent in sessions written before they were stored: the defaults then).
void copyCaptureSettings(const nlohmann::json& cfg, CaptureOptions& o) {
    if (!cfg.is_object() || !cfg.contains("capture") || !cfg["capture"].is_object()) return;
    const auto& c = cfg["capture"];
    o.warmup = std::max(0, c.value("warmup", o.warmup));
    o.nestedOps = c.value("nested_ops", o.nestedOps);
    o.threads = std::max(0, c.value("threads", o.threads));
    // A GPU baseline's observation: exact device timing waits at every op,
    // and its counters are what a what-if's are compared with.
    o.traceGpu = c.value("gpu_trace", o.traceGpu);
    if (const auto timing = cuda::parseDeviceTiming(c.value("device_timing", std::string())))
        o.deviceTiming = *timing;
    o.hwCounters = c.value("hw_counters", o.hwCounters);
}

// The same pixels as the baseline: the original file if it is still there
// and unchanged in size, else the copy stored in the session.
Result<CaptureOptions> withImage(SessionReader& reader, const RunInfo& base, CaptureOptions o) {
    auto image = reader.image(base.id);
    if (!image) return image.error();
    if (!*image) return makeError(ErrorCode::BadInput, runName(base) + " has no stored image");
    auto original = loadImage(base.imagePath);
    if (!original || original->width != (*image)->origWidth ||
        original->height != (*image)->origHeight)
        o.imageData = (*image)->png;
    return o;
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

// Each patch's saliency by `source`, summed over `layer` (or all layers).
Result<std::vector<double>> patchSaliency(const RunData& base, SaliencySource source,
                                          std::optional<int> layer) {
    LayerRange layers;
    if (layer) layers = LayerRange{*layer, *layer};
    auto grids = computePatchMetrics(base, layers);
    if (!grids.count("attention"))
        return makeError(ErrorCode::BadInput,
                         runName(base.run) + " has no attention values in that layer");
    if (source == SaliencySource::FeatureNorm) {
        auto norms = featureNorms(base, int(grids["attention"].values.size()));
        if (norms.empty())
            return makeError(ErrorCode::BadInput, runName(base.run) + " stored no visual features");
        return norms;
    }
    const char* metric = source == SaliencySource::Saliency ? "saliency" : "attention";
    if (!grids.count(metric))
        return makeError(ErrorCode::BadInput,
                         runName(base.run) +
                             " has no saliency map in that layer range: it needs per-head "
                             "attention maps and decode steps (capture with --attn-layers all)");
    return grids[metric].values;
}

// The round(keep·N) most salient patches, in spatial order, and N.
Result<std::pair<std::vector<int>, int>>
salientPatches(const RunData& base, double keep, SaliencySource source, std::optional<int> layer) {
    auto saliency = patchSaliency(base, source, layer);
    if (!saliency) return saliency.error();
    const int n = int(saliency->size());
    const int k = std::max(1, int(std::lround(keep * n)));
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return (*saliency)[size_t(x)] > (*saliency)[size_t(y)]; });
    std::vector<int> kept(order.begin(), order.begin() + k);
    std::sort(kept.begin(), kept.end());
    return std::pair{kept, n};
}

Status planPruning(const WhatIfRequest& r, const RunData& base, WhatIfPlan& plan, Parts& parts) {
    auto kept = salientPatches(base, *r.keepVisual, r.saliency, r.saliencyLayer);
    if (!kept) return kept.error();
    plan.run.keepPatches = kept->first;
    const std::string layerText =
        r.saliencyLayer ? "layer " + std::to_string(*r.saliencyLayer) : std::string("all layers");
    const std::string by = r.saliency == SaliencySource::FeatureNorm ? "visual feature norm"
                           : r.saliency == SaliencySource::Saliency  ? layerText + " saliency"
                                                                     : layerText + " attention";
    parts.add("prune-visual " + fmt("%.2g", *r.keepVisual),
              std::to_string(kept->first.size()) + " of " + std::to_string(kept->second) +
                  " visual tokens, by " + by);
    return Ok{};
}

Status planFreezing(const WhatIfRequest& r, const RunData& base, const VlmConfig& cfg,
                    WhatIfPlan& plan, Parts& parts) {
    if (cfg.llm.moeLayers.empty())
        return makeError(ErrorCode::BadInput,
                         runName(base.run) +
                             "'s model has no MoE layers: there are no experts to freeze");
    const auto cold =
        planColdExperts(base.routing, cfg.llm.experts, cfg.llm.topK, r.freezeWindow, r.freezeMin);
    if (cold.completeWindows < 2)
        return makeError(ErrorCode::BadInput,
                         "the baseline has " + std::to_string(cold.positions) +
                             " tokens per layer: cold-expert freezing needs two complete windows "
                             "of " +
                             std::to_string(r.freezeWindow) + " (use a smaller --freeze-window)");
    plan.model.freezeCold = true;
    plan.model.frozenExperts = cold.frozen;
    int frozen = 0;
    for (const auto& [layer, experts] : cold.frozen)
        frozen += int(experts.size());
    parts.add("freeze-cold", std::to_string(frozen) + " experts frozen (< " +
                                 std::to_string(r.freezeMin) + " activations in two windows of " +
                                 std::to_string(r.freezeWindow) + ")");
    return Ok{};
}

// Expert_Sparsity's skipping (β from the baseline's routing) and pruning
// (the subsets are chosen on the baseline's inputs when the model is built).
Status planExpertSparsity(const WhatIfRequest& r, const RunData& base, const VlmConfig& cfg,
                          WhatIfPlan& plan, Parts& parts) {
    if (cfg.llm.moeLayers.empty())
        return makeError(ErrorCode::BadInput, runName(base.run) +
                                                  "'s model has no MoE layers: there are no "
                                                  "experts to skip or prune");
    if (r.keepExperts && r.freezeCold)
        return makeError(ErrorCode::BadInput, "--keep-experts and --freeze-cold both take "
                                              "experts offline: choose one");
    if (r.keepExperts && (r.keepExperts < cfg.llm.topK || r.keepExperts >= cfg.llm.experts))
        return makeError(ErrorCode::BadInput,
                         "--keep-experts keeps from " + std::to_string(cfg.llm.topK) +
                             " (the router's top-k) to " + std::to_string(cfg.llm.experts - 1) +
                             " of the model's " + std::to_string(cfg.llm.experts) +
                             " experts, not " + std::to_string(r.keepExperts));
    if (r.keepExperts) {
        plan.model.keepExperts = r.keepExperts;
        parts.add("keep-experts " + std::to_string(r.keepExperts),
                  std::to_string(r.keepExperts) + " of " + std::to_string(cfg.llm.experts) +
                      " experts per MoE layer, the subset closest to the full layer's output on "
                      "the baseline's inputs");
    }
    if (!r.skipExperts) return Ok{};
    if (cfg.llm.topK < 2)
        return makeError(ErrorCode::BadInput, "--skip-experts skips a token's lower-ranked "
                                              "experts: the router chooses only one");
    auto beta = skippingThresholds(base.routing);
    if (!beta) return beta.error();
    plan.model.skipBeta = std::move(beta.value());
    parts.add("skip-experts", "a lower-ranked expert below β·w₁ is skipped, β each layer's median "
                              "w₂/w₁ over the baseline's tokens");
    return Ok{};
}

void planModelTransforms(const WhatIfRequest& r, const RunData& base, WhatIfPlan& plan,
                         Parts& parts) {
    auto& mt = plan.model;
    mt.quantBits = r.quantBits;
    mt.quantGroup = r.quantGroup;
    if (mt.quantBits)
        parts.add("w" + std::to_string(mt.quantBits),
                  isUserModel(base.run)
                      ? "group " + std::to_string(mt.quantGroup) + ", round-to-nearest"
                  : mt.quantBits == 8 ? std::string("AWQ; int8 kernels where libtorch has them")
                                      : "group " + std::to_string(mt.quantGroup) + ", AWQ");
    if (r.kvThreshold) {
        mt.kv = KvCompression{*r.kvThreshold, true, true};
        parts.add("kv-int4", "merge keys with cosine > " + fmt("%.3g", *r.kvThreshold));
    }
    if (r.pruneChannels > 0) {
        mt.pruneChannels = r.pruneChannels;
        parts.add("prune-channels " + fmt("%.2g", r.pruneChannels), "vision MLPs, by |W·∂L/∂W|");
    }
}
} // namespace

std::optional<KvMethodKind> kvMethodFromString(const std::string& s) {
    if (s == "streaming" || s == "streamingllm") return KvMethodKind::StreamingLLM;
    if (s == "h2o") return KvMethodKind::H2O;
    if (s == "snapkv") return KvMethodKind::SnapKV;
    if (s == "kivi") return KvMethodKind::Kivi;
    return std::nullopt;
}

std::optional<SaliencySource> saliencySourceFromString(const std::string& s) {
    if (s == "attention") return SaliencySource::Attention;
    if (s == "saliency") return SaliencySource::Saliency;
    if (s == "feature-norm") return SaliencySource::FeatureNorm;
    return std::nullopt;
}

namespace {
// Why a what-if cannot run on a TorchScript model: the observable or the
// place to act that it needs, which the archive's three methods keep to
// themselves (docs/user-models.md) — and where it runs instead.
std::optional<std::string> userModelRefusal(const WhatIfRequest& r) {
    const std::string eager = " (an eager model profiled with the Python package runs ";
    if (r.fastvRatio || r.pdropLambda)
        return std::string(r.fastvRatio ? "--fastv" : "--pdrop") +
               " drops image tokens between decoder layers, and a TorchScript forward does not "
               "let mvprof change its sequence or its attention there" +
               eager + (r.fastvRatio ? "mvprof.FastV" : "mvprof.PyramidDrop") +
               ", by attention masking)";
    if (r.dart)
        return std::string("--dart reads a decoder layer's keys and hidden states and drops image "
                           "tokens after it, which a TorchScript forward keeps to itself");
    if (r.visionZip)
        return "--visionzip merges visual tokens by the vision encoder's keys, which a TorchScript "
               "model's ops do not expose as such" +
               eager + "mvprof.VisionZip, reading its attention and keys)";
    if (r.tome || r.tomeTokens)
        return std::string("--tome merges tokens between the vision encoder's blocks and adds "
                           "log(size) to its attention scores, which a TorchScript encode_image "
                           "does not let mvprof change");
    if (r.downsample)
        return std::string("--downsample resizes the image and interpolates the vision encoder's "
                           "position table, which a TorchScript model keeps to itself");
    if (r.kvMethod || r.kvThreshold)
        return std::string(r.kvMethod ? "--kv-method" : "--kv") +
               " compresses the decoder's KV cache, and a TorchScript forward receives the whole "
               "sequence at every step: there is no cache mvprof can reach";
    const std::pair<bool, const char*> rewrites[] = {{bool(r.keepVisual), "--prune-visual"},
                                                     {r.freezeCold, "--freeze-cold"},
                                                     {r.pruneChannels > 0, "--prune-channels"},
                                                     {r.skipExperts, "--skip-experts"},
                                                     {r.keepExperts > 0, "--keep-experts"}};
    for (const auto& [asked, flag] : rewrites)
        if (asked)
            return std::string(flag) +
                   " rewrites the built-in reference model's layers; on a TorchScript model only "
                   "--quant (its LLM's linear weights, named by the manifest's roles) runs";
    return std::nullopt;
}
} // namespace

Status checkBaseline(const RunInfo& base, const WhatIfRequest& r) {
    if (base.status != RunStatus::Complete)
        return makeError(ErrorCode::BadInput, runName(base) + " is " + toString(base.status) +
                                                  ": a what-if needs a complete baseline");
    if (base.model.rfind("python:", 0) == 0)
        return makeError(ErrorCode::BadInput,
                         runName(base) +
                             " was profiled from Python (mvprof.profile): its what-ifs run in "
                             "the script, with mvprof.whatif (capture/python/mvprof/README.md)");
    if (isUserModel(base))
        if (const auto why = userModelRefusal(r))
            return makeError(ErrorCode::BadInput, runName(base) + " is a user model: " + *why);
    if (!base.probes)
        return makeError(ErrorCode::BadInput, runName(base) +
                                                  " was captured with --no-probes: it has no "
                                                  "attention or routing to plan a what-if from");
    return Ok{};
}

Result<CaptureOptions> baselineOptions(SessionReader& reader, const RunInfo& base) {
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
        return makeError(ErrorCode::NotASession, runName(base) + " has no readable model config");
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

Result<WhatIfPlan> planWhatIf(const WhatIfRequest& r, const RunData& base,
                              const VlmConfig& config) {
    WhatIfPlan plan;
    Parts parts;
    if (r.keepVisual)
        if (auto s = planPruning(r, base, plan, parts); !s) return s.error();
    if (r.freezeCold)
        if (auto s = planFreezing(r, base, config, plan, parts); !s) return s.error();
    if (planning::dropsInDecoder(r))
        if (auto s = planning::planTokenDrop(r, config, plan, parts); !s) return s.error();
    if (r.skipExperts || r.keepExperts)
        if (auto s = planExpertSparsity(r, base, config, plan, parts); !s) return s.error();
    if (r.kvMethod)
        if (auto s = planning::planKvMethod(r, plan, parts); !s) return s.error();
    if (r.visionZip)
        if (auto s = planning::planVisionZip(r, config, plan, parts); !s) return s.error();
    if (r.downsample)
        if (auto s = planning::planDownsample(r, config, plan, parts); !s) return s.error();
    if (r.tome || r.tomeTokens)
        if (auto s = planning::planTome(r, config, plan, parts); !s) return s.error();
    planModelTransforms(r, base, plan, parts);
    for (const auto& s : base.stepOutputs)
        plan.model.baselineTokens.push_back(s.token);
    if ((plan.model.quantBits || plan.model.pruneChannels > 0 || plan.model.keepExperts) &&
        plan.model.baselineTokens.empty())
        return makeError(ErrorCode::BadInput,
                         runName(base.run) +
                             " stored no generated tokens: capture a new baseline to calibrate "
                             "quantisation or channel pruning");
    plan.run.label.clear();
    parts.into(plan.run);
    plan.run.baselineRun = base.run.id;
    return plan;
}

} // namespace mvp
