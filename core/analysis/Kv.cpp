#include "core/analysis/Kv.h"

#include <algorithm>
#include <cmath>
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

} // namespace mvp
