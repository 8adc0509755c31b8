#include "core/placement/PlacementPlan.h"

#include "core/Format.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace mvp {

int expertCountOf(const std::vector<RoutingRow>& rows, int configured) {
    int n = configured;
    if (n <= 0)
        for (const auto& r : rows)
            n = std::max(n, r.expert + 1);
    return n;
}

LayerExpertLoad expertLoadOf(const std::vector<RoutingRow>& rows, int experts,
                             const LoadFilter& filter) {
    const int width = expertCountOf(rows, experts);
    std::map<int, std::vector<double>> byLayer;
    LayerExpertLoad out;
    for (const auto& r : rows) {
        if (filter.phase && r.phase != *filter.phase) continue;
        if (filter.modality && r.modality != *filter.modality) continue;
        if (r.expert < 0 || r.expert >= width) continue; // a skipped rank (−1) runs nothing
        auto& layer = byLayer[r.layer];
        layer.resize(size_t(width), 0.0);
        layer[size_t(r.expert)] += 1;
        ++out.routed;
    }
    for (auto& [layer, load] : byLayer) {
        out.layers.push_back(layer);
        out.load.push_back(std::move(load));
    }
    return out;
}

LayerSpread spreadOver(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return {v.front(), median, v.back()};
}

int layersMadeWorse(const PlacementPlan& plan) {
    int worse = 0;
    for (size_t i = 0; i < plan.balancednessAfter.size(); ++i)
        worse += plan.balancednessAfter[i] < plan.balancednessBefore[i] - 1e-9;
    return worse;
}

namespace {
// Mean over GPUs ÷ the busiest GPU's load, per layer (1 when nothing ran).
std::vector<double> balancedness(const std::vector<std::vector<double>>& perGpu) {
    std::vector<double> out;
    for (const auto& gpus : perGpu) {
        double sum = 0, top = 0;
        for (const double v : gpus)
            sum += v, top = std::max(top, v);
        out.push_back(top > 0 ? sum / double(gpus.size()) / top : 1.0);
    }
    return out;
}
} // namespace

Result<PlacementPlan> planPlacement(LayerExpertLoad load, const EplbShape& shape) {
    if (load.routed == 0)
        return makeError(ErrorCode::BadInput,
                         "no routed tokens to place: the run has no MoE layer, or the phase and "
                         "modality asked for left none");
    auto placement = rebalanceExperts(load.load, shape);
    if (!placement) return placement.error();
    PlacementPlan plan;
    plan.shape = shape;
    plan.placement = std::move(*placement);
    const auto trivial =
        trivialPlacement(int(load.load.size()), int(load.load.front().size()), shape);
    plan.gpuLoadBefore = gpuLoad(load.load, trivial);
    plan.gpuLoadAfter = gpuLoad(load.load, plan.placement);
    plan.balancednessBefore = balancedness(plan.gpuLoadBefore);
    plan.balancednessAfter = balancedness(plan.gpuLoadAfter);
    plan.load = std::move(load);
    return plan;
}

std::string formatPlanText(const PlacementPlan& p) {
    const auto& s = p.shape;
    std::string out = "EPLB placement (" + std::string(toString(p.placement.policy)) +
                      " policy): " + std::to_string(s.replicas) + " replicas of " +
                      std::to_string(p.load.load.front().size()) + " experts on " +
                      std::to_string(s.gpus) + " GPUs, " + std::to_string(s.nodes) +
                      " node(s), " + std::to_string(s.groups) + " group(s); " +
                      std::to_string(p.load.routed) + " routed token slots (measured)\n";
    out += "balancedness = mean ÷ max of the GPUs' loads, per layer (1 = even); loads "
           "predicted from the measured counts, each expert's split evenly over its "
           "replicas (derived)\n";
    for (size_t i = 0; i < p.load.layers.size(); ++i) {
        std::string replicated;
        const auto& counts = p.placement.logicalCount[i];
        for (size_t e = 0; e < counts.size(); ++e)
            if (counts[e] > 1)
                replicated += (replicated.empty() ? "" : ", ") + std::to_string(e) + " (×" +
                              std::to_string(counts[e]) + ")";
        out += "  layer " + std::to_string(p.load.layers[i]) + ": balancedness " +
               fmt("%.3f", p.balancednessBefore[i]) + " → " + fmt("%.3f", p.balancednessAfter[i]) +
               "  replicated experts: " + (replicated.empty() ? "none" : replicated) + "\n";
    }
    const auto before = spreadOver(p.balancednessBefore), after = spreadOver(p.balancednessAfter);
    out += "over " + std::to_string(p.load.layers.size()) +
           " layer(s): worst " + fmt("%.3f", before.worst) + " → " + fmt("%.3f", after.worst) +
           ", median " + fmt("%.3f", before.median) + " → " + fmt("%.3f", after.median) +
           ", best " + fmt("%.3f", before.best) + " → " + fmt("%.3f", after.best) +
           " (derived; before: SGLang's trivial placement, slot i → expert i mod experts)\n";
    if (const int worse = layersMadeWorse(p))
        out += "EPLB's placement is predicted to balance " + std::to_string(worse) +
               " layer(s) worse than the trivial one: keep the trivial placement there, or try "
               "another number of replicas\n";
    return out;
}

std::string sglangPlacementJson(const PlacementPlan& p) {
    return nlohmann::json{{"physical_to_logical_map", p.placement.physicalToLogical}}.dump() +
           "\n";
}

std::string sglangLogicalCountJson(const LayerExpertLoad& load) {
    std::vector<std::vector<int64_t>> counts;
    for (const auto& layer : load.load)
        counts.emplace_back(layer.begin(), layer.end()); // whole token counts
    return nlohmann::json{{"logical_count", counts}}.dump() + "\n";
}

} // namespace mvp
