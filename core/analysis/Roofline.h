#pragma once
// Roofline (docs/diagnostics.md §8) and the cross-modal attention bandwidth model (§4).

#include "core/session/Records.h"

#include <string>
#include <vector>

namespace mvp {

struct DeviceCeiling {
    std::string name;
    double peakFlops = 0;     // FLOP/s
    double peakBytesPerS = 0; // DRAM bytes/s
    std::string source;       // "datasheet" or "measured …"
    double ridge() const { return peakBytesPerS > 0 ? peakFlops / peakBytesPerS : 0; } // FLOP/byte
};

// Datasheet ceilings (dense, no sparsity) of the GPUs the product compares against.
std::vector<DeviceCeiling> datasheetDevices();
DeviceCeiling ceilingOf(const DeviceRow& d);

enum class Bound { Memory, Compute, Unknown };
const char* toString(Bound b);

struct RooflinePoint {
    std::string name;
    int64_t flops = 0, bytes = 0; // estimated from shapes, or counted (below)
    int64_t ns = 0;               // measured
    // FLOPs and DRAM bytes counted by the GPU's hardware counters and `ns`
    // their kernel time (--hw-counters), not estimated from shapes.
    bool counted = false;
    double intensity = 0;       // FLOP / byte
    double achievedFlops = 0;   // flops / time (FLOP/s)
    double attainableFlops = 0; // min(peak, AI · bandwidth) (predicted)
    Bound bound = Bound::Unknown;
    double mismatch = 0; // 1 − AI / ridge for memory-bound parts, else 0
};

RooflinePoint rooflinePoint(const std::string& name, int64_t flops, int64_t bytes, int64_t ns,
                            const DeviceCeiling& d);

// Required bandwidth of a fused image-text attention kernel:
// 2 · (visualTokens · C + textTokens · D) · bytesPerElement / seconds.
double crossModalBandwidth(int64_t visualTokens, int64_t channels, int64_t textTokens, int64_t dim,
                           int bytesPerElement, double seconds);

} // namespace mvp
