#pragma once
// The published methods that drop visual tokens inside the decoder
// (docs/whatif-methods.md §1): which layers cut, how many image
// tokens each keeps, how the kept ones are chosen from a score, and the
// papers' own budget and FLOPs conventions — on plain numbers, so a test can
// work every case by hand. Plain C++; the model applies a plan in
// capture/models/transforms/VisualTokenDrop.cpp.
//
// FastV (Chen et al., ECCV 2024; pkunlp-icler/FastV, LlamaModel.forward):
// before layer K, the image tokens are ranked by the attention the last
// token gave them in layer K − 1, averaged over heads; the top
// round((1 − R)·N) stay for every deeper layer, each at its own position
// (position_ids = keep_indexs).
// PyramidDrop (Xing et al., CVPR 2025; Cooperx521/PyramidDrop,
// modeling_llama_pdrop.py, pdrop_rank_drop): before layers L/4, L/2, 3L/4
// (8, 16, 24 of LLaVA's 32), the image tokens are ranked by the last
// instruction token's attention computed with that layer's own queries and
// keys (its input norm, RoPE, softmax over the whole sequence, mean over
// heads); int(N·λ^s) stay after stage s, and the kept sequence is numbered
// anew (position_ids = arange).

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

enum class TokenDropMethod { FastV, PyramidDrop, Dart };
const char* toString(TokenDropMethod m);

// Before decoder layer `layer`, the image tokens still held are cut to `keep`.
struct DropStage {
    int layer = 0;
    int64_t keep = 0;
};

struct TokenDrop {
    TokenDropMethod method = TokenDropMethod::FastV;
    int64_t visual = 0;            // image tokens the decoder receives
    std::vector<DropStage> stages; // ascending layers, keep never growing
    double parameter = 0;          // FastV's R, PyramidDrop's λ, DART's token cap (for labels)
    // DART: pivots among the image tokens and the text after them, and the
    // image tokens each pivot adds.
    int pivotsImage = 4, pivotsText = 4;
    int64_t perPivot = 0;

    // FastV scores with the previous layer's attention, PyramidDrop with the
    // stage layer's own queries and keys.
    bool scoresWithOwnLayer() const { return method == TokenDropMethod::PyramidDrop; }
    // PyramidDrop renumbers the kept sequence's positions; FastV keeps them.
    bool renumbersPositions() const { return method == TokenDropMethod::PyramidDrop; }
};

// FastV with K (1 ≤ K < layers: the scores are layer K − 1's attention) and
// R ∈ [0, 1). round() is Python's, half to even, as in the paper's code.
Result<TokenDrop> planFastV(int layers, int64_t visual, int k, double r);
// PyramidDrop with λ ∈ (0, 1] over `layers` ≥ 4 decoder layers.
Result<TokenDrop> planPyramidDrop(int layers, int64_t visual, double lambda);
// DART (Wen et al., EMNLP 2025; its llmc port, token_reduction/dart.py):
// before decoder layer k (the paper's 2), keep the image pivots plus, for
// each of the 4 + 4 pivots, floor(maxTokens / 8) image tokens — 4 + 8 ·
// floor(maxTokens / 8) in all (132 for its "128").
Result<TokenDrop> planDart(int layers, int64_t visual, int k, int64_t maxTokens);

// DART's kept image tokens (get_retained_image_token): the pivots are the
// `pivotsImage` image tokens and the `pivotsText` tokens after the image with
// the largest key L1 norms (ties: the earlier); for each pivot in ascending
// position (llmc iterates a Python set), the `perPivot` remaining image
// tokens least cosine-similar to it (their normed hidden states; ties: the
// earlier) join and stop being candidates. The image pivots stay, the text
// pivots do not. Returns indices into the image tokens, ascending.
std::vector<int64_t> dartKeep(const std::vector<double>& imageKeyL1,
                              const std::vector<double>& textKeyL1,
                              const std::vector<std::vector<double>>& imageStates,
                              const std::vector<std::vector<double>>& textStates,
                              const TokenDrop& drop);

// The image tokens each of the `layers` decoder layers receives.
std::vector<int64_t> visualTokensPerLayer(const TokenDrop& d, int layers);
// Their mean over the layers: the budget the in-LLM methods' papers quote
// (SparseVLM's "192" is (2·576 + 4·300 + 10·200 + 16·110) / 32).
double layerAveragedVisualTokens(const TokenDrop& d, int layers);

// The rows that go on after a cut: every row outside the image block
// [imageStart, imageStart + scores.size()) and the `keep` image rows with the
// largest scores (ties: the earlier row), ascending — FastV's keep_indexs,
// sorted. `rows` is the sequence's length now.
std::vector<int64_t> keptRows(const std::vector<double>& imageScores, int64_t imageStart,
                              int64_t rows, int64_t keep);

// The papers' token budgets (docs/whatif-methods.md §0) turned into each
// method's parameter: in-LLM methods quote the layer-averaged count,
// pre-LLM ones the tokens sent. FastV with K: keep = (budget·L − K·N) /
// (L − K), rounded, as R = 1 − keep / N; PyramidDrop: the λ whose
// layer-averaged count is nearest the budget (bisection; the count grows
// with λ); pre-LLM pruning: keep = budget / N. A budget the method cannot
// reach (above N, or below what FastV's first K layers already hold) is an
// error saying so.
Result<double> fastVRatioForBudget(int layers, int64_t visual, int k, double budget);
Result<double> pyramidDropLambdaForBudget(int layers, int64_t visual, double budget);
Result<double> keepFractionForBudget(int64_t visual, double budget);

// FastV's per-layer cost (§4.2), C(n) = 4nd² + 2n²d + 2ndm multiply-
// accumulates, summed over the layers with n each layer's tokens (text +
// image) and m its FFN width (k × the expert width for MoE layers); the
// ratio of a plan's sum to the full sequence's. It assumes full multi-head
// attention (no grouped K/V) and a two-matrix FFN (no gate).
struct FastVCostLayer {
    int64_t tokens = 0, ffnWidth = 0;
};
double fastVCostRatio(const std::vector<FastVCostLayer>& dropped,
                      const std::vector<FastVCostLayer>& full, int64_t dim);

} // namespace mvp
