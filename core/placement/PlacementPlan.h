#pragma once
// An EPLB placement (Eplb.h) for load a session holds, with what it predicts:
// each GPU's load and each layer's balancedness before (SGLang's trivial
// placement) and after. Balancedness here is EPLB's and vLLM's post-2026-04
// definition: per layer, the mean over GPUs of their load ÷ the largest
// (1 = even); summaries go over layers as the worst, the median and the
// best, never a mean that would hide the worst layer (docs/placement.md).

#include "core/Phase.h"
#include "core/Result.h"
#include "core/placement/Eplb.h"
#include "core/session/Records.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

// Which routing rows count: a phase, a modality, or all.
struct LoadFilter {
    std::optional<Phase> phase;
    std::optional<Modality> modality;
};

// Routed token slots per logical expert (a token routed top-k counts k
// times), one row per MoE layer present, layers ascending.
struct LayerExpertLoad {
    std::vector<int> layers;
    ExpertLoad load;
    int64_t routed = 0; // token slots counted (rows)
};

// The model's expert count `configured`, or where it is unknown (0) the
// largest routed expert id + 1.
int expertCountOf(const std::vector<RoutingRow>& rows, int configured);

// `experts`: the model's count (0: expertCountOf's fallback).
LayerExpertLoad expertLoadOf(const std::vector<RoutingRow>& rows, int experts,
                             const LoadFilter& filter = {});

struct PlacementPlan {
    EplbShape shape;
    LayerExpertLoad load;
    ExpertPlacement placement;
    // [layer][gpu], derived: each expert's load split evenly over its replicas.
    std::vector<std::vector<double>> gpuLoadBefore, gpuLoadAfter;
    std::vector<double> balancednessBefore, balancednessAfter; // per layer
};

struct LayerSpread {
    double worst = 0, median = 0, best = 0;
};
LayerSpread spreadOver(std::vector<double> perLayer);
// Layers whose balancedness the placement is predicted to lower: EPLB's
// greedy replication can lose to the trivial layout (e.g. two hot experts
// whose trivial slots already share the GPUs evenly).
int layersMadeWorse(const PlacementPlan& plan);

// Errors: no routed tokens (a dense model, or the filter left none), and
// rebalanceExperts' refusals.
Result<PlacementPlan> planPlacement(LayerExpertLoad load, const EplbShape& shape);

// For a reader: the shape, the policy, per layer the replicated experts and
// the balancedness before → after, and the summary over layers.
std::string formatPlanText(const PlacementPlan& plan);
// SGLang's --init-expert-location file: {"physical_to_logical_map": [[…], …]},
// one row per MoE layer held (SGLang's init_by_mapping takes no other key).
std::string sglangPlacementJson(const PlacementPlan& plan);
// The other form SGLang takes there: {"logical_count": [[…], …]}, the
// measured load per MoE layer and logical expert, for SGLang to place itself
// with its own EPLB on the GPUs it serves.
std::string sglangLogicalCountJson(const LayerExpertLoad& load);

} // namespace mvp
