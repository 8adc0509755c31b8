#include "core/analysis/MoeStats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace mvp {

const char* toString(ExpertState s) {
    switch (s) {
    case ExpertState::Hot:
        return "hot";
    case ExpertState::Overloaded:
        return "overloaded";
    case ExpertState::Underloaded:
        return "underloaded";
    case ExpertState::Cold:
        return "cold";
    case ExpertState::Dead:
        return "dead";
    case ExpertState::Normal:
        break;
    }
    return "normal";
}

BalanceStats balanceStats(const std::vector<int64_t>& load) {
    BalanceStats s;
    s.experts = int(load.size());
    s.load = load;
    s.z.assign(load.size(), 0.0);
    if (load.empty()) return s;
    s.tokens = std::accumulate(load.begin(), load.end(), int64_t(0));
    const double n = double(load.size());
    const int64_t dead = std::count(load.begin(), load.end(), int64_t(0));
    s.deadFraction = double(dead) / n;
    if (s.tokens == 0) return s;
    s.mean = double(s.tokens) / n;
    double var = 0, sumSq = 0, h = 0;
    for (auto x : load) {
        var += (double(x) - s.mean) * (double(x) - s.mean);
        sumSq += double(x) * double(x);
        if (x > 0) {
            const double p = double(x) / double(s.tokens);
            h -= p * std::log2(p);
        }
    }
    s.stddev = std::sqrt(var / n);
    s.cv = s.stddev / s.mean;
    const double max = double(*std::max_element(load.begin(), load.end()));
    s.balancedness = s.mean / max;
    s.maxvio = max / s.mean - 1.0;
    s.jain = double(s.tokens) * double(s.tokens) / (n * sumSq);
    s.entropyBits = h;
    s.entropyNorm = std::exp2(h) / n;
    if (s.stddev > 0)
        for (size_t i = 0; i < load.size(); ++i)
            s.z[i] = (double(load[i]) - s.mean) / s.stddev;
    return s;
}

namespace {

// Routing rows of one layer in routing order: by position, then rank.
std::vector<const RoutingRow*> ordered(const std::vector<RoutingRow>& rows, int layer) {
    std::vector<const RoutingRow*> out;
    for (const auto& r : rows)
        if (r.layer == layer) out.push_back(&r);
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) {
        return a->token != b->token ? a->token < b->token : a->rank < b->rank;
    });
    return out;
}

template <typename Keep>
BalanceStats countWhere(const std::vector<const RoutingRow*>& rows, int experts, Keep keep) {
    std::vector<int64_t> load(size_t(experts), 0);
    for (const auto* r : rows)
        if (keep(*r) && r->expert >= 0 && r->expert < experts) load[size_t(r->expert)] += 1;
    return balanceStats(load);
}

} // namespace

namespace {
using Rows = std::vector<const RoutingRow*>;

// Statistics per window of `size` tokens (one token = all its k slots), in routing order.
std::vector<WindowStats> windowStats(const Rows& layerRows, int experts, int size) {
    std::vector<Rows> byToken;
    for (const auto* r : layerRows) {
        if (byToken.empty() || byToken.back().front()->token != r->token) byToken.emplace_back();
        byToken.back().push_back(r);
    }
    std::vector<WindowStats> out;
    for (size_t first = 0; first < byToken.size(); first += size_t(size)) {
        const size_t last = std::min(byToken.size(), first + size_t(size));
        Rows slice;
        for (size_t i = first; i < last; ++i)
            slice.insert(slice.end(), byToken[i].begin(), byToken[i].end());
        out.push_back({int(first), int(last),
                       countWhere(slice, experts, [](const RoutingRow&) { return true; })});
    }
    return out;
}

// Cold: fewer than coldMinActivations in two consecutive full-size windows.
std::vector<int> coldExperts(const Rows& layerRows, int experts, const MoeThresholds& t) {
    std::vector<int> cold;
    const auto coldWindows = windowStats(layerRows, experts, t.coldWindow);
    for (int e = 0; e < experts; ++e)
        for (size_t w = 1; w < coldWindows.size(); ++w) {
            const auto& a = coldWindows[w - 1];
            const auto& b = coldWindows[w];
            if (b.last - b.first < t.coldWindow) break; // a partial window is not a full check
            if (a.stats.load[size_t(e)] < t.coldMinActivations &&
                b.stats.load[size_t(e)] < t.coldMinActivations) {
                cold.push_back(e);
                break;
            }
        }
    return cold;
}

void classifyExperts(LayerMoeReport& rep, int experts, const MoeThresholds& t) {
    // States: overloaded above the threshold, hot = the top-k by Δ among the rest
    // (when above the mean), dead with no tokens, cold by the window rule,
    // underloaded below the receiver threshold.
    std::vector<int> byZ(static_cast<size_t>(experts));
    std::iota(byZ.begin(), byZ.end(), 0);
    std::stable_sort(byZ.begin(), byZ.end(),
                     [&](int a, int b) { return rep.total.z[size_t(a)] > rep.total.z[size_t(b)]; });
    const std::set<int> topByZ(
        byZ.begin(), byZ.begin() + std::min<size_t>(size_t(std::max(rep.topK, 1)), byZ.size()));
    std::vector<int> receivers;
    for (int e = 0; e < experts; ++e)
        if (rep.total.z[size_t(e)] < t.receiverZ) receivers.push_back(e);
    for (int e = 0; e < experts; ++e) {
        ExpertReport x;
        x.id = e;
        x.tokens = rep.total.load[size_t(e)];
        x.z = rep.total.z[size_t(e)];
        if (x.z > t.overloadZ) {
            x.state = ExpertState::Overloaded;
            x.targetTokens = int64_t(std::llround((1.0 - t.moveShare) * double(x.tokens)));
            x.receivers = receivers;
        } else if (topByZ.count(e) && x.z > 0) {
            x.state = ExpertState::Hot;
        } else if (x.tokens == 0) {
            x.state = ExpertState::Dead;
        } else if (std::find(rep.cold.begin(), rep.cold.end(), e) != rep.cold.end()) {
            x.state = ExpertState::Cold;
        } else if (x.z < t.receiverZ) {
            x.state = ExpertState::Underloaded;
        }
        rep.experts.push_back(x);
    }
}

// The share of top-1 slots that went to a hot or overloaded expert.
double hotTop1Share(const LayerMoeReport& rep, const Rows& layerRows) {
    int64_t hotTop1 = 0, top1 = 0;
    for (const auto* r : layerRows) {
        if (r->rank != 0) continue;
        ++top1;
        const auto s = rep.experts[size_t(r->expert)].state;
        if (s == ExpertState::Hot || s == ExpertState::Overloaded) ++hotTop1;
    }
    return top1 > 0 ? double(hotTop1) / double(top1) : 0.0;
}
} // namespace

LayerMoeReport analyseLayer(int layer, const std::vector<RoutingRow>& rows, int experts,
                            const MoeThresholds& t, int window) {
    LayerMoeReport rep;
    rep.layer = layer;
    const auto layerRows = ordered(rows, layer);
    int maxExpert = -1, maxRank = -1;
    std::set<int> tokens;
    for (const auto* r : layerRows) {
        maxExpert = std::max(maxExpert, r->expert);
        maxRank = std::max(maxRank, r->rank);
        tokens.insert(r->token);
    }
    experts = std::max(experts, maxExpert + 1);
    rep.topK = maxRank + 1;
    rep.tokenCount = int64_t(tokens.size());
    auto all = [](const RoutingRow&) { return true; };
    rep.total = countWhere(layerRows, experts, all);
    rep.visual = countWhere(layerRows, experts,
                            [](const RoutingRow& r) { return r.modality == Modality::Visual; });
    rep.text = countWhere(layerRows, experts,
                          [](const RoutingRow& r) { return r.modality == Modality::Text; });
    rep.prefill = countWhere(layerRows, experts,
                             [](const RoutingRow& r) { return r.phase == Phase::Prefill; });
    rep.decode = countWhere(layerRows, experts,
                            [](const RoutingRow& r) { return r.phase == Phase::Decode; });

    if (window > 0) rep.windows = windowStats(layerRows, experts, window);
    rep.cold = coldExperts(layerRows, experts, t);
    classifyExperts(rep, experts, t);
    rep.hotTop1Share = hotTop1Share(rep, layerRows);
    return rep;
}

std::vector<LayerMoeReport> analyseMoe(const std::vector<RoutingRow>& rows, int experts,
                                       const MoeThresholds& t, int window) {
    std::set<int> layers;
    for (const auto& r : rows)
        layers.insert(r.layer);
    std::vector<LayerMoeReport> out;
    for (int l : layers)
        out.push_back(analyseLayer(l, rows, experts, t, window));
    return out;
}

std::optional<std::pair<int, int>> moeLane(const ModuleRow& m) {
    if (!m.layer) return std::nullopt; // a module without a layer has no lane
    switch (m.role) {
    case ModuleRole::Moe:
        return std::pair{*m.layer, -2};
    case ModuleRole::Router:
        return std::pair{*m.layer, -1};
    case ModuleRole::Expert:
        if (m.expert) return std::pair{*m.layer, *m.expert};
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

std::vector<GateExpertTime> gateExpertTimes(const std::vector<ModuleRow>& modules,
                                            const std::vector<SpanRow>& spans) {
    std::map<int64_t, std::pair<int, int>>
        roleOf; // module id → (layer, -2 block | -1 gate | expert)
    for (const auto& m : modules)
        if (auto p = moeLane(m)) roleOf[m.id] = *p;
    std::map<std::tuple<int, Phase, int>, GateExpertTime> acc;
    for (const auto& s : spans) {
        auto it = roleOf.find(s.module);
        if (it == roleOf.end()) continue;
        const auto [layer, role] = it->second;
        auto& g = acc[{layer, s.phase, s.step}];
        g.layer = layer;
        g.phase = s.phase;
        g.step = s.step;
        const int64_t d = s.endNs - s.startNs;
        if (role == -2)
            g.layerNs += d;
        else if (role == -1)
            g.gateNs += d;
        else {
            g.expertNs += d;
            g.activeExperts += 1;
        }
    }
    std::vector<GateExpertTime> out;
    for (auto& [_, g] : acc)
        out.push_back(g);
    // Time order within a layer: prefill first, then decode steps.
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        if (a.layer != b.layer) return a.layer < b.layer;
        if (a.phase != b.phase) return a.phase == Phase::Prefill;
        return a.step < b.step;
    });
    return out;
}

} // namespace mvp
