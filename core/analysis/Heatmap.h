#pragma once
// Patch heatmaps: a value per visual patch on the gh × gw grid, normalised,
// upsampled to the image and blended over it (docs/diagnostics.md §2).

#include "core/Result.h"
#include "core/image/Colormap.h"
#include "core/image/Image.h"
#include "core/session/Records.h"

#include <map>
#include <string>
#include <vector>

namespace mvp {

struct HeatGrid {
    int rows = 0, cols = 0;
    std::vector<double> values; // rows·cols, row-major (patch index order)
    double at(int r, int c) const { return values[size_t(r) * cols + c]; }
};

struct LayerRange {
    int first = 0, last = 1 << 30; // inclusive
    bool contains(int layer) const { return layer >= first && layer <= last; }
};

// Parses "3", "2-5" or "all"; an error says the accepted forms.
Result<LayerRange> parseLayerRange(const std::string& text);

// How the layers of a range combine into one grid: summed (the metric's own
// unit), or each layer's grid divided by its largest |value| and then
// averaged over the layers — a layer with larger values no longer drowns
// the others (unitless, derived; an all-zero layer counts as zeros).
enum class LayerCombine { Sum, PerLayerNormalised };

// One grid from per-layer rows (each layer's values added up per patch).
HeatGrid combineLayers(const std::map<int, std::vector<double>>& byLayer, int rows, int cols,
                       LayerCombine combine);

// One metric over the layers in `range` into the patch grid. An error if no
// row of the metric falls in the range (names the layers that exist).
Result<HeatGrid> gridFromMetrics(const std::vector<PatchMetricRow>& rows, const PatchGridRow& grid,
                                 LayerRange range, LayerCombine combine = LayerCombine::Sum);

// Min-max normalisation to [0, 1]; an all-equal grid becomes all 0.
HeatGrid normalised(const HeatGrid& g);

// How a grid's values map onto a colour scale (docs/diagnostics.md §2).
enum class HeatScale {
    Absolute, // [0, max] (or [min, 0] … for negatives): zero-based, a small spread looks flat
    Range,    // [min, max]: any spread fills the scale
    // [0, max] of the grid whose layers were each normalised to their own
    // maximum first (LayerCombine::PerLayerNormalised): on the scale, as Absolute.
    PerLayer,
};

// Below this relative spread a grid is shown as uniform, not painted: its
// differences are noise next to its size (0.44 % across 64 experts' FLOPs).
inline constexpr double kUniformBelow = 0.05;

struct ScaleRange {
    HeatScale scale = HeatScale::Absolute;
    double low = 0, high = 0; // the values at the scale's two ends
    double spread = 0;        // (max − min) / |mean|; 0 for an all-equal grid
    bool uniform = false;     // spread below the threshold: nothing worth painting
};
ScaleRange scaleRange(const HeatGrid& g, HeatScale scale, double uniformBelow = kUniformBelow);
// One scale for grids shown side by side: the scale of all their values
// together, so equal colours mean equal values across them.
ScaleRange sharedScale(const std::vector<const HeatGrid*>& grids, HeatScale scale,
                       double uniformBelow = kUniformBelow);

// The grid's values on `range`'s scale, in [0, 1] (clamped).
HeatGrid onScale(const HeatGrid& g, const ScaleRange& range);

// The image with the normalised grid upsampled (bilinear, align-corners
// false) to its full size, coloured and blended with `opacity` in [0, 1].
RgbImage renderOverlay(const RgbImage& image, const HeatGrid& normalisedGrid, Colormap map,
                       double opacity);

// The raw grid as CSV: one line per patch row, full precision.
std::string gridCsv(const HeatGrid& g);

} // namespace mvp
