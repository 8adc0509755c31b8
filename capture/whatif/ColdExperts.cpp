#include "capture/whatif/ColdExperts.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace mvp {

ColdExpertPlan planColdExperts(const std::vector<RoutingRow>& routing, int experts, int topK,
                               int window, int minActivations) {
    ColdExpertPlan plan;
    plan.window = window;
    plan.minActivations = minActivations;
    std::map<int, std::set<int>> positionsByLayer;
    for (const auto& r : routing)
        positionsByLayer[r.layer].insert(r.token);
    for (const auto& [layer, positions] : positionsByLayer)
        plan.positions = std::max(plan.positions, int(positions.size()));
    if (window <= 0) return plan;
    plan.completeWindows = plan.positions / window;
    for (const auto& [layer, positions] : positionsByLayer) {
        // A token's index in its layer's stream decides its window.
        std::map<int, int> indexOf;
        int i = 0;
        for (int p : positions)
            indexOf[p] = i++;
        auto& counts = plan.activations[layer];
        counts.assign(size_t(plan.completeWindows), std::vector<int>(size_t(experts), 0));
        std::vector<int> total(size_t(experts), 0);
        for (const auto& r : routing) {
            if (r.layer != layer || r.expert < 0 || r.expert >= experts) continue;
            total[size_t(r.expert)] += 1;
            const int w = indexOf[r.token] / window;
            if (w < plan.completeWindows) counts[size_t(w)][size_t(r.expert)] += 1;
        }
        std::vector<int> cold;
        for (int e = 0; e < experts; ++e)
            for (int w = 1; w < plan.completeWindows; ++w)
                if (counts[size_t(w - 1)][size_t(e)] < minActivations &&
                    counts[size_t(w)][size_t(e)] < minActivations) {
                    cold.push_back(e);
                    break;
                }
        // Keep enough experts for top-k routing: the most used cold ones stay.
        const int mayFreeze = std::max(0, experts - topK);
        if (int(cold.size()) > mayFreeze) {
            std::stable_sort(cold.begin(), cold.end(),
                             [&](int a, int b) { return total[size_t(a)] > total[size_t(b)]; });
            auto& kept = plan.keptForTopK[layer];
            kept.assign(cold.begin(), cold.begin() + (int(cold.size()) - mayFreeze));
            std::sort(kept.begin(), kept.end());
            cold.erase(cold.begin(), cold.begin() + (int(cold.size()) - mayFreeze));
        }
        std::sort(cold.begin(), cold.end());
        if (!cold.empty()) plan.frozen[layer] = cold;
    }
    return plan;
}

} // namespace mvp
