#include "core/placement/Eplb.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace mvp {

namespace {
// The reference computes in float32 (`weight.float()`): its comparisons,
// and so its placements, are float32's.
using Weights = std::vector<float>;

struct Packing {
    std::vector<int> pack, rank; // per item: its pack, its place in the pack
};

// Items into `packs` packs of equal item count, heaviest first, each into the
// lightest pack that has room (the first such on a tie).
Packing packBalanced(const Weights& w, int packs) {
    const int n = int(w.size()), perPack = n / packs;
    Packing out{std::vector<int>(size_t(n)), std::vector<int>(size_t(n), 0)};
    if (perPack == 1) { // one item a pack: the reference keeps them in order
        std::iota(out.pack.begin(), out.pack.end(), 0);
        return out;
    }
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return w[size_t(a)] > w[size_t(b)]; });
    std::vector<float> weight(size_t(packs), 0.0f);
    std::vector<int> items(size_t(packs), 0);
    for (const int item : order) {
        int best = -1;
        for (int p = 0; p < packs; ++p)
            if (items[size_t(p)] < perPack && (best < 0 || weight[size_t(p)] < weight[size_t(best)]))
                best = p;
        out.pack[size_t(item)] = best;
        out.rank[size_t(item)] = items[size_t(best)]++;
        weight[size_t(best)] += w[size_t(item)];
    }
    return out;
}

struct Replication {
    std::vector<int> slotToExpert, slotRank, expertCount;
};

// `slots` ≥ experts: each expert one slot, then each spare slot to the expert
// whose load per replica is highest (the first on a tie).
Replication replicate(const Weights& w, int slots) {
    const int experts = int(w.size());
    Replication r{std::vector<int>(size_t(slots)), std::vector<int>(size_t(slots), 0),
                  std::vector<int>(size_t(experts), 1)};
    std::iota(r.slotToExpert.begin(), r.slotToExpert.begin() + experts, 0);
    for (int s = experts; s < slots; ++s) {
        int best = 0;
        float bestShare = w[0] / float(r.expertCount[0]);
        for (int e = 1; e < experts; ++e) {
            const float share = w[size_t(e)] / float(r.expertCount[size_t(e)]);
            if (share > bestShare) best = e, bestShare = share;
        }
        r.slotToExpert[size_t(s)] = best;
        r.slotRank[size_t(s)] = r.expertCount[size_t(best)]++;
    }
    return r;
}

std::vector<int> inverse(const std::vector<int>& perm) {
    std::vector<int> inv(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
        inv[size_t(perm[i])] = int(i);
    return inv;
}

struct LayerPlacement {
    std::vector<int> slotToLogical, slotRank, logicalCount;
};

// One layer, hierarchically: groups of experts onto nodes, replicas within
// each node, a node's slots onto its GPUs. The global policy is this with one
// group and one node.
LayerPlacement placeLayer(const Weights& w, int slots, int groups, int nodes, int gpus) {
    const int experts = int(w.size()), groupSize = experts / groups;
    const int groupsPerNode = groups / nodes, slotsPerGpu = slots / gpus;
    const int expertsPerNode = experts / nodes, slotsPerNode = slots / nodes;

    // 1. Groups onto nodes. Experts renumbered node by node ("mlog").
    Weights groupLoad(size_t(groups), 0.0f);
    for (int e = 0; e < experts; ++e)
        groupLoad[size_t(e / groupSize)] += w[size_t(e)];
    const Packing groupPacking = packBalanced(groupLoad, nodes);
    std::vector<int> logToNodeOrder(static_cast<size_t>(experts));
    for (int e = 0; e < experts; ++e) {
        const int g = e / groupSize;
        logToNodeOrder[size_t(e)] =
            (groupPacking.pack[size_t(g)] * groupsPerNode + groupPacking.rank[size_t(g)]) *
                groupSize +
            e % groupSize;
    }
    const std::vector<int> nodeOrderToLog = inverse(logToNodeOrder);

    LayerPlacement out{std::vector<int>(size_t(slots)), std::vector<int>(size_t(slots)),
                       std::vector<int>(size_t(experts))};
    std::vector<int> countInNodeOrder(static_cast<size_t>(experts));
    for (int node = 0; node < nodes; ++node) {
        // 2. Replicas within the node.
        const int firstExpert = node * expertsPerNode;
        Weights nodeLoad(static_cast<size_t>(expertsPerNode));
        for (int j = 0; j < expertsPerNode; ++j)
            nodeLoad[size_t(j)] = w[size_t(nodeOrderToLog[size_t(firstExpert + j)])];
        const Replication rep = replicate(nodeLoad, slotsPerNode);
        for (int j = 0; j < expertsPerNode; ++j)
            countInNodeOrder[size_t(firstExpert + j)] = rep.expertCount[size_t(j)];

        // 3. The node's slots onto its GPUs, each replica carrying an equal share.
        Weights slotLoad(static_cast<size_t>(slotsPerNode));
        for (int s = 0; s < slotsPerNode; ++s) {
            const int e = rep.slotToExpert[size_t(s)];
            slotLoad[size_t(s)] = nodeLoad[size_t(e)] / float(rep.expertCount[size_t(e)]);
        }
        const Packing gpuPacking = packBalanced(slotLoad, gpus / nodes);
        std::vector<int> slotToPlace(static_cast<size_t>(slotsPerNode));
        for (int s = 0; s < slotsPerNode; ++s)
            slotToPlace[size_t(s)] =
                gpuPacking.pack[size_t(s)] * slotsPerGpu + gpuPacking.rank[size_t(s)];
        const std::vector<int> placeToSlot = inverse(slotToPlace);
        for (int q = 0; q < slotsPerNode; ++q) {
            const int s = placeToSlot[size_t(q)];
            const int nodeOrder = rep.slotToExpert[size_t(s)] + firstExpert;
            out.slotToLogical[size_t(node * slotsPerNode + q)] =
                nodeOrderToLog[size_t(nodeOrder)];
            out.slotRank[size_t(node * slotsPerNode + q)] = rep.slotRank[size_t(s)];
        }
    }
    for (int e = 0; e < experts; ++e)
        out.logicalCount[size_t(e)] = countInNodeOrder[size_t(logToNodeOrder[size_t(e)])];
    return out;
}

Status checkShape(const ExpertLoad& load, const EplbShape& s, bool hierarchical) {
    const auto bad = [](const std::string& why) { return makeError(ErrorCode::BadInput, why); };
    if (load.empty() || load.front().empty())
        return bad("no expert load to place: the load has no MoE layer or no expert");
    const size_t experts = load.front().size();
    for (size_t l = 0; l < load.size(); ++l) {
        if (load[l].size() != experts)
            return bad("layer " + std::to_string(l) + " has " + std::to_string(load[l].size()) +
                       " experts, layer 0 " + std::to_string(experts));
        for (const double v : load[l])
            if (!std::isfinite(v) || v < 0)
                return bad("layer " + std::to_string(l) + " has a negative or non-finite load");
    }
    if (s.replicas <= 0 || s.groups <= 0 || s.nodes <= 0 || s.gpus <= 0)
        return bad("replicas, groups, nodes and GPUs must each be at least 1");
    const int e = int(experts);
    if (s.replicas < e)
        return bad(std::to_string(s.replicas) + " replicas cannot hold " + std::to_string(e) +
                   " experts: every expert needs a slot");
    if (s.replicas % s.gpus != 0)
        return bad(std::to_string(s.replicas) + " replicas do not divide evenly over " +
                   std::to_string(s.gpus) + " GPUs");
    if (hierarchical && s.gpus % s.nodes != 0)
        return bad(std::to_string(s.gpus) + " GPUs do not divide evenly over " +
                   std::to_string(s.nodes) + " nodes");
    if (hierarchical && e % s.groups != 0)
        return bad(std::to_string(e) + " experts do not divide into " + std::to_string(s.groups) +
                   " groups");
    return Ok{};
}
} // namespace

const char* toString(EplbPolicy p) {
    return p == EplbPolicy::Hierarchical ? "hierarchical" : "global";
}

Result<ExpertPlacement> rebalanceExperts(const ExpertLoad& load, const EplbShape& shape) {
    // The reference's choice: hierarchical when the groups divide among the nodes.
    const bool hierarchical = shape.nodes > 0 && shape.groups % shape.nodes == 0;
    if (auto ok = checkShape(load, shape, hierarchical); !ok) return ok.error();
    const int groups = hierarchical ? shape.groups : 1, nodes = hierarchical ? shape.nodes : 1;
    ExpertPlacement out;
    out.policy = hierarchical ? EplbPolicy::Hierarchical : EplbPolicy::Global;
    out.slotsPerGpu = shape.replicas / shape.gpus;
    for (const auto& row : load) {
        const Weights w(row.begin(), row.end());
        LayerPlacement l = placeLayer(w, shape.replicas, groups, nodes, shape.gpus);
        out.physicalToLogical.push_back(std::move(l.slotToLogical));
        out.replicaRank.push_back(std::move(l.slotRank));
        out.logicalCount.push_back(std::move(l.logicalCount));
    }
    return out;
}

ExpertPlacement trivialPlacement(int layers, int logical, const EplbShape& shape) {
    ExpertPlacement out;
    out.slotsPerGpu = shape.gpus > 0 ? shape.replicas / shape.gpus : 0;
    if (logical <= 0 || shape.replicas <= 0) return out;
    std::vector<int> slots(size_t(shape.replicas)), ranks(size_t(shape.replicas));
    std::vector<int> counts(size_t(logical), 0);
    for (int s = 0; s < shape.replicas; ++s) {
        slots[size_t(s)] = s % logical;
        ranks[size_t(s)] = counts[size_t(s % logical)]++;
    }
    out.physicalToLogical.assign(size_t(layers), slots);
    out.replicaRank.assign(size_t(layers), ranks);
    out.logicalCount.assign(size_t(layers), counts);
    return out;
}

std::vector<std::vector<double>> gpuLoad(const ExpertLoad& load, const ExpertPlacement& p) {
    std::vector<std::vector<double>> out;
    for (size_t l = 0; l < p.physicalToLogical.size() && l < load.size(); ++l) {
        const auto& slots = p.physicalToLogical[l];
        const int gpus = p.slotsPerGpu > 0 ? int(slots.size()) / p.slotsPerGpu : 0;
        std::vector<double> perGpu(size_t(gpus), 0.0);
        for (size_t s = 0; s < slots.size() && p.slotsPerGpu > 0; ++s) {
            const auto e = size_t(slots[s]);
            const int copies = std::max(1, p.logicalCount[l][e]);
            perGpu[s / size_t(p.slotsPerGpu)] += load[l][e] / copies;
        }
        out.push_back(std::move(perGpu));
    }
    return out;
}

} // namespace mvp
