#pragma once
// KV-cache region sharing and resampling loss (docs/diagnostics.md §7).

#include "core/session/Records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

// |∪ masks| / L: the share of the L sequence positions used by at least one region.
double kvShareRatio(const std::vector<std::vector<bool>>& regionMasks, int64_t sequenceLength);

// 4-connected regions of the grid cells whose value is ≥ threshold: one mask per
// region over the cells (row-major).
std::vector<std::vector<bool>> thresholdRegions(const std::vector<double>& grid, int rows, int cols,
                                                double threshold);

struct Spread {
    double mean = 0, p95 = 0;
    int64_t samples = 0;
};

struct ResamplingLoss {
    Spread deltaCos; // 1 − cos(v, v')
    Spread relL2;    // ‖v − v'‖ / ‖v‖
    Spread deltaKl;  // KL(p ‖ q) between attention rows before / after
};

// v, v2: n vectors of dimension d (row-major); p, q: m attention rows of width w.
// Either pair may be empty.
ResamplingLoss resamplingLoss(const std::vector<float>& v, const std::vector<float>& v2, int d,
                              const std::vector<float>& p, const std::vector<float>& q, int w);

Spread spreadOf(std::vector<double> values); // mean and p95 (nearest rank)

// What one arm of a what-if showed of its visual tokens, per decoder layer
// (Capturer::observeVisualTokens): the value vectors attention reads for each
// visual token after the prefill (for a merged INT4 cache, their
// reconstruction), and each decode step's attention over the image's patches
// (mean over heads; a merged slot's share split evenly among its tokens).
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

// One decoder layer's resampling loss between a baseline and a what-if: v
// and v′ the value vectors of the visual tokens both hold, p and p′ each
// decode query's attention over the patches both hold, renormalised there;
// `lostMass` the baseline's share of visual attention on patches the what-if
// dropped (mean over queries), which ΔKL cannot see.
struct LayerResampling {
    int layer = 0;
    ResamplingLoss loss;
    double lostMass = 0;
};

// Layer by layer, over the layers both observations have; empty when their
// vector sizes differ.
std::vector<LayerResampling> resamplingLoss(const VisualTokenObservation& base,
                                            const VisualTokenObservation& whatIf);

// As run metrics "resample.L<layer>.<figure>" (measured), and back.
std::vector<RunMetricRow> resamplingMetrics(const std::vector<LayerResampling>& layers);
std::vector<LayerResampling> resamplingFromMetrics(const std::vector<RunMetricRow>& metrics);

} // namespace mvp
