#include "core/analysis/Resampling.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace mvp {

namespace {
double mean(const std::vector<double>& x) {
    double s = 0;
    for (double v : x)
        s += v;
    return x.empty() ? 0.0 : s / double(x.size());
}

// Per token both arms hold: Δcos and relative L2 drift of its value vector.
void compareVectors(const VisualTokenObservation::Layer& a, const VisualTokenObservation::Layer& b,
                    int dim, LayerResampling& out) {
    std::map<int, size_t> rowOf;
    for (size_t i = 0; i < b.patches.size(); ++i)
        rowOf[b.patches[i]] = i;
    std::vector<double> dcos, l2;
    for (size_t i = 0; i < a.patches.size(); ++i) {
        const auto it = rowOf.find(a.patches[i]);
        if (it == rowOf.end()) continue;
        const float* v = a.values.data() + i * size_t(dim);
        const float* w = b.values.data() + it->second * size_t(dim);
        double dot = 0, nv = 0, nw = 0, diff = 0;
        for (int k = 0; k < dim; ++k) {
            dot += double(v[k]) * w[k];
            nv += double(v[k]) * v[k];
            nw += double(w[k]) * w[k];
            diff += (double(v[k]) - w[k]) * (double(v[k]) - w[k]);
        }
        if (nv <= 0) continue;
        dcos.push_back(nw > 0 ? 1.0 - dot / std::sqrt(nv * nw) : 1.0);
        l2.push_back(std::sqrt(diff / nv));
    }
    out.tokens = int(dcos.size());
    out.dcosMean = mean(dcos);
    out.dcosP95 = percentile95(dcos);
    out.l2Mean = mean(l2);
    out.l2P95 = percentile95(l2);
}

// Per decode query: KL over the patches both hold, and the mass the what-if lost.
void compareAttention(const VisualTokenObservation::Layer& a,
                      const VisualTokenObservation::Layer& b, LayerResampling& out) {
    std::vector<bool> held;
    for (int p : b.patches) {
        if (p >= int(held.size())) held.resize(size_t(p) + 1, false);
        held[size_t(p)] = true;
    }
    std::vector<double> kl, lost;
    const size_t queries = std::min(a.attention.size(), b.attention.size());
    for (size_t q = 0; q < queries; ++q) {
        const auto& p = a.attention[q];
        const auto& r = b.attention[q];
        double totalP = 0, keptP = 0, keptR = 0;
        for (size_t i = 0; i < p.size() && i < r.size(); ++i) {
            totalP += p[i];
            if (i < held.size() && held[i]) keptP += p[i], keptR += r[i];
        }
        if (keptP <= 0 || keptR <= 0) continue;
        double d = 0;
        for (size_t i = 0; i < p.size() && i < r.size(); ++i)
            if (i < held.size() && held[i] && p[i] > 0)
                d += p[i] / keptP * std::log((p[i] / keptP) / std::max(r[i] / keptR, 1e-300));
        kl.push_back(std::max(0.0, d));
        lost.push_back(totalP > 0 ? 1.0 - keptP / totalP : 0.0);
    }
    out.queries = int(kl.size());
    out.klMean = mean(kl);
    out.klP95 = percentile95(kl);
    out.lostMass = mean(lost);
}

struct Figure {
    const char* name;
    double LayerResampling::*field;
    const char* note;
};
constexpr Figure kFigures[] = {
    {"dcos_mean", &LayerResampling::dcosMean, "mean over visual tokens of 1 − cos(v, v′), v the value vector attention reads"},
    {"dcos_p95", &LayerResampling::dcosP95, "95th percentile of 1 − cos(v, v′) over visual tokens"},
    {"l2_mean", &LayerResampling::l2Mean, "mean relative L2 drift ‖v − v′‖ / ‖v‖ of the visual value vectors"},
    {"l2_p95", &LayerResampling::l2P95, "95th percentile of the relative L2 drift"},
    {"kl_mean", &LayerResampling::klMean, "mean over decode queries of KL(p ‖ p′), their attention over the patches both runs hold"},
    {"kl_p95", &LayerResampling::klP95, "95th percentile over decode queries of that KL"},
    {"lost_mass", &LayerResampling::lostMass, "the baseline's share of visual attention on patches the what-if dropped"},
};
} // namespace

double percentile95(std::vector<double> x) {
    if (x.empty()) return 0;
    std::sort(x.begin(), x.end());
    const size_t rank = size_t(std::ceil(0.95 * double(x.size())));
    return x[std::max<size_t>(rank, 1) - 1];
}

std::vector<LayerResampling> resamplingLoss(const VisualTokenObservation& base,
                                            const VisualTokenObservation& whatIf) {
    std::vector<LayerResampling> out;
    if (base.dim != whatIf.dim || base.dim <= 0) return out;
    for (size_t l = 0; l < base.layers.size() && l < whatIf.layers.size(); ++l) {
        LayerResampling r;
        r.layer = int(l);
        compareVectors(base.layers[l], whatIf.layers[l], base.dim, r);
        compareAttention(base.layers[l], whatIf.layers[l], r);
        out.push_back(r);
    }
    return out;
}

std::vector<RunMetricRow> resamplingMetrics(const std::vector<LayerResampling>& layers) {
    std::vector<RunMetricRow> m;
    for (const auto& r : layers)
        for (const auto& f : kFigures)
            m.push_back({"resample.L" + std::to_string(r.layer) + "." + f.name, r.*f.field,
                         "ratio", "measured",
                         std::string(f.note) + " (" + std::to_string(r.tokens) + " tokens, " +
                             std::to_string(r.queries) + " queries)"});
    return m;
}

std::vector<LayerResampling> resamplingFromMetrics(const std::vector<RunMetricRow>& metrics) {
    std::map<int, LayerResampling> byLayer;
    for (const auto& m : metrics) {
        if (m.name.rfind("resample.L", 0) != 0) continue;
        const size_t dot = m.name.find('.', 10);
        if (dot == std::string::npos) continue;
        int layer = 0;
        try {
            layer = std::stoi(m.name.substr(10, dot - 10));
        } catch (const std::exception&) {
            continue; // a foreign name: not ours to read
        }
        auto& r = byLayer[layer];
        r.layer = layer;
        for (const auto& f : kFigures)
            if (m.name.compare(dot + 1, std::string::npos, f.name) == 0) r.*f.field = m.value;
    }
    std::vector<LayerResampling> out;
    for (auto& [layer, r] : byLayer)
        out.push_back(r);
    return out;
}

} // namespace mvp
