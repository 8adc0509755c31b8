#pragma once
// DeepSeek's expert-parallel load balancer (EPLB, github.com/deepseek-ai/EPLB,
// `rebalance_experts`), implemented here from its description: given each MoE
// layer's load per logical expert, it replicates the heaviest experts into the
// spare physical slots and places the slots on GPUs so that each GPU's share
// of the load is as even as it can make it (docs/placement.md).
//
// Two policies, chosen as the reference chooses them: hierarchical when the
// expert groups divide evenly among the nodes (groups packed onto nodes,
// replicas made within each node, then packed onto the node's GPUs), global
// otherwise (one group, one node). Arithmetic in float32 as the reference's;
// where two items weigh exactly the same, the lower index goes first (the
// reference's sort is not stable, so its order there is its torch build's).
// Pure functions, no I/O.

#include "core/Result.h"

#include <cstdint>
#include <vector>

namespace mvp {

// Load of each logical expert per MoE layer ([layers][logical experts]):
// token counts, or any non-negative weight.
using ExpertLoad = std::vector<std::vector<double>>;

struct EplbShape {
    int replicas = 0; // physical expert slots in all, a multiple of `gpus`
    int groups = 1;   // expert groups (DeepSeek-V3: 8); logical experts divide into them
    int nodes = 1;    // servers, each a fast (NVLink) domain
    int gpus = 1;     // a multiple of `nodes`
};

enum class EplbPolicy { Hierarchical, Global };
const char* toString(EplbPolicy p);

struct ExpertPlacement {
    EplbPolicy policy = EplbPolicy::Global;
    int slotsPerGpu = 0;
    // [layers][physical slot]: the logical expert in the slot; slots
    // [g·slotsPerGpu, (g+1)·slotsPerGpu) are on GPU g.
    std::vector<std::vector<int>> physicalToLogical;
    std::vector<std::vector<int>> replicaRank; // [layers][slot]: which replica of its expert
    std::vector<std::vector<int>> logicalCount; // [layers][logical]: replicas of each expert
};

// Errors name the constraint broken: no layers, rows of different lengths,
// a negative or non-finite load, fewer slots than experts, slots not a
// multiple of the GPUs, GPUs not a multiple of the nodes, experts not a
// multiple of the groups.
Result<ExpertPlacement> rebalanceExperts(const ExpertLoad& load, const EplbShape& shape);

// SGLang's "trivial" placement (slot i holds logical expert i mod experts):
// what runs before a placement is given.
ExpertPlacement trivialPlacement(int layers, int logical, const EplbShape& shape);

// Each GPU's predicted load per layer ([layers][gpus]), an expert's load split
// evenly over its replicas (EPLB's own model of a placement).
std::vector<std::vector<double>> gpuLoad(const ExpertLoad& load, const ExpertPlacement& p);

} // namespace mvp
