#pragma once
// Which experts a cold-expert freeze takes offline (docs/diagnostics.md §9),
// decided from a baseline's routing. Plain C++.

#include "core/session/Records.h"

#include <map>
#include <vector>

namespace mvp {

struct ColdExpertPlan {
    int window = 128, minActivations = 3;
    int positions = 0;                      // tokens per layer in the baseline
    int completeWindows = 0;                // checks made: only full windows count
    std::map<int, std::vector<int>> frozen; // MoE layer → experts, ascending
    std::map<int, std::vector<std::vector<int>>>
        activations;                             // MoE layer → window → per-expert count
    std::map<int, std::vector<int>> keptForTopK; // cold experts kept active so top-k stays possible
};

// Over consecutive windows of `window` tokens (in position order), an expert
// with fewer than `minActivations` activations in two consecutive windows is
// frozen. At least `topK` experts stay active per layer: when more would
// freeze, the most used of them stay.
ColdExpertPlan planColdExperts(const std::vector<RoutingRow>& routing, int experts, int topK,
                               int window = 128, int minActivations = 3);

} // namespace mvp
