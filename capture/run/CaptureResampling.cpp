// One unrecorded pass that observes the visual tokens as the decoder holds
// them (docs/diagnostics.md §7): per layer, the value vectors the cache gives
// attention after the prefill (a merged INT4 cache's reconstruction, mapped
// back to each token) and each decode step's attention over the patches.
// The what-if command runs it on both arms and compares (core/analysis/Kv.h).
#include "capture/models/Vlm.h"
#include "capture/models/VlmLayers.h"
#include "capture/run/Capture.h"
#include "capture/run/CapturerImpl.h"

#include <ATen/record_function.h>

namespace mvp {

namespace {
// Per position: the value vector attention reads, [positions, kvHeads·headDim].
torch::Tensor valuesByPosition(const KvCache& c, int positions) {
    torch::Tensor slotsV =
        c.int4 ? dequantiseGroups(
                     GroupCodes{c.qv.packed.narrow(0, 0, c.slots), c.qv.scale.narrow(0, 0, c.slots),
                                c.qv.low.narrow(0, 0, c.slots), c.qv.bits, c.qv.group, c.qv.n})
               : c.v.narrow(0, 0, c.slots).to(torch::kFloat);
    auto byPosition = c.compressed()
                          ? slotsV.index_select(0, c.slotOfPosition.narrow(0, 0, positions))
                          : slotsV.narrow(0, 0, positions);
    return byPosition.reshape({positions, -1}).contiguous();
}

// Attention of T queries over positions, mean over heads: [T, positions].
torch::Tensor attentionByPosition(const torch::Tensor& slotProbs, const KvCache& cache) {
    const auto p = slotProbs.to(torch::kFloat);
    if (!cache.compressed()) return p.mean(0);
    return (p.index_select(2, cache.slotOfPosition) /
            cache.logCount.index_select(0, cache.slotOfPosition).exp())
        .mean(0);
}
} // namespace

Result<VisualTokenObservation> Capturer::observeVisualTokens(const RunTransform& transform) {
    if (d->scripted)
        return makeError(ErrorCode::BadInput,
                         "observing the visual tokens' cache needs the built-in reference model");
    const auto& cfg = d->prep.config;
    const std::vector<int> seen = visiblePatches(cfg, transform.keepPatches);
    const int patches = int(seen.size()), firstPatch = 1, grid = cfg.vision.patches();
    VisualTokenObservation obs;
    obs.gridPatches = grid;
    obs.dim = cfg.llm.kvHeads * cfg.llm.headDim();
    obs.layers.resize(size_t(cfg.llm.layers));
    ForwardHooks hooks;
    bool decoding = false;
    hooks.attention = [&](int layer, const torch::Tensor& probs, int, const KvCache& cache) {
        if (!decoding) return;
        at::RecordFunctionGuard off(false);
        auto byPos = attentionByPosition(probs, cache).narrow(1, firstPatch, patches);
        auto a = byPos.to(torch::kCPU, torch::kDouble).contiguous(); // one copy off a GPU
        for (int64_t q = 0; q < a.size(0); ++q) {
            std::vector<double> row(size_t(grid), 0.0);
            for (int i = 0; i < patches; ++i)
                row[size_t(seen[size_t(i)])] = a[q][i].item<double>();
            obs.layers[size_t(layer)].attention.push_back(std::move(row));
        }
    };
    try {
        c10::InferenceMode inference;
        VlmModel& model = *d->model;
        auto visual = model.project(model.encodeImage(modelPixels(d->prep), {}), {});
        if (patches != visual.size(0)) {
            std::vector<int64_t> keep(seen.begin(), seen.end());
            visual = visual.index_select(0, torch::tensor(keep, torch::kLong).to(visual.device()));
        }
        model.reset();
        std::vector<int> ids{tokens::kBos};
        ids.insert(ids.end(), d->prep.promptIds.begin(), d->prep.promptIds.end());
        auto logits = model.forward(ids, visual, 1, hooks);
        const int positions = model.cachedPositions();
        for (int l = 0; l < cfg.llm.layers; ++l) {
            auto v = valuesByPosition(model.impl().layers[size_t(l)]->attn->cache, positions)
                         .narrow(0, firstPatch, patches)
                         .to(torch::kCPU, torch::kFloat)
                         .contiguous();
            auto& layer = obs.layers[size_t(l)];
            layer.patches = seen;
            layer.values.assign(v.data_ptr<float>(), v.data_ptr<float>() + v.numel());
        }
        decoding = true;
        for (int step = 1; step <= d->prep.options.steps; ++step)
            logits =
                model.forward({int(logits.argmax().item<int64_t>())}, torch::Tensor(), 0, hooks);
        model.reset();
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal,
                         std::string("observing the visual tokens failed: ") + e.what());
    }
    return obs;
}

} // namespace mvp
