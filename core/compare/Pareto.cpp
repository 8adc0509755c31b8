#include "core/compare/Pareto.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mvp {

std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>>& p) {
    std::vector<size_t> order;
    for (size_t i = 0; i < p.size(); ++i)
        if (!std::isnan(p[i].first) && !std::isnan(p[i].second)) order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return p[a] != p[b] ? p[a] < p[b] : a < b; });
    // By rising cost, a point is on the front when its loss is below every
    // cheaper point's (an equal twin is dominated by neither, so both stay).
    std::vector<size_t> front;
    double best = INFINITY;
    for (const size_t i : order) {
        const bool twin = !front.empty() && p[front.back()] == p[i];
        if (p[i].second < best || twin) {
            front.push_back(i);
            best = std::min(best, p[i].second);
        }
    }
    return front;
}

} // namespace mvp
