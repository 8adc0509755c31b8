#include "core/analysis/PatchMetrics.h"

#include "core/analysis/Analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace mvp {

namespace {
std::vector<double> minMax(std::vector<double> v) {
    if (v.empty()) return v;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const double a = *lo, span = *hi - *lo;
    for (auto& x : v)
        x = span > 0 ? (x - a) / span : 0.0;
    return v;
}

HeatGrid gridOf(const PatchGridRow& g, std::vector<double> values) {
    return HeatGrid{g.gridH, g.gridW, std::move(values)};
}

// Expert cost per visual patch: each expert span's FLOPs (or time) shared
// equally among the tokens routed to that expert in that layer and step.
std::vector<double> expertCost(const RunData& d, LayerRange layers, bool byTime,
                               std::optional<Phase> phase) {
    const auto& g = *d.grid;
    const int patches = g.gridH * g.gridW;
    std::vector<double> out(size_t(patches), 0.0);
    std::map<int64_t, std::pair<int, int>> expertOf; // module → (layer, expert)
    for (const auto& m : d.modules)
        if (auto p = moeLane(m); p && p->second >= 0) expertOf[m.id] = *p;
    using Key = std::tuple<int, Phase, int, int>; // layer, phase, step, expert
    std::map<Key, double> cost;
    for (const auto& s : d.spans)
        if (auto it = expertOf.find(s.module); it != expertOf.end())
            cost[{it->second.first, s.phase, s.step, it->second.second}] +=
                byTime ? double(s.endNs - s.startNs) : double(s.flops);
    std::map<Key, int> tokens;
    for (const auto& r : d.routing)
        tokens[{r.layer, r.phase, r.step, r.expert}] += 1;
    const auto patchOf = patchOfPosition(d);
    for (const auto& r : d.routing) {
        if (!layers.contains(r.layer) || (phase && r.phase != *phase)) continue;
        const auto at = patchOf.find(r.token);
        if (at == patchOf.end()) continue;
        const int p = at->second;
        if (p < 0 || p >= patches) continue;
        const Key k{r.layer, r.phase, r.step, r.expert};
        const auto c = cost.find(k);
        if (c != cost.end()) out[size_t(p)] += c->second / tokens[k];
    }
    return out;
}
} // namespace

std::map<int, int> patchOfPosition(const RunData& d) {
    std::map<int, int> out;
    const int first = d.grid ? d.grid->firstPosition : 1;
    for (const auto& t : d.tokens)
        if (t.modality == Modality::Visual)
            out[t.position] = t.patch >= 0 ? t.patch : t.position - first;
    return out;
}

std::vector<double> blendHeatmap(const std::vector<std::vector<double>>& w,
                                 const std::vector<double>& q, double patchWeight) {
    const size_t n = w.size();
    std::vector<double> aligned(n, 0.0), sequence(n, 0.0);
    const double qMax = q.empty() ? 0.0 : *std::max_element(q.begin(), q.end());
    std::vector<double> soft(q.size());
    double z = 0;
    for (size_t s = 0; s < q.size(); ++s)
        z += soft[s] = std::exp(q[s] - qMax);
    for (auto& x : soft)
        x /= z > 0 ? z : 1.0;
    for (size_t p = 0; p < n; ++p)
        for (size_t s = 0; s < q.size() && s < w[p].size(); ++s) {
            aligned[p] += w[p][s] * q[s];
            sequence[p] += w[p][s] * soft[s];
        }
    const auto patch = minMax(aligned);
    std::vector<double> h(n);
    for (size_t p = 0; p < n; ++p)
        h[p] = patchWeight * patch[p] + (1.0 - patchWeight) * sequence[p];
    return h;
}

namespace {
// A value with an SI prefix and its unit, three significant digits, ASCII
// ("1.23 GFLOP", "850 us"; nanoseconds print as seconds). No unit: "%.3g".
std::string siValue(double v, std::string_view unit) {
    char buf[64];
    if (unit.empty()) {
        std::snprintf(buf, sizeof buf, "%.3g", v);
        return buf;
    }
    const bool ns = unit == "ns";
    if (ns) v *= 1e-9;
    static const char* const kUp[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char* const kDown[] = {"", "m", "u", "n", "p"};
    int i = 0;
    const bool up = std::abs(v) >= 1;
    if (up)
        while (std::abs(v) >= 999.5 && i < 6)
            v /= 1000, ++i;
    else
        while (v != 0 && std::abs(v) < 0.9995 && i < 4)
            v *= 1000, ++i;
    std::snprintf(buf, sizeof buf, "%.3g %s%.*s", v, up ? kUp[i] : kDown[i],
                  ns ? 1 : int(unit.size()), ns ? "s" : unit.data());
    return buf;
}
} // namespace

const std::vector<HeatMetric>& heatMetrics() {
    static const std::vector<HeatMetric> all{
        {"attention", Provenance::Measured, ""},
        {"answer_attention", Provenance::Measured, ""},
        {"expert_flops", Provenance::Estimated, "FLOP"},
        // An expert span's measured time split among the tokens it processed.
        {"latency", Provenance::Apportioned, "ns"},
        {"saliency", Provenance::Derived, ""},
        {"waste", Provenance::Derived, ""},
    };
    return all;
}

std::optional<HeatMetric> heatMetric(std::string_view name) {
    for (const auto& m : heatMetrics())
        if (m.name == name) return m;
    return std::nullopt;
}

ColourBarText heatLegend(const HeatMetric& metric, const HeatGrid& raw, const std::string& layers) {
    ColourBarText t;
    std::string provenance = "(";
    provenance.append(toString(metric.provenance)).append(")");
    t.title = {std::string(metric.name), provenance, layers};
    // The values print with SI prefixes: times in seconds.
    std::string unit = "unit: ";
    unit.append(metric.unit.empty() ? "none (score)" : metric.unit == "ns" ? "s" : metric.unit);
    t.title.push_back(unit);
    if (raw.values.empty()) return t;
    const auto [lo, hi] = std::minmax_element(raw.values.begin(), raw.values.end());
    t.high = siValue(*hi, metric.unit);
    t.low = siValue(*lo, metric.unit);
    return t;
}

std::string metricValueText(const HeatMetric& metric, double value) {
    return siValue(value, metric.unit);
}

ColourBarText heatLegend(const HeatMetric& metric, const ScaleRange& scale,
                         const std::string& layers) {
    ColourBarText t = heatLegend(metric, HeatGrid{}, layers);
    t.high = siValue(scale.high, metric.unit);
    t.low = siValue(scale.low, metric.unit);
    return t;
}

// The experts' cost per patch over `layers`, combined as asked: per layer
// (the layers the run routed) when each is normalised first.
HeatGrid expertCostGrid(const RunData& d, LayerRange layers, bool byTime,
                        std::optional<Phase> phase, LayerCombine combine) {
    const auto& g = *d.grid;
    if (combine == LayerCombine::Sum) return gridOf(g, expertCost(d, layers, byTime, phase));
    std::set<int> routed;
    for (const auto& r : d.routing)
        if (layers.contains(r.layer)) routed.insert(r.layer);
    std::map<int, std::vector<double>> byLayer;
    for (const int l : routed)
        byLayer[l] = expertCost(d, LayerRange{l, l}, byTime, phase);
    return combineLayers(byLayer, g.gridH, g.gridW, combine);
}

std::map<std::string, HeatGrid> computePatchMetrics(const RunData& d, LayerRange layers,
                                                    std::optional<Phase> phase,
                                                    LayerCombine combine) {
    std::map<std::string, HeatGrid> out;
    if (!d.grid) return out;
    const auto& g = *d.grid;
    const int patches = g.gridH * g.gridW;
    const auto& attention = phase == Phase::Prefill  ? d.attentionPrefill
                            : phase == Phase::Decode ? d.attentionDecode
                                                     : d.attention;
    if (auto a = gridFromMetrics(attention, g, layers, combine); a) out["attention"] = *a;
    if (auto a = gridFromMetrics(d.answerAttention, g, layers, combine); a)
        out["answer_attention"] = *a;
    if (!d.routing.empty()) {
        out["expert_flops"] = expertCostGrid(d, layers, false, phase, combine);
        out["latency"] = expertCostGrid(d, layers, true, phase, combine);
    }
    if (out.count("attention") && out.count("expert_flops")) {
        const auto cost = minMax(out["expert_flops"].values), att = minMax(out["attention"].values);
        std::vector<double> waste(cost.size());
        for (size_t i = 0; i < cost.size(); ++i)
            waste[i] = std::max(0.0, cost[i] - att[i]);
        out["waste"] = gridOf(g, waste);
    }
    // Saliency: W[p][s] = attention from response token s (decode steps) to patch p,
    // mean over heads and over the selected layers with stored maps.
    std::map<int, double> stepNs;
    for (const auto& ph : d.phases)
        if (ph.phase == Phase::Decode) stepNs[ph.step] = double(ph.endNs - ph.startNs);
    std::vector<int> responsePositions;
    for (const auto& t : d.tokens)
        if (t.phase == Phase::Decode) responsePositions.push_back(t.position);
    const auto visual = patchOfPosition(d);
    int used = 0;
    std::vector<std::vector<double>> w(size_t(patches),
                                       std::vector<double>(responsePositions.size(), 0.0));
    for (const auto& [layer, maps] : d.attnMaps) {
        if (!layers.contains(layer) || maps.empty()) continue;
        ++used;
        for (const auto& m : maps)
            for (size_t s = 0; s < responsePositions.size(); ++s) {
                const int q = responsePositions[s];
                if (q >= m.rows || m.data.empty()) continue;
                for (const auto& [position, p] : visual)
                    if (position < m.cols && p >= 0 && p < patches)
                        w[size_t(p)][s] +=
                            m.data[size_t(q) * m.cols + size_t(position)] / double(maps.size());
            }
    }
    if (used > 0 && !responsePositions.empty() && phase != Phase::Prefill) {
        for (auto& row : w)
            for (auto& x : row)
                x /= used;
        std::vector<double> q;
        for (const auto& t : d.tokens)
            if (t.phase == Phase::Decode)
                q.push_back(stepNs.count(t.step) ? stepNs[t.step] / 1e6 : 0.0); // ms
        out["saliency"] = gridOf(g, blendHeatmap(w, q));
    }
    return out;
}

} // namespace mvp
