#include "core/analysis/Kv.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace mvp {

double kvShareRatio(const std::vector<std::vector<bool>>& masks, int64_t length) {
    if (length <= 0) return 0;
    int64_t used = 0;
    for (int64_t i = 0; i < length; ++i)
        for (const auto& m : masks)
            if (size_t(i) < m.size() && m[size_t(i)]) {
                ++used;
                break;
            }
    return double(used) / double(length);
}

std::vector<std::vector<bool>> thresholdRegions(const std::vector<double>& grid, int rows, int cols,
                                                double threshold) {
    std::vector<std::vector<bool>> regions;
    std::vector<int> label(grid.size(), -1);
    for (int start = 0; start < rows * cols; ++start) {
        if (label[size_t(start)] >= 0 || grid[size_t(start)] < threshold) continue;
        std::vector<bool> mask(grid.size(), false);
        std::vector<int> stack{start};
        label[size_t(start)] = int(regions.size());
        while (!stack.empty()) {
            const int c = stack.back();
            stack.pop_back();
            mask[size_t(c)] = true;
            const int r = c / cols, k = c % cols;
            const int next[4][2] = {{r - 1, k}, {r + 1, k}, {r, k - 1}, {r, k + 1}};
            for (const auto& n : next) {
                if (n[0] < 0 || n[0] >= rows || n[1] < 0 || n[1] >= cols) continue;
                const int i = n[0] * cols + n[1];
                if (label[size_t(i)] < 0 && grid[size_t(i)] >= threshold) {
                    label[size_t(i)] = int(regions.size());
                    stack.push_back(i);
                }
            }
        }
        regions.push_back(std::move(mask));
    }
    return regions;
}

Spread spreadOf(std::vector<double> v) {
    Spread s;
    s.samples = int64_t(v.size());
    if (v.empty()) return s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    std::sort(v.begin(), v.end());
    const size_t rank = size_t(std::ceil(0.95 * double(v.size())));
    s.p95 = v[std::max<size_t>(rank, 1) - 1];
    return s;
}

ResamplingLoss resamplingLoss(const std::vector<float>& v, const std::vector<float>& v2, int d,
                              const std::vector<float>& p, const std::vector<float>& q, int w) {
    ResamplingLoss out;
    std::vector<double> dc, l2, kl;
    if (d > 0 && v.size() == v2.size())
        for (size_t i = 0; i + size_t(d) <= v.size(); i += size_t(d)) {
            double dot = 0, na = 0, nb = 0, diff = 0;
            for (size_t k = i; k < i + size_t(d); ++k) {
                dot += double(v[k]) * v2[k];
                na += double(v[k]) * v[k];
                nb += double(v2[k]) * v2[k];
                diff += (double(v[k]) - v2[k]) * (double(v[k]) - v2[k]);
            }
            dc.push_back(na > 0 && nb > 0 ? 1.0 - dot / std::sqrt(na * nb) : 1.0);
            l2.push_back(na > 0 ? std::sqrt(diff / na) : 0.0);
        }
    if (w > 0 && p.size() == q.size())
        for (size_t i = 0; i + size_t(w) <= p.size(); i += size_t(w)) {
            double sum = 0;
            for (size_t k = i; k < i + size_t(w); ++k)
                if (p[k] > 0)
                    sum += double(p[k]) * std::log(double(p[k]) / std::max(double(q[k]), 1e-12));
            kl.push_back(sum);
        }
    out.deltaCos = spreadOf(dc);
    out.relL2 = spreadOf(l2);
    out.deltaKl = spreadOf(kl);
    return out;
}

namespace {
// The two arms' rows for the patches both hold, aligned for resamplingLoss.
struct Aligned {
    std::vector<float> v, v2; // value vectors, row by row
    std::vector<float> p, q;  // attention rows over the common patches, renormalised
    std::vector<double> lost; // per query: the baseline's visual mass on dropped patches
    int width = 0;
};

Aligned align(const VisualTokenObservation::Layer& a, const VisualTokenObservation::Layer& b,
              int dim) {
    Aligned out;
    std::map<int, size_t> rowOf;
    for (size_t i = 0; i < b.patches.size(); ++i)
        rowOf[b.patches[i]] = i;
    std::vector<int> common;
    for (size_t i = 0; i < a.patches.size(); ++i) {
        const auto it = rowOf.find(a.patches[i]);
        if (it == rowOf.end()) continue;
        common.push_back(a.patches[i]);
        const auto* x = a.values.data() + i * size_t(dim);
        const auto* y = b.values.data() + it->second * size_t(dim);
        out.v.insert(out.v.end(), x, x + dim);
        out.v2.insert(out.v2.end(), y, y + dim);
    }
    out.width = int(common.size());
    for (size_t r = 0; r < a.attention.size() && r < b.attention.size(); ++r) {
        const auto &pa = a.attention[r], &pb = b.attention[r];
        double total = 0, keptA = 0, keptB = 0;
        for (double x : pa)
            total += x;
        for (int patch : common)
            if (size_t(patch) < pa.size() && size_t(patch) < pb.size())
                keptA += pa[size_t(patch)], keptB += pb[size_t(patch)];
        if (keptA <= 0 || keptB <= 0) continue;
        for (int patch : common) {
            out.p.push_back(float(pa[size_t(patch)] / keptA));
            out.q.push_back(float(pb[size_t(patch)] / keptB));
        }
        out.lost.push_back(total > 0 ? 1.0 - keptA / total : 0.0);
    }
    return out;
}

struct Figure {
    const char* name;
    double (*get)(const LayerResampling&);
    void (*set)(LayerResampling&, double);
    const char* note;
};
const Figure kFigures[] = {
    {"dcos_mean", [](const LayerResampling& r) { return r.loss.deltaCos.mean; },
     [](LayerResampling& r, double v) { r.loss.deltaCos.mean = v; },
     "mean over visual tokens of 1 − cos(v, v′), v the value vector attention reads"},
    {"dcos_p95", [](const LayerResampling& r) { return r.loss.deltaCos.p95; },
     [](LayerResampling& r, double v) { r.loss.deltaCos.p95 = v; },
     "95th percentile of 1 − cos(v, v′) over visual tokens"},
    {"l2_mean", [](const LayerResampling& r) { return r.loss.relL2.mean; },
     [](LayerResampling& r, double v) { r.loss.relL2.mean = v; },
     "mean relative L2 drift ‖v − v′‖ / ‖v‖ of the visual value vectors"},
    {"l2_p95", [](const LayerResampling& r) { return r.loss.relL2.p95; },
     [](LayerResampling& r, double v) { r.loss.relL2.p95 = v; },
     "95th percentile of the relative L2 drift"},
    {"kl_mean", [](const LayerResampling& r) { return r.loss.deltaKl.mean; },
     [](LayerResampling& r, double v) { r.loss.deltaKl.mean = v; },
     "mean over decode queries of KL(p ‖ p′), their attention over the patches both runs hold"},
    {"kl_p95", [](const LayerResampling& r) { return r.loss.deltaKl.p95; },
     [](LayerResampling& r, double v) { r.loss.deltaKl.p95 = v; },
     "95th percentile over decode queries of that KL"},
    {"lost_mass", [](const LayerResampling& r) { return r.lostMass; },
     [](LayerResampling& r, double v) { r.lostMass = v; },
     "the baseline's share of visual attention on patches the what-if dropped"},
};
} // namespace

std::vector<LayerResampling> resamplingLoss(const VisualTokenObservation& base,
                                            const VisualTokenObservation& whatIf) {
    std::vector<LayerResampling> out;
    if (base.dim != whatIf.dim || base.dim <= 0) return out;
    for (size_t l = 0; l < base.layers.size() && l < whatIf.layers.size(); ++l) {
        const Aligned a = align(base.layers[l], whatIf.layers[l], base.dim);
        LayerResampling r;
        r.layer = int(l);
        r.loss = resamplingLoss(a.v, a.v2, base.dim, a.p, a.q, a.width);
        r.lostMass = spreadOf(a.lost).mean;
        out.push_back(r);
    }
    return out;
}

std::vector<RunMetricRow> resamplingMetrics(const std::vector<LayerResampling>& layers) {
    std::vector<RunMetricRow> m;
    for (const auto& r : layers)
        for (const auto& f : kFigures)
            m.push_back({"resample.L" + std::to_string(r.layer) + "." + f.name, f.get(r), "ratio",
                         "measured",
                         std::string(f.note) + " (" + std::to_string(r.loss.deltaCos.samples) +
                             " tokens, " + std::to_string(r.loss.deltaKl.samples) + " queries)"});
    return m;
}

std::vector<LayerResampling> resamplingFromMetrics(const std::vector<RunMetricRow>& metrics) {
    std::map<int, LayerResampling> byLayer;
    const std::string prefix = "resample.L";
    for (const auto& m : metrics) {
        if (m.name.rfind(prefix, 0) != 0) continue;
        const size_t dot = m.name.find('.', prefix.size());
        if (dot == std::string::npos || dot == prefix.size()) continue;
        const std::string digits = m.name.substr(prefix.size(), dot - prefix.size());
        if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6)
            continue; // a foreign name: not ours to read
        auto& r = byLayer[std::stoi(digits)];
        r.layer = std::stoi(digits);
        for (const auto& f : kFigures)
            if (m.name.compare(dot + 1, std::string::npos, f.name) == 0) f.set(r, m.value);
    }
    std::vector<LayerResampling> out;
    for (auto& [layer, r] : byLayer)
        out.push_back(r);
    return out;
}

} // namespace mvp
