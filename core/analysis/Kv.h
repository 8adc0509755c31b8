#pragma once
// KV-cache region sharing and resampling loss (DIAGNOSTICS.md §7).

#include <cstdint>
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

} // namespace mvp
