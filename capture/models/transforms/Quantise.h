#pragma once
// Weight quantisation (docs/diagnostics.md §9): W8 / W4, group-wise asymmetric,
// with AWQ-style activation-aware per-input-channel scaling: s = mean|x|^α,
// α searched on a grid over [0, 1] to minimise the layer's output MSE on
// calibration activations; α = 0 is plain round-to-nearest.
//
// Plain C++ entry points over row-major float vectors, for tests and tools;
// the model's own layers use the torch versions in Quantise.cpp.

#include <cstdint>
#include <vector>

namespace mvp {

struct QuantRoundTrip {
    std::vector<float> dequantised; // rows × cols
    std::vector<float> scales;      // rows × groups: each group's step (the stored float16 value)
    int groups = 0;                 // per row
    int64_t bytes = 0;              // packed codes + scales + minimums
};

// Quantises w [rows, cols] in groups of `group` along each row and back.
QuantRoundTrip quantiseRoundTrip(const std::vector<float>& w, int rows, int cols, int bits,
                                 int group);

struct AwqSearch {
    double alpha = 0;  // the chosen exponent
    double mseRtn = 0; // output MSE of plain round-to-nearest (α = 0)
    double mseAwq = 0; // output MSE at the chosen α (≤ mseRtn)
    int64_t bytes = 0; // stored size: codes, scales, minimums, input scale
};

// Searches α for w [rows, cols] on calibration activations x [n, cols].
AwqSearch awqSearch(const std::vector<float>& w, int rows, int cols, const std::vector<float>& x,
                    int n, int bits, int group, int gridPoints = 11);

} // namespace mvp
