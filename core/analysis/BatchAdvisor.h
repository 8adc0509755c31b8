#pragma once
// Adaptive batch sizing (docs/diagnostics.md §10): per-sample bytes
// k · (R²·3·4 + L·1024 + H·8) with k calibrated so the model matches the
// captured sample's measured memory — what the run held beyond the loaded,
// warmed-up process, at the model's input size R — and B = min(B_max,
// ⌊M / per-sample⌋). A sample of ≤ 0 bytes gives no advice, with the reason.

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

struct BatchBucket {
    int shortSide = 0;       // R, pixels
    int textTokens = 0;      // L
    double entropyBits = 0;  // H
    int64_t sampleBytes = 0; // predicted
    int batch = 0;           // predicted
};

struct BatchAdvice {
    bool valid = false;
    std::string why;  // when not valid
    double scale = 0; // k: measured bytes / modelled bytes of the captured sample
    // M: the host's available memory at capture (measured), or on a GPU
    // (onGpu) its memory less what tensors held as the run began (derived).
    int64_t freeBytes = 0;
    bool onGpu = false;
    int maxBatch = 0; // B_max
    std::vector<BatchBucket>
        buckets; // 27: R ∈ {256,512,1024} × L ∈ {32,128,512} × H ∈ {0.8,1.6,3.2}
};

double modelledSampleBytes(int shortSide, int textTokens, double entropyBits);

BatchAdvice adviseBatch(int64_t measuredSampleBytes, int shortSide, int textTokens,
                        double entropyBits, int64_t freeBytes, int maxBatch = 256);

} // namespace mvp
