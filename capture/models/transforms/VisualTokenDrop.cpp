#include "capture/models/transforms/VisualTokenDrop.h"

#include "capture/models/transforms/TensorVectors.h"
#include "core/Format.h"

#include <cmath>

namespace mvp {

namespace {
// PyramidDrop's score (pdrop_rank_drop): the layer's input norm, the last
// row's query and every row's key with RoPE at the rows' positions, softmax
// over the whole sequence (the last row sees every row), mean over heads;
// the image rows' part. Only the last row's query is computed: the others
// are discarded by the method.
torch::Tensor ownLayerScores(DecoderLayerImpl& layer, const torch::Tensor& x,
                             const torch::Tensor& positions, const Rope& rope, int64_t imageStart,
                             int64_t imageRows) {
    AttentionImpl& a = *layer.attn;
    const int64_t t = x.size(0);
    auto h = layer.norm1(x);
    auto q = rope.apply(a.wq(h.narrow(0, t - 1, 1)).view({1, a.heads, a.headDim}),
                        positions.narrow(0, t - 1, 1));
    auto k = rope.apply(a.wk(h).view({t, a.kvHeads, a.headDim}), positions);
    auto keys = k.repeat_interleave(a.heads / a.kvHeads, 1).transpose(0, 1); // [H, T, hd]
    auto scores = torch::matmul(q.transpose(0, 1), keys.transpose(1, 2)) /
                  std::sqrt(double(a.headDim)); // [H, 1, T]
    return torch::softmax(scores, -1).mean(0).squeeze(0).narrow(0, imageStart, imageRows);
}
// DART's selection (dart.py): pivots by the previous layer's keys' L1 norm
// (over every KV head; llmc repeats them per query head, which scales every
// norm alike), similarity on the final norm of this layer's input. Returns
// the rows kept: every non-image row and the chosen image rows.
std::vector<int64_t> dartRows(VlmModel::Impl& m, const TokenDrop& drop, const torch::Tensor& x,
                              const torch::Tensor& keys, int64_t imageStart, int64_t imageRows) {
    const int64_t t = x.size(0), textStart = imageStart + imageRows;
    const auto l1 = keys.abs().sum(at::IntArrayRef{1, 2});
    const auto states = m.finalNorm(x);
    const auto kept = dartKeep(toDoubles(l1.narrow(0, imageStart, imageRows)),
                               toDoubles(l1.narrow(0, textStart, t - textStart)),
                               toDoubleRows(states.narrow(0, imageStart, imageRows)),
                               toDoubleRows(states.narrow(0, textStart, t - textStart)), drop);
    std::vector<int64_t> rows;
    for (int64_t i = 0; i < imageStart; ++i)
        rows.push_back(i);
    for (const int64_t i : kept)
        rows.push_back(imageStart + i);
    for (int64_t i = textStart; i < t; ++i)
        rows.push_back(i);
    return rows;
}
} // namespace

torch::Tensor forwardDroppingVisual(VlmModel::Impl& m, torch::Tensor x, int64_t visualAt,
                                    int64_t visual, const ForwardHooks& hooks) {
    const TokenDrop& drop = *m.tokenDrop;
    m.keptVisual.clear();
    LayerPass pass;
    // Positions live on the model's device (RoPE's tables and the cache's
    // bookkeeping are there); what the run reports is read on the host.
    const auto positions = x.options().dtype(torch::kLong);
    pass.sequencePositions = torch::arange(x.size(0), positions);
    pass.ropePositions = pass.sequencePositions;
    torch::Tensor previousAttention; // FastV: layer K − 1's last-row attention
    torch::Tensor previousKeys;      // DART: layer K − 1's keys
    int64_t imageRows = visual;
    size_t next = 0; // the next stage
    for (size_t i = 0; i < m.layers.size(); ++i) {
        DecoderLayerImpl& layer = *m.layers[i];
        if (next < drop.stages.size() && drop.stages[next].layer == int(i)) {
            std::vector<int64_t> rows;
            if (drop.method == TokenDropMethod::Dart) {
                rows = dartRows(m, drop, x, previousKeys, visualAt, imageRows);
            } else {
                const torch::Tensor scores =
                    drop.scoresWithOwnLayer()
                        ? ownLayerScores(layer, x, pass.ropePositions, *m.rope, visualAt, imageRows)
                        : previousAttention.narrow(0, visualAt, imageRows);
                rows = keptRows(toDoubles(scores), visualAt, x.size(0), drop.stages[next].keep);
            }
            const auto index = torch::tensor(rows, torch::kLong).to(x.device());
            x = x.index_select(0, index);
            pass.sequencePositions = pass.sequencePositions.index_select(0, index);
            pass.ropePositions = drop.renumbersPositions() ? torch::arange(x.size(0), positions)
                                                           : pass.sequencePositions;
            imageRows = drop.stages[next].keep;
            const auto kept =
                (pass.sequencePositions.narrow(0, visualAt, imageRows) - visualAt).to(torch::kCPU);
            m.keptVisual.emplace_back(kept.data_ptr<int64_t>(),
                                      kept.data_ptr<int64_t>() + imageRows);
            ++next;
        }
        const bool nextCutReadsThis = next < drop.stages.size() && !drop.scoresWithOwnLayer() &&
                                      drop.stages[next].layer == int(i) + 1;
        const bool dart = drop.method == TokenDropMethod::Dart;
        pass.lastQueryAttention = nextCutReadsThis && !dart ? &previousAttention : nullptr;
        pass.keys = nextCutReadsThis && dart ? &previousKeys : nullptr;
        x = layer.forward(x, 0, *m.rope, int(i), hooks, &pass);
    }
    return x;
}

namespace {
// FastV's C(n) over this model's layers: n its tokens there, m its FFN width.
double formulaRatio(const VlmConfig& cfg, const TokenDrop& drop, int64_t prefillPositions) {
    const int64_t text = prefillPositions - drop.visual;
    const auto perLayer = visualTokensPerLayer(drop, cfg.llm.layers);
    std::vector<FastVCostLayer> dropped, full;
    for (int l = 0; l < cfg.llm.layers; ++l) {
        const int64_t m =
            cfg.llm.isMoe(l) ? int64_t(cfg.llm.topK) * cfg.llm.expertFfn : cfg.llm.ffn;
        dropped.push_back({text + perLayer[size_t(l)], m});
        full.push_back({prefillPositions, m});
    }
    return fastVCostRatio(dropped, full, cfg.llm.dim);
}
} // namespace

Batch tokenDropRows(const VlmModel::Impl& m, const std::vector<int>& patchOf,
                    int64_t prefillPositions) {
    Batch b;
    if (!m.tokenDrop) return b;
    const TokenDrop& drop = *m.tokenDrop;
    const int layers = m.cfg.llm.layers;
    const std::string method = toString(drop.method);
    for (size_t s = 0; s < drop.stages.size() && s < m.keptVisual.size(); ++s)
        b.runMetrics.push_back({"tokens.kept.layer_" + std::to_string(drop.stages[s].layer),
                                double(m.keptVisual[s].size()), "count", "measured",
                                "image tokens " + method + " kept before decoder layer " +
                                    std::to_string(drop.stages[s].layer) + ", of " +
                                    std::to_string(drop.visual)});
    // The budget as this run really held it: each stage's kept count from its layer on.
    TokenDrop asRun = drop;
    for (size_t s = 0; s < asRun.stages.size(); ++s)
        asRun.stages[s].keep =
            s < m.keptVisual.size() ? int64_t(m.keptVisual[s].size()) : drop.visual;
    b.runMetrics.push_back(
        {"tokens.layer_averaged", layerAveragedVisualTokens(asRun, layers), "count", "measured",
         "image tokens the decoder layers received, averaged over its " + std::to_string(layers) +
             " layers: the budget in-LLM methods' papers quote"});
    b.runMetrics.push_back(
        {"flops.fastv_formula_ratio", formulaRatio(m.cfg, drop, prefillPositions), "ratio",
         "predicted",
         "prefill FLOPs ÷ the baseline's by FastV's C(n) = 4nd² + 2n²d + 2ndm per layer (m: FFN "
         "width, k × expert width in MoE layers); it assumes full multi-head attention and a "
         "two-matrix FFN, this model has grouped-query attention (" +
             std::to_string(m.cfg.llm.kvHeads) + " K/V heads of " +
             std::to_string(m.cfg.llm.heads) + ") and gated three-matrix FFNs"});
    // Layer l's input holds what the last cut at or before l kept.
    std::vector<char> held(patchOf.size(), 1);
    size_t next = 0;
    for (int l = 0; l < layers; ++l) {
        if (next < drop.stages.size() && next < m.keptVisual.size() &&
            drop.stages[next].layer == l) {
            std::fill(held.begin(), held.end(), 0);
            for (const int64_t i : m.keptVisual[next])
                if (i >= 0 && size_t(i) < held.size()) held[size_t(i)] = 1;
            ++next;
        }
        for (size_t i = 0; i < patchOf.size(); ++i)
            b.patchMetrics.push_back(PatchMetricRow{l, "tokens.kept", patchOf[i], double(held[i])});
    }
    return b;
}

} // namespace mvp
