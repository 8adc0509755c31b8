// The planners of the published what-if methods (docs/whatif-methods.md):
// each checks its request against the model and the other methods asked for,
// and says in the run's description what it will do.
#include "capture/whatif/Downsample.h"
#include "capture/whatif/PlanParts.h"
#include "capture/whatif/ToMe.h"
#include "capture/whatif/VisionZip.h"
#include "core/Format.h"

namespace mvp::planning {

namespace {
Error cannotCombine(const std::string& flag, const std::string& why, const std::string& with) {
    return makeError(ErrorCode::BadInput,
                     flag + " " + why + ": it cannot be combined with " + with);
}

// An encoder-side method chooses the visual tokens itself: saliency pruning
// and the decoder's token drops would rank tokens it has already changed.
Status choosesTokensAlone(const WhatIfRequest& r, const std::string& flag, const std::string& why) {
    if (r.has(Method::PruneVisual)) return cannotCombine(flag, why, "--prune-visual");
    if (r.inFamily(Family::DecoderDrop))
        return cannotCombine(flag, why, familyFlag(r, Family::DecoderDrop));
    return Ok{};
}
} // namespace

// FastV, PyramidDrop or DART over the image tokens the decoder receives
// (every patch: none combines with --prune-visual or --kv, which change them).
Status planTokenDrop(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const WhatIfRequest& r = c.request;
    const Method method = *r.inFamily(Family::DecoderDrop);
    const std::string flag = methodFlag(method);
    if (r.has(Method::PruneVisual) || r.has(Method::KvInt4))
        return cannotCombine(flag, "ranks every image token inside the decoder",
                             r.has(Method::PruneVisual) ? "--prune-visual" : "--kv");
    const int layers = c.config.llm.layers;
    const int64_t visual = c.config.vision.patches();
    // The paper's K = 2 needs three layers; a two-layer model cuts after its first.
    const int k =
        r.options.decoderLayer ? *r.options.decoderLayer : std::min(2, std::max(1, layers - 1));
    const double v = r.value(method);
    auto drop = method == Method::FastV  ? planFastV(layers, visual, k, v)
                : method == Method::Dart ? planDart(layers, visual, k, int64_t(v))
                                         : planPyramidDrop(layers, visual, v);
    if (!drop) return drop.error();
    std::string stages;
    for (const auto& s : drop->stages)
        stages += (stages.empty() ? "" : ", ") + std::to_string(s.keep) + " from layer " +
                  std::to_string(s.layer);
    const std::string average = fmt("%.1f", layerAveragedVisualTokens(*drop, layers));
    const std::string held =
        stages + " of " + std::to_string(visual) + ", " + average + " per layer on average";
    if (method == Method::FastV)
        parts.add("fastv K" + std::to_string(k) + " R" + fmt("%.2g", v),
                  "image tokens ranked by layer " + std::to_string(k - 1) +
                      "'s last-token attention: " + held);
    else if (method == Method::Dart)
        parts.add("dart " + std::to_string(int64_t(v)),
                  "before layer " + std::to_string(k) +
                      ", 4 image + 4 text pivots by key L1 norm, each adding the " +
                      std::to_string(drop->perPivot) +
                      " image tokens least similar to it: " + held);
    else
        parts.add("pdrop " + fmt("%.2g", v),
                  "image tokens ranked by each stage layer's last-token attention: " + held);
    plan.model.tokenDrop = std::move(drop.value());
    return Ok{};
}

// VisionZip's split of the tokens sent; which patches it keeps is decided
// on the image when the model is transformed (ModelTransformOutcome).
Status planVisionZip(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const WhatIfRequest& r = c.request;
    if (auto alone = choosesTokensAlone(r, "--visionzip", "chooses the visual tokens itself");
        !alone)
        return alone;
    const auto tokens = int64_t(r.value(Method::VisionZip));
    auto split = visionZipSplit(c.config.vision.patches(), tokens);
    if (!split) return split.error();
    plan.model.visionZip = tokens;
    parts.add("visionzip " + std::to_string(tokens),
              std::to_string(split->dominant) +
                  " dominant tokens by the attention they receive "
                  "(mean over queries: the encoder has no CLS token) + " +
                  std::to_string(split->contextual) +
                  " contextual tokens merged by key cosine, in the encoder's last block");
    return Ok{};
}

// ToMe in every vision block; which patches its tokens stand for is decided
// on the image when the model is transformed.
Status planTome(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const WhatIfRequest& r = c.request;
    if (auto alone = choosesTokensAlone(r, "--tome", "merges the visual tokens itself"); !alone)
        return alone;
    const int64_t n = c.config.vision.patches();
    const auto v = int64_t(r.value(Method::ToMe));
    auto schedule = r.options.tomeTokensSent ? tomeScheduleForBudget(n, c.config.vision.layers, v)
                                             : tomeSchedule(n, c.config.vision.layers, v);
    if (!schedule) return schedule.error();
    int64_t sent = n;
    std::string per;
    for (const int64_t m : *schedule) {
        sent -= m;
        per += (per.empty() ? "" : ", ") + std::to_string(m);
    }
    plan.model.tomeSchedule = *schedule;
    parts.add("tome " + std::to_string(schedule->front()),
              "bipartite soft matching in each of the " + std::to_string(c.config.vision.layers) +
                  " vision blocks, merging " + per +
                  " tokens (size-weighted means, proportional attention): " + std::to_string(sent) +
                  " of " + std::to_string(n) + " sent");
    return Ok{};
}

// The downsample baseline: the image resized so the encoder emits about
// `tokens` tokens (a square grid); each token stands for its centre patch.
Status planDownsample(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const WhatIfRequest& r = c.request;
    if (auto alone = choosesTokensAlone(r, "--downsample", "sends fewer visual tokens itself");
        !alone)
        return alone;
    const int grid = c.config.vision.gridSide();
    auto g = downsampleGrid(grid, int(r.value(Method::Downsample)));
    if (!g) return g.error();
    plan.model.downsampleGrid = *g;
    plan.run.keepPatches = downsampleRepresentatives(grid, *g);
    parts.add("downsample " + std::to_string(*g * *g),
              "the image resized to " + std::to_string(*g * c.config.vision.patch) +
                  " px: " + std::to_string(*g) + " × " + std::to_string(*g) +
                  " visual tokens, the position table interpolated bilinearly");
    return Ok{};
}

// A published KV method; the budget is turned into positions by the run,
// which knows the prefill's length.
Status planKvMethod(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const WhatIfRequest& r = c.request;
    const Method method = *r.inFamily(Family::KvCache);
    const KvMethodKind kind = method == Method::StreamingLlm ? KvMethodKind::StreamingLLM
                              : method == Method::H2O        ? KvMethodKind::H2O
                              : method == Method::SnapKv     ? KvMethodKind::SnapKV
                                                             : KvMethodKind::Kivi;
    if (r.has(Method::KvInt4) || r.inFamily(Family::DecoderDrop))
        return cannotCombine(std::string("--kv-method ") + toString(kind),
                             "manages the KV cache itself",
                             r.has(Method::KvInt4) ? "--kv" : familyFlag(r, Family::DecoderDrop));
    const MethodOptions& o = r.options;
    KvMethod m;
    m.kind = kind;
    m.budget = o.kvBudget;
    m.kivi.bits = o.kiviBits;
    m.kivi.group = o.kiviGroup;
    const std::string budget = fmt("%.3g", o.kvBudget);
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
        parts.add("kivi " + std::to_string(o.kiviBits) + "-bit",
                  "keys per channel, values per token, group " + std::to_string(o.kiviGroup) +
                      ", " + std::to_string(m.kivi.residual) + " recent tokens in full precision");
        break;
    }
    plan.model.kvMethod = m;
    return Ok{};
}

} // namespace mvp::planning
