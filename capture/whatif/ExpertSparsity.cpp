#include "capture/whatif/ExpertSparsity.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace mvp {

Result<std::map<int, double>> skippingThresholds(const std::vector<RoutingRow>& routing) {
    // (layer, phase, step, position) → the weights of rank 0 and rank 1.
    using Key = std::tuple<int, int, int, int>;
    std::map<Key, std::pair<double, double>> tokens;
    for (const auto& r : routing) {
        if (r.rank > 1) continue;
        auto& w = tokens.try_emplace(Key{r.layer, int(r.phase), r.step, r.token}, -1.0, -1.0)
                      .first->second;
        (r.rank == 0 ? w.first : w.second) = r.weight;
    }
    std::map<int, std::vector<double>> ratios;
    for (const auto& [key, w] : tokens)
        if (w.first > 0 && w.second >= 0) ratios[std::get<0>(key)].push_back(w.second / w.first);
    if (ratios.empty())
        return makeError(ErrorCode::BadInput,
                         "expert skipping needs a baseline whose routing chose at least two "
                         "experts per token (top-k ≥ 2)");
    std::map<int, double> beta;
    for (auto& [layer, r] : ratios) {
        const size_t mid = (r.size() - 1) / 2; // the lower middle, as torch.median
        std::nth_element(r.begin(), r.begin() + ptrdiff_t(mid), r.end());
        beta[layer] = r[mid];
    }
    return beta;
}

std::vector<int> skippedRanks(const std::vector<double>& weights, double beta) {
    std::vector<int> out;
    for (size_t r = 1; r < weights.size(); ++r)
        if (weights[r] < beta * weights[0]) out.push_back(int(r));
    return out;
}

std::vector<int> bestExpertSubset(int experts, int keep,
                                  const std::function<double(const std::vector<int>&)>& loss) {
    keep = std::clamp(keep, 0, experts);
    // Lexicographic subsets: a selection mask with `keep` ones first, permuted downwards.
    std::vector<char> take(size_t(experts), 0);
    std::fill(take.begin(), take.begin() + keep, 1);
    std::vector<int> best;
    double bestLoss = std::numeric_limits<double>::infinity();
    do {
        std::vector<int> subset;
        for (int e = 0; e < experts; ++e)
            if (take[size_t(e)]) subset.push_back(e);
        const double l = loss(subset);
        if (l < bestLoss || best.empty()) {
            bestLoss = l;
            best = std::move(subset);
        }
    } while (std::prev_permutation(take.begin(), take.end()));
    return best;
}

} // namespace mvp
