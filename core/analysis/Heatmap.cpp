#include "core/analysis/Heatmap.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

namespace mvp {

Result<LayerRange> parseLayerRange(const std::string& text) {
    if (text.empty() || text == "all") return LayerRange{};
    auto parse = [](std::string_view s, int& out) {
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && p == s.data() + s.size() && out >= 0;
    };
    const auto dash = text.find('-');
    LayerRange r;
    bool ok = dash == std::string::npos
                  ? parse(text, r.first) && parse(text, r.last)
                  : parse(std::string_view(text).substr(0, dash), r.first) &&
                        parse(std::string_view(text).substr(dash + 1), r.last);
    if (!ok || r.first > r.last)
        return makeError(ErrorCode::BadInput,
                         "layer range '" + text + "' is not valid: use N, A-B (A ≤ B) or all");
    return r;
}

HeatGrid combineLayers(const std::map<int, std::vector<double>>& byLayer, int rows, int cols,
                       LayerCombine combine) {
    HeatGrid g;
    g.rows = rows;
    g.cols = cols;
    g.values.assign(size_t(rows) * size_t(cols), 0.0);
    for (const auto& [layer, values] : byLayer) {
        double scale = 1;
        if (combine == LayerCombine::PerLayerNormalised) {
            double top = 0;
            for (const double v : values)
                top = std::max(top, std::abs(v));
            scale = top > 0 ? 1.0 / (top * double(byLayer.size())) : 0.0;
        }
        for (size_t i = 0; i < g.values.size() && i < values.size(); ++i)
            g.values[i] += values[i] * scale;
    }
    return g;
}

Result<HeatGrid> gridFromMetrics(const std::vector<PatchMetricRow>& rows, const PatchGridRow& grid,
                                 LayerRange range, LayerCombine combine) {
    const size_t patches = size_t(grid.gridH) * size_t(grid.gridW);
    std::map<int, std::vector<double>> byLayer;
    std::set<int> seen;
    for (const auto& r : rows) {
        seen.insert(r.layer);
        if (!range.contains(r.layer) || r.patch < 0 || size_t(r.patch) >= patches) continue;
        auto& layer = byLayer[r.layer];
        layer.resize(patches, 0.0);
        layer[size_t(r.patch)] += r.value;
    }
    if (byLayer.empty()) {
        std::string have;
        for (int l : seen)
            have += (have.empty() ? "" : ", ") + std::to_string(l);
        return makeError(ErrorCode::NotFound,
                         seen.empty()
                             ? std::string("the run has no values of this metric")
                             : "no layer in the requested range; layers with values: " + have);
    }
    return combineLayers(byLayer, grid.gridH, grid.gridW, combine);
}

HeatGrid normalised(const HeatGrid& g) {
    HeatGrid n = g;
    if (g.values.empty()) return n;
    const auto [lo, hi] = std::minmax_element(g.values.begin(), g.values.end());
    const double span = *hi - *lo;
    for (auto& v : n.values)
        v = span > 0 ? (v - *lo) / span : 0.0;
    return n;
}

ScaleRange scaleRange(const HeatGrid& g, HeatScale scale, double uniformBelow) {
    ScaleRange r;
    r.scale = scale;
    if (g.values.empty()) return r;
    const auto [lo, hi] = std::minmax_element(g.values.begin(), g.values.end());
    double sum = 0;
    for (const double v : g.values)
        sum += v;
    const double mean = sum / double(g.values.size());
    const double span = *hi - *lo;
    r.spread = span == 0 ? 0.0 : mean != 0 ? span / std::abs(mean) : HUGE_VAL;
    r.uniform = r.spread < uniformBelow;
    const bool fromZero = scale != HeatScale::Range;
    r.low = fromZero ? std::min(0.0, *lo) : *lo;
    r.high = fromZero ? std::max(0.0, *hi) : *hi;
    return r;
}

ScaleRange sharedScale(const std::vector<const HeatGrid*>& grids, HeatScale scale,
                       double uniformBelow) {
    HeatGrid all;
    for (const HeatGrid* g : grids)
        all.values.insert(all.values.end(), g->values.begin(), g->values.end());
    return scaleRange(all, scale, uniformBelow);
}

HeatGrid onScale(const HeatGrid& g, const ScaleRange& range) {
    HeatGrid n = g;
    const double span = range.high - range.low;
    for (auto& v : n.values)
        v = span > 0 ? std::clamp((v - range.low) / span, 0.0, 1.0) : 0.0;
    return n;
}

RgbImage renderOverlay(const RgbImage& image, const HeatGrid& grid, Colormap map, double opacity) {
    RgbImage out = image;
    if (grid.values.empty() || image.empty()) return out;
    const std::vector<float> src(grid.values.begin(), grid.values.end());
    const auto up = upsampleBilinear(src, grid.rows, grid.cols, image.height, image.width);
    const double a = std::clamp(opacity, 0.0, 1.0);
    for (size_t i = 0; i < up.size(); ++i) {
        const auto c = colorAt(map, up[i]);
        for (int k = 0; k < 3; ++k) {
            auto& px = out.rgb[i * 3 + size_t(k)];
            px = uint8_t(std::lround((1.0 - a) * px + a * c[size_t(k)]));
        }
    }
    return out;
}

std::string gridCsv(const HeatGrid& g) {
    std::string out;
    char buf[32];
    for (int r = 0; r < g.rows; ++r) {
        for (int c = 0; c < g.cols; ++c) {
            std::snprintf(buf, sizeof buf, "%.17g", g.at(r, c));
            out += (c ? "," : "");
            out += buf;
        }
        out += '\n';
    }
    return out;
}

} // namespace mvp
