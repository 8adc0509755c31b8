#pragma once
// The resampling loss of a what-if's visual tokens (DIAGNOSTICS.md §7): how
// far the visual tokens the decoder works with moved after pruning, merging
// or quantising the KV cache, per decoder layer. Plain C++: the capture fills
// the observations, this file does the arithmetic.

#include "core/session/Records.h"

#include <string>
#include <vector>

namespace mvp {

// What one arm of a what-if showed of its visual tokens, per decoder layer:
// the value vectors attention reads for each visual token after the prefill
// (for a merged INT4 cache, their reconstruction), and each decode step's
// attention over the image's patches (mean over heads; a merged slot's share
// split evenly among its tokens).
struct VisualTokenObservation {
    int dim = 0;         // values per vector (KV heads × head size)
    int gridPatches = 0; // patches of the image
    struct Layer {
        std::vector<int> patches;                   // the patch of each row of `values`
        std::vector<float> values;                  // rows × dim
        std::vector<std::vector<double>> attention; // per decode query: gridPatches entries
    };
    std::vector<Layer> layers;
};

struct LayerResampling {
    int layer = 0;
    int tokens = 0, queries = 0;      // visual tokens both arms hold; decode queries compared
    double dcosMean = 0, dcosP95 = 0; // Δcos = 1 − cos(v, v′) over those tokens
    double l2Mean = 0, l2P95 = 0;     // relative L2 drift ‖v − v′‖₂ / ‖v‖₂
    // ΔKL(p ‖ p′) per query, p and p′ its attention over the patches both
    // hold, each renormalised there (natural log).
    double klMean = 0, klP95 = 0;
    // The baseline's share of visual attention on patches the what-if
    // dropped, mean over queries: what ΔKL cannot see.
    double lostMass = 0;
};

// Layer by layer, over the layers both observations have.
std::vector<LayerResampling> resamplingLoss(const VisualTokenObservation& base,
                                            const VisualTokenObservation& whatIf);

// As run metrics "resample.L<layer>.<figure>" (measured), and back.
std::vector<RunMetricRow> resamplingMetrics(const std::vector<LayerResampling>& layers);
std::vector<LayerResampling> resamplingFromMetrics(const std::vector<RunMetricRow>& metrics);

// The nearest-rank 95th percentile (0 for no values).
double percentile95(std::vector<double> values);

} // namespace mvp
