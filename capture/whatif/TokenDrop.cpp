#include "capture/whatif/TokenDrop.h"

#include "capture/whatif/KvPolicies.h"
#include "core/Format.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mvp {

const char* toString(TokenDropMethod m) {
    return m == TokenDropMethod::FastV ? "fastv" : m == TokenDropMethod::Dart ? "dart" : "pdrop";
}

Result<TokenDrop> planFastV(int layers, int64_t visual, int k, double r) {
    if (layers < 2)
        return makeError(ErrorCode::BadInput,
                         "FastV cuts between decoder layers: it needs at least 2, the model has " +
                             std::to_string(layers));
    if (k < 1 || k >= layers)
        return makeError(ErrorCode::BadInput,
                         "FastV's layer K must be from 1 to " + std::to_string(layers - 1) +
                             " (the model has " + std::to_string(layers) +
                             " decoder layers; K − 1's attention ranks the image tokens), not " +
                             std::to_string(k));
    if (!(r >= 0 && r < 1))
        return makeError(
            ErrorCode::BadInput,
            "FastV's R (the fraction of image tokens dropped) must be in [0, 1), not " +
                fmt("%g", r));
    TokenDrop d;
    d.method = TokenDropMethod::FastV;
    d.visual = visual;
    d.parameter = r;
    // Python's round() (half to even) of N·(1 − R): nearbyint in the
    // default rounding mode.
    d.stages.push_back({k, int64_t(std::nearbyint(double(visual) * (1.0 - r)))});
    return d;
}

Result<TokenDrop> planDart(int layers, int64_t visual, int k, int64_t maxTokens) {
    if (k < 1 || k >= layers)
        return makeError(ErrorCode::BadInput, "DART's layer must be from 1 to " +
                                                  std::to_string(layers - 1) + ", not " +
                                                  std::to_string(k));
    TokenDrop d;
    d.method = TokenDropMethod::Dart;
    d.visual = visual;
    d.parameter = double(maxTokens);
    d.perPivot = maxTokens / (d.pivotsImage + d.pivotsText);
    const int64_t keep = d.pivotsImage + (d.pivotsImage + d.pivotsText) * d.perPivot;
    if (d.perPivot < 1 || keep > visual)
        return makeError(ErrorCode::BadInput,
                         "DART keeps 4 + 8 · floor(N / 8) image tokens: N from 8 to " +
                             std::to_string((visual - 4) / 8 * 8) + " on this model's " +
                             std::to_string(visual) + ", not " + std::to_string(maxTokens));
    d.stages.push_back({k, keep});
    return d;
}

namespace {
double cosine(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        d += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    // torch's cosine_similarity: the norms clamped below by 1e-8.
    return d / (std::max(std::sqrt(na), 1e-8) * std::max(std::sqrt(nb), 1e-8));
}
} // namespace

std::vector<int64_t> dartKeep(const std::vector<double>& imageKeyL1,
                              const std::vector<double>& textKeyL1,
                              const std::vector<std::vector<double>>& imageStates,
                              const std::vector<std::vector<double>>& textStates,
                              const TokenDrop& drop) {
    const auto n = int64_t(imageKeyL1.size());
    const auto imagePivots = kv::topIndices(imageKeyL1, drop.pivotsImage);
    const auto textPivots = kv::topIndices(textKeyL1, drop.pivotsText);
    std::vector<char> kept(size_t(n), 0), candidate(size_t(n), 1);
    for (const int64_t p : imagePivots)
        kept[size_t(p)] = 1, candidate[size_t(p)] = 0;
    // The pivots in ascending position: the image's, then the text after it.
    std::vector<const std::vector<double>*> pivots;
    for (const int64_t p : imagePivots)
        pivots.push_back(&imageStates[size_t(p)]);
    for (const int64_t p : textPivots)
        pivots.push_back(&textStates[size_t(p)]);
    for (const auto* pivot : pivots) {
        std::vector<int64_t> pool;
        std::vector<double> dissimilarity;
        for (int64_t i = 0; i < n; ++i)
            if (candidate[size_t(i)]) {
                pool.push_back(i);
                dissimilarity.push_back(-cosine(*pivot, imageStates[size_t(i)]));
            }
        for (const int64_t j : kv::topIndices(dissimilarity, drop.perPivot))
            kept[size_t(pool[size_t(j)])] = 1, candidate[size_t(pool[size_t(j)])] = 0;
    }
    std::vector<int64_t> out;
    for (int64_t i = 0; i < n; ++i)
        if (kept[size_t(i)]) out.push_back(i);
    return out;
}

Result<TokenDrop> planPyramidDrop(int layers, int64_t visual, double lambda) {
    if (layers < 4)
        return makeError(ErrorCode::BadInput,
                         "PyramidDrop cuts before layers L/4, L/2 and 3L/4: it needs at least 4 "
                         "decoder layers, the model has " +
                             std::to_string(layers));
    if (!(lambda > 0 && lambda <= 1))
        return makeError(ErrorCode::BadInput,
                         "PyramidDrop's λ (the fraction kept at each stage) must be in (0, 1], "
                         "not " +
                             fmt("%g", lambda));
    TokenDrop d;
    d.method = TokenDropMethod::PyramidDrop;
    d.visual = visual;
    d.parameter = lambda;
    // LLaVA's layer_list [8, 16, 24] of 32 layers, scaled to the depth; the
    // ratio list [λ, λ², λ³] of N, truncated as int() does.
    for (int s = 1; s <= 3; ++s)
        d.stages.push_back({s * layers / 4, int64_t(double(visual) * std::pow(lambda, s))});
    return d;
}

std::vector<int64_t> visualTokensPerLayer(const TokenDrop& d, int layers) {
    std::vector<int64_t> out(size_t(std::max(0, layers)), d.visual);
    for (const auto& s : d.stages)
        for (int l = s.layer; l < layers; ++l)
            out[size_t(l)] = s.keep;
    return out;
}

double layerAveragedVisualTokens(const TokenDrop& d, int layers) {
    const auto per = visualTokensPerLayer(d, layers);
    if (per.empty()) return 0;
    return double(std::accumulate(per.begin(), per.end(), int64_t(0))) / double(per.size());
}

std::vector<int64_t> keptRows(const std::vector<double>& imageScores, int64_t imageStart,
                              int64_t rows, int64_t keep) {
    const auto n = int64_t(imageScores.size());
    const auto order = kv::topIndices(imageScores, keep);
    std::vector<int64_t> out;
    out.reserve(size_t(rows - n) + order.size());
    for (int64_t r = 0; r < imageStart; ++r)
        out.push_back(r);
    for (const int64_t i : order)
        out.push_back(imageStart + i);
    for (int64_t r = imageStart + n; r < rows; ++r)
        out.push_back(r);
    return out;
}

double fastVCostRatio(const std::vector<FastVCostLayer>& dropped,
                      const std::vector<FastVCostLayer>& full, int64_t dim) {
    const auto cost = [dim](const std::vector<FastVCostLayer>& layers) {
        const double d = double(dim);
        double sum = 0;
        for (const auto& l : layers) {
            const double n = double(l.tokens), m = double(l.ffnWidth);
            sum += 4 * n * d * d + 2 * n * n * d + 2 * n * d * m;
        }
        return sum;
    };
    const double whole = cost(full);
    return whole > 0 ? cost(dropped) / whole : 0;
}

namespace {
Status budgetWithin(int64_t visual, double budget) {
    if (budget > 0 && budget <= double(visual)) return Ok{};
    return makeError(ErrorCode::BadInput, "a budget of " + fmt("%g", budget) +
                                              " tokens is not in (0, " + std::to_string(visual) +
                                              "], the image tokens the decoder receives");
}
} // namespace

Result<double> fastVRatioForBudget(int layers, int64_t visual, int k, double budget) {
    if (auto s = budgetWithin(visual, budget); !s) return s.error();
    if (k < 1 || k >= layers)
        return makeError(ErrorCode::BadInput,
                         "FastV's layer K must be from 1 to " + std::to_string(layers - 1));
    const double keep =
        std::nearbyint((budget * layers - double(k) * double(visual)) / double(layers - k));
    if (keep < 0)
        return makeError(ErrorCode::BadInput,
                         "FastV with K = " + std::to_string(k) + " cannot average " +
                             fmt("%g", budget) + " image tokens over " + std::to_string(layers) +
                             " layers: its first K layers alone hold " +
                             fmt("%.1f", double(k) * double(visual) / layers) + " on average");
    return 1.0 - keep / double(visual);
}

Result<double> pyramidDropLambdaForBudget(int layers, int64_t visual, double budget) {
    if (auto s = budgetWithin(visual, budget); !s) return s.error();
    if (layers < 4) return planPyramidDrop(layers, visual, 1.0).error();
    const auto average = [&](double lambda) {
        return layerAveragedVisualTokens(*planPyramidDrop(layers, visual, lambda), layers);
    };
    const double least = double(layers / 4) * double(visual) / layers; // before the first cut
    if (budget < least - 0.5)
        return makeError(ErrorCode::BadInput,
                         "PyramidDrop cannot average " + fmt("%g", budget) + " image tokens over " +
                             std::to_string(layers) +
                             " layers: the layers before its first cut alone hold " +
                             fmt("%.1f", least) + " on average");
    double lo = 1e-9, hi = 1.0;
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        (average(mid) < budget ? lo : hi) = mid;
    }
    // The count is a step function of λ: the nearer of the two ends.
    return std::abs(average(lo) - budget) < std::abs(average(hi) - budget) ? lo : hi;
}

Result<double> keepFractionForBudget(int64_t visual, double budget) {
    if (auto s = budgetWithin(visual, budget); !s) return s.error();
    return budget / double(visual);
}

} // namespace mvp
