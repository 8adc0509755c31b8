#pragma once
// The MoE methods of "Not All Experts are Equal" (Lu et al., ACL 2024;
// Lucky-Lance/Expert_Sparsity, model/wrapper.py; docs/whatif-methods.md §4), on
// plain numbers so a test can work them by hand. Plain C++.
//
// Dynamic skipping: a token's lower-ranked expert is skipped when its router
// weight w_r < β·w₁ (w₁ the top-1 weight); its weight becomes 0 and the rest
// are renormalised (top-1 alone then has weight 1). β is each layer's median
// of w₂/w₁ over a calibration pass — here the baseline's own tokens, whose
// routing the session stored. The paper's Mixtral is top-2; with k > 2 every
// rank below the top-1 is tested against β·w₁ the same way.
// Static pruning: per layer, of the C(E, r) subsets of r experts the one whose
// MoE output on the calibration inputs is closest (squared error) to the
// full layer's; the router then chooses among those r only.

#include "core/Result.h"
#include "core/session/Records.h"

#include <functional>
#include <map>
#include <vector>

namespace mvp {

// Per MoE layer, β: the median of w₂/w₁ over the layer's tokens (each
// (phase, step, position) with a rank-0 and a rank-1 row); for an even count
// the lower of the two middle values, as torch.median gives.
Result<std::map<int, double>> skippingThresholds(const std::vector<RoutingRow>& routing);

// The ranks (≥ 1) of a token's top-k weights (descending, renormalised or
// not: the test is a ratio) that skipping drops.
std::vector<int> skippedRanks(const std::vector<double>& weights, double beta);

// The subset of `keep` of `experts` experts (ascending) with the least
// `loss`, trying every subset in lexicographic order; ties keep the earlier.
std::vector<int> bestExpertSubset(int experts, int keep,
                                  const std::function<double(const std::vector<int>&)>& loss);

} // namespace mvp
