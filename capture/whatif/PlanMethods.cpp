// The planners of the published what-if methods (docs/whatif-methods.md): each
// checks its request against the model and the other transforms, and says
// in the run's description what it will do.
#include "capture/whatif/Downsample.h"
#include "capture/whatif/PlanParts.h"
#include "capture/whatif/ToMe.h"
#include "capture/whatif/VisionZip.h"
#include "core/Format.h"

namespace mvp::planning {

// FastV or PyramidDrop over the image tokens the decoder receives (every
// patch: neither combines with --prune-visual or --kv, which change them).
Status planTokenDrop(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts) {
    if (int(bool(r.fastvRatio)) + int(bool(r.pdropLambda)) + int(bool(r.dart)) > 1)
        return makeError(ErrorCode::BadInput,
                         "--fastv, --pdrop and --dart all drop visual tokens inside the decoder: "
                         "choose one");
    const char* flag = decoderDropFlag(r);
    if (r.keepVisual || r.kvThreshold)
        return makeError(ErrorCode::BadInput, std::string(flag) +
                                                  " ranks every image token inside the decoder: it "
                                                  "cannot be combined with " +
                                                  (r.keepVisual ? "--prune-visual" : "--kv"));
    const int layers = cfg.llm.layers;
    const int64_t visual = cfg.vision.patches();
    // The paper's K = 2 needs three layers; a two-layer model cuts after its first.
    const int k = r.fastvLayer ? *r.fastvLayer : std::min(2, std::max(1, layers - 1));
    auto drop = r.fastvRatio ? planFastV(layers, visual, k, *r.fastvRatio)
                : r.dart     ? planDart(layers, visual, k, *r.dart)
                             : planPyramidDrop(layers, visual, *r.pdropLambda);
    if (!drop) return drop.error();
    std::string stages;
    for (const auto& s : drop->stages)
        stages += (stages.empty() ? "" : ", ") + std::to_string(s.keep) + " from layer " +
                  std::to_string(s.layer);
    const std::string average = fmt("%.1f", layerAveragedVisualTokens(*drop, layers));
    if (r.fastvRatio)
        parts.add("fastv K" + std::to_string(k) + " R" + fmt("%.2g", *r.fastvRatio),
                  "image tokens ranked by layer " + std::to_string(k - 1) +
                      "'s last-token attention: " + stages + " of " + std::to_string(visual) +
                      ", " + average + " per layer on average");
    else if (r.dart)
        parts.add("dart " + std::to_string(*r.dart),
                  "before layer " + std::to_string(k) +
                      ", 4 image + 4 text pivots by key L1 "
                      "norm, each adding the " +
                      std::to_string(drop->perPivot) +
                      " image tokens least similar to it: " + stages + " of " +
                      std::to_string(visual) + ", " + average + " per layer on average");
    else
        parts.add("pdrop " + fmt("%.2g", *r.pdropLambda),
                  "image tokens ranked by each stage layer's last-token attention: " + stages +
                      " of " + std::to_string(visual) + ", " + average + " per layer on average");
    plan.model.tokenDrop = std::move(drop.value());
    return Ok{};
}

// VisionZip's split of the tokens sent; which patches it keeps is decided
// on the image when the model is transformed (ModelTransformOutcome).
Status planVisionZip(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts) {
    if (r.keepVisual || dropsInDecoder(r))
        return makeError(ErrorCode::BadInput,
                         std::string("--visionzip chooses the visual tokens itself: it cannot be "
                                     "combined with ") +
                             (r.keepVisual ? "--prune-visual" : decoderDropFlag(r)));
    auto split = visionZipSplit(cfg.vision.patches(), *r.visionZip);
    if (!split) return split.error();
    plan.model.visionZip = *r.visionZip;
    parts.add("visionzip " + std::to_string(*r.visionZip),
              std::to_string(split->dominant) +
                  " dominant tokens by the attention they receive "
                  "(mean over queries: the encoder has no CLS token) + " +
                  std::to_string(split->contextual) +
                  " contextual tokens merged by key cosine, in the encoder's last block");
    return Ok{};
}

// ToMe in every vision block; which patches its tokens stand for is decided
// on the image when the model is transformed.
Status planTome(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts) {
    if (r.keepVisual || r.visionZip || r.downsample || dropsInDecoder(r))
        return makeError(ErrorCode::BadInput,
                         std::string("--tome merges the visual tokens itself: it cannot be "
                                     "combined with ") +
                             (r.keepVisual   ? "--prune-visual"
                              : r.visionZip  ? "--visionzip"
                              : r.downsample ? "--downsample"
                                             : decoderDropFlag(r)));
    const int64_t n = cfg.vision.patches();
    auto schedule = r.tomeTokens ? tomeScheduleForBudget(n, cfg.vision.layers, *r.tomeTokens)
                                 : tomeSchedule(n, cfg.vision.layers, *r.tome);
    if (!schedule) return schedule.error();
    int64_t sent = n;
    std::string per;
    for (const int64_t m : *schedule) {
        sent -= m;
        per += (per.empty() ? "" : ", ") + std::to_string(m);
    }
    plan.model.tomeSchedule = *schedule;
    parts.add("tome " + std::to_string(schedule->front()),
              "bipartite soft matching in each of the " + std::to_string(cfg.vision.layers) +
                  " vision blocks, merging " + per +
                  " tokens (size-weighted means, proportional "
                  "attention): " +
                  std::to_string(sent) + " of " + std::to_string(n) + " sent");
    return Ok{};
}

// The downsample baseline: the image resized so the encoder emits about
// `tokens` tokens (a square grid); each token stands for its centre patch.
Status planDownsample(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan,
                      Parts& parts) {
    if (r.keepVisual || r.visionZip || dropsInDecoder(r))
        return makeError(ErrorCode::BadInput,
                         std::string("--downsample sends fewer visual tokens itself: it cannot be "
                                     "combined with ") +
                             (r.keepVisual  ? "--prune-visual"
                              : r.visionZip ? "--visionzip"
                                            : decoderDropFlag(r)));
    const int grid = cfg.vision.gridSide();
    auto g = downsampleGrid(grid, *r.downsample);
    if (!g) return g.error();
    plan.model.downsampleGrid = *g;
    plan.run.keepPatches = downsampleRepresentatives(grid, *g);
    parts.add("downsample " + std::to_string(*g * *g),
              "the image resized to " + std::to_string(*g * cfg.vision.patch) +
                  " px: " + std::to_string(*g) + " × " + std::to_string(*g) +
                  " visual tokens, the position table interpolated bilinearly");
    return Ok{};
}

// A published KV method; the budget is turned into positions by the run,
// which knows the prefill's length.
Status planKvMethod(const WhatIfRequest& r, WhatIfPlan& plan, Parts& parts) {
    const KvMethodKind kind = *r.kvMethod;
    if (r.kvThreshold || dropsInDecoder(r))
        return makeError(ErrorCode::BadInput,
                         std::string("--kv-method ") + toString(kind) +
                             " manages the KV cache itself: it cannot be combined with " +
                             (r.kvThreshold ? "--kv" : decoderDropFlag(r)));
    KvMethod m;
    m.kind = kind;
    m.budget = r.kvBudget;
    m.kivi.bits = r.kiviBits;
    m.kivi.group = r.kiviGroup;
    const std::string budget = fmt("%.3g", r.kvBudget);
    switch (kind) {
    case KvMethodKind::StreamingLLM:
        parts.add("streamingllm " + budget,
                  std::to_string(m.sinks) + " attention sinks + the most recent positions, " +
                      budget + " of the prefill per KV head, positions re-indexed in the cache");
        break;
    case KvMethodKind::H2O:
        parts.add("h2o " + budget, "heavy hitters by attention received + the most recent, " +
                                       budget + " of the prefill per KV head, evicting every step");
        break;
    case KvMethodKind::SnapKV:
        parts.add("snapkv " + budget, "the last " + std::to_string(m.window) +
                                          " queries' pooled votes (avg, kernel " +
                                          std::to_string(m.kernel) + ") + the window, " + budget +
                                          " of the prefill per KV head");
        break;
    case KvMethodKind::Kivi:
        parts.add("kivi " + std::to_string(r.kiviBits) + "-bit",
                  "keys per channel, values per token, group " + std::to_string(r.kiviGroup) +
                      ", " + std::to_string(m.kivi.residual) + " recent tokens in full precision");
        break;
    }
    plan.model.kvMethod = m;
    return Ok{};
}

} // namespace mvp::planning
