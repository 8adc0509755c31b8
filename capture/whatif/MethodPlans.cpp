// One planner row per what-if method, beside its catalogue row
// (core/whatif/Methods.cpp): how the method becomes transforms, what a
// sweep's budget becomes, and why a TorchScript model cannot run it.
// mvprof's own methods and the MoE ones are planned here, the published
// token and KV methods in PlanMethods.cpp, budgets in SweepBudgets.cpp.
#include "capture/whatif/ColdExperts.h"
#include "capture/whatif/ExpertSparsity.h"
#include "capture/whatif/PlanParts.h"
#include "core/Format.h"
#include "core/analysis/PatchMetrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace mvp::planning {

namespace {

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

Status planPruning(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const MethodOptions& o = c.request.options;
    const double keep = c.request.value(Method::PruneVisual);
    auto kept = salientPatches(c.base, keep, o.saliency, o.saliencyLayer);
    if (!kept) return kept.error();
    plan.run.keepPatches = kept->first;
    const std::string layerText =
        o.saliencyLayer ? "layer " + std::to_string(*o.saliencyLayer) : std::string("all layers");
    const std::string by = o.saliency == SaliencySource::FeatureNorm ? "visual feature norm"
                           : o.saliency == SaliencySource::Saliency  ? layerText + " saliency"
                                                                     : layerText + " attention";
    parts.add("prune-visual " + fmt("%.2g", keep),
              std::to_string(kept->first.size()) + " of " + std::to_string(kept->second) +
                  " visual tokens, by " + by);
    return Ok{};
}

bool isUserModel(const RunInfo& run) {
    return run.model.rfind("file:", 0) == 0;
}

Status planQuant(const Context& c, WhatIfPlan& plan, Parts& parts) {
    auto& mt = plan.model;
    mt.quantBits = c.request.has(Method::W4) ? 4 : 8;
    mt.quantGroup = c.request.options.quantGroup;
    parts.add("w" + std::to_string(mt.quantBits),
              isUserModel(c.base.run)
                  ? "group " + std::to_string(mt.quantGroup) + ", round-to-nearest"
              : mt.quantBits == 8 ? std::string("AWQ; int8 kernels where libtorch has them")
                                  : "group " + std::to_string(mt.quantGroup) + ", AWQ");
    return Ok{};
}

Status planKvInt4(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const double threshold = c.request.options.kvThreshold;
    plan.model.kv = KvCompression{threshold, true, true};
    parts.add("kv-int4", "merge keys with cosine > " + fmt("%.3g", threshold));
    return Ok{};
}

Status planChannels(const Context& c, WhatIfPlan& plan, Parts& parts) {
    const double fraction = c.request.value(Method::PruneChannels);
    plan.model.pruneChannels = fraction;
    parts.add("prune-channels " + fmt("%.2g", fraction), "vision MLPs, by |W·∂L/∂W|");
    return Ok{};
}

Status needsExperts(const Context& c, const char* what) {
    if (!c.config.llm.moeLayers.empty()) return Ok{};
    return makeError(ErrorCode::BadInput, runName(c.base.run) +
                                              "'s model has no MoE layers: there are no experts "
                                              "to " + what);
}

Status planFreezing(const Context& c, WhatIfPlan& plan, Parts& parts) {
    if (auto s = needsExperts(c, "freeze"); !s) return s;
    const MethodOptions& o = c.request.options;
    const auto cold = planColdExperts(c.base.routing, c.config.llm.experts, c.config.llm.topK,
                                      o.freezeWindow, o.freezeMin);
    if (cold.completeWindows < 2)
        return makeError(ErrorCode::BadInput,
                         "the baseline has " + std::to_string(cold.positions) +
                             " tokens per layer: cold-expert freezing needs two complete windows "
                             "of " +
                             std::to_string(o.freezeWindow) + " (use a smaller --freeze-window)");
    plan.model.freezeCold = true;
    plan.model.frozenExperts = cold.frozen;
    int frozen = 0;
    for (const auto& [layer, experts] : cold.frozen)
        frozen += int(experts.size());
    parts.add("freeze-cold", std::to_string(frozen) + " experts frozen (< " +
                                 std::to_string(o.freezeMin) + " activations in two windows of " +
                                 std::to_string(o.freezeWindow) + ")");
    return Ok{};
}

// Expert_Sparsity's static pruning: the subsets are chosen on the baseline's
// inputs when the model is built.
Status planExpertPruning(const Context& c, WhatIfPlan& plan, Parts& parts) {
    if (auto s = needsExperts(c, "prune"); !s) return s;
    if (c.request.has(Method::FreezeCold))
        return makeError(ErrorCode::BadInput, "--keep-experts and --freeze-cold both take "
                                              "experts offline: choose one");
    const auto& llm = c.config.llm;
    const int keep = int(c.request.value(Method::KeepExperts));
    if (keep < llm.topK || keep >= llm.experts)
        return makeError(ErrorCode::BadInput,
                         "--keep-experts keeps from " + std::to_string(llm.topK) +
                             " (the router's top-k) to " + std::to_string(llm.experts - 1) +
                             " of the model's " + std::to_string(llm.experts) + " experts, not " +
                             std::to_string(keep));
    plan.model.keepExperts = keep;
    parts.add("keep-experts " + std::to_string(keep),
              std::to_string(keep) + " of " + std::to_string(llm.experts) +
                  " experts per MoE layer, the subset closest to the full layer's output on the "
                  "baseline's inputs");
    return Ok{};
}

// Expert_Sparsity's dynamic skipping: β from the baseline's routing.
Status planSkipping(const Context& c, WhatIfPlan& plan, Parts& parts) {
    if (auto s = needsExperts(c, "skip"); !s) return s;
    if (c.config.llm.topK < 2)
        return makeError(ErrorCode::BadInput, "--skip-experts skips a token's lower-ranked "
                                              "experts: the router chooses only one");
    auto beta = skippingThresholds(c.base.routing);
    if (!beta) return beta.error();
    plan.model.skipBeta = std::move(beta.value());
    parts.add("skip-experts", "a lower-ranked expert below β·w₁ is skipped, β each layer's median "
                              "w₂/w₁ over the baseline's tokens");
    return Ok{};
}

// Why a TorchScript user model cannot run a method: the observable or the
// place to act that it needs, which the archive's three methods keep to
// themselves (docs/user-models.md) — and where it runs instead.
constexpr const char* kRewritesLayers =
    " rewrites the built-in reference model's layers; on a TorchScript model only --quant (its "
    "LLM's linear weights, named by the manifest's roles) runs";
constexpr const char* kNoCache =
    " compresses the decoder's KV cache, and a TorchScript forward receives the whole sequence at "
    "every step: there is no cache mvprof can reach";

struct PlannerRow {
    Method method;
    Planner plan;
    BudgetMapping forBudget;      // nullptr: not swept
    const char* userModelRefusal; // after the method's flag; nullptr: it runs there
};

// clang-format off
constexpr std::array<PlannerRow, 18> kPlanners{{
    {Method::PruneVisual, planPruning, budgetPruning, kRewritesLayers},
    {Method::FastV, planTokenDrop, budgetFastV,
     " drops image tokens between decoder layers, and a TorchScript forward does not let mvprof "
     "change its sequence or its attention there (an eager model profiled with the Python package "
     "runs mvprof.FastV, by attention masking)"},
    {Method::PyramidDrop, planTokenDrop, budgetPyramidDrop,
     " drops image tokens between decoder layers, and a TorchScript forward does not let mvprof "
     "change its sequence or its attention there (an eager model profiled with the Python package "
     "runs mvprof.PyramidDrop, by attention masking)"},
    {Method::Dart, planTokenDrop, budgetDart,
     " reads a decoder layer's keys and hidden states and drops image tokens after it, which a "
     "TorchScript forward keeps to itself"},
    {Method::VisionZip, planVisionZip, budgetVisionZip,
     " merges visual tokens by the vision encoder's keys, which a TorchScript model's ops do not "
     "expose as such (an eager model profiled with the Python package runs mvprof.VisionZip, "
     "reading its attention and keys)"},
    {Method::ToMe, planTome, budgetToMe,
     " merges tokens between the vision encoder's blocks and adds log(size) to its attention "
     "scores, which a TorchScript encode_image does not let mvprof change"},
    {Method::Downsample, planDownsample, budgetDownsample,
     " resizes the image and interpolates the vision encoder's position table, which a "
     "TorchScript model keeps to itself"},
    {Method::PruneChannels, planChannels, nullptr, kRewritesLayers},
    {Method::W4, planQuant, nullptr, nullptr},
    {Method::W8, planQuant, nullptr, nullptr},
    {Method::KvInt4, planKvInt4, nullptr, kNoCache},
    {Method::StreamingLlm, planKvMethod, budgetKvFraction, kNoCache},
    {Method::H2O, planKvMethod, budgetKvFraction, kNoCache},
    {Method::SnapKv, planKvMethod, budgetKvFraction, kNoCache},
    {Method::Kivi, planKvMethod, nullptr, kNoCache},
    {Method::FreezeCold, planFreezing, nullptr, kRewritesLayers},
    {Method::SkipExperts, planSkipping, nullptr, kRewritesLayers},
    {Method::KeepExperts, planExpertPruning, nullptr, kRewritesLayers},
}};
// clang-format on

constexpr bool inCatalogueOrder() {
    for (size_t i = 0; i < kPlanners.size(); ++i)
        if (static_cast<size_t>(kPlanners[i].method) != i) return false;
    return kPlanners.size() == static_cast<size_t>(Method::KeepExperts) + 1;
}
static_assert(inCatalogueOrder(), "a planner row for every method, in Method's order");

} // namespace

Planner plannerOf(Method m) {
    return kPlanners[static_cast<size_t>(m)].plan;
}

BudgetMapping budgetMappingOf(Method m) {
    return kPlanners[static_cast<size_t>(m)].forBudget;
}

std::optional<std::string> userModelRefusal(Method m) {
    const char* why = kPlanners[static_cast<size_t>(m)].userModelRefusal;
    if (!why) return std::nullopt;
    return methodFlag(m) + why;
}

} // namespace mvp::planning
