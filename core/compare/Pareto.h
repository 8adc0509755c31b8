#pragma once
// The Pareto front of points that each cost something and lose something
// (e.g. a what-if's latency ratio and its KL to the baseline): the points no
// other point beats on both without losing on either.

#include <cstddef>
#include <utility>
#include <vector>

namespace mvp {

// Indices of the points (cost, loss) not dominated by another — one with
// cost ≤ and loss ≤, one of them strictly less — ordered by cost (ties: by
// loss, then index). Points with a NaN coordinate are never on it.
std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>>& costLoss);

} // namespace mvp
