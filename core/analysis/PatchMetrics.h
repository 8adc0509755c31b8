#pragma once
// Per-patch metrics of a run for the heatmap (docs/diagnostics.md §2):
//   attention    Σ over text queries of the attention paid to the patch (measured)
//   answer_attention  the same from the queries that generate the answer only:
//                the prompt's last position and each decode step up to EOS
//                (measured; whatever phase is selected)
//   expert_flops FLOPs of the experts that processed the patch's token (estimated)
//   latency      time of those experts, shared among the tokens they processed (measured)
//   saliency     the multi-granularity blend of §2 with W = attention from each
//                response token and q = its decode step's latency (needs --attn-layers)
//   waste        high cost, low attention: max(0, norm(expert_flops) − norm(attention))

#include "core/Provenance.h"
#include "core/analysis/Heatmap.h"
#include "core/image/ColourBar.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

// A heatmap metric: how its values were obtained and their unit ("" for a score).
struct HeatMetric {
    std::string_view name;
    Provenance provenance;
    std::string_view unit;
};
// Every metric, in display order.
const std::vector<HeatMetric>& heatMetrics();
std::optional<HeatMetric> heatMetric(std::string_view name);

// One value in the metric's unit with an SI prefix ("5.07 us", "100 kFLOP";
// a score without a unit as a number).
std::string metricValueText(const HeatMetric& metric, double value);

// The colour bar's text for a metric's raw (unnormalised) grid: name,
// provenance, unit and the grid's maximum and minimum in SI units.
ColourBarText heatLegend(const HeatMetric& metric, const HeatGrid& raw,
                         const std::string& layers = "all layers");
// The same, its ends those of the colour scale (0 for an absolute one).
ColourBarText heatLegend(const HeatMetric& metric, const ScaleRange& scale,
                         const std::string& layers = "all layers");

struct RunData;

// Sequence position of each visual token → its image patch (pruned runs skip patches).
std::map<int, int> patchOfPosition(const RunData& data);

// a_p = Σ_s W[p][s]·q_s, min-max normalised (patch level); softmax(q) attributed
// through W (sequence level); h = patchWeight·patch + (1 − patchWeight)·sequence.
std::vector<double> blendHeatmap(const std::vector<std::vector<double>>& w,
                                 const std::vector<double>& q, double patchWeight = 0.6);

// Every metric the run has data for, over `layers` (summed, or each layer
// normalised to its maximum and averaged: attention, answer_attention and the
// experts' costs), for one phase (prefill or decode) or the whole run
// (nullopt). Saliency needs decode steps; it and waste blend normalised
// grids of their own either way.
std::map<std::string, HeatGrid> computePatchMetrics(const RunData& data, LayerRange layers = {},
                                                    std::optional<Phase> phase = {},
                                                    LayerCombine combine = LayerCombine::Sum);

} // namespace mvp
