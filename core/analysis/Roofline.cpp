#include "core/analysis/Roofline.h"

#include <algorithm>

namespace mvp {

std::vector<DeviceCeiling> datasheetDevices() {
    // NVIDIA datasheets, SXM parts, dense BF16/FP16 tensor-core peaks.
    return {
        {"A100 SXM 80GB (BF16 tensor)", 312e12, 2039e9, "datasheet"},
        {"H100 SXM (BF16 tensor)", 989.5e12, 3350e9, "datasheet"},
        {"H200 SXM (BF16 tensor)", 989.5e12, 4800e9, "datasheet"},
    };
}

DeviceCeiling ceilingOf(const DeviceRow& d) {
    return {d.name, d.peakFlops, d.peakBytesPerS, d.source};
}

const char* toString(Bound b) {
    switch (b) {
    case Bound::Memory:
        return "memory";
    case Bound::Compute:
        return "compute";
    case Bound::Unknown:
        break;
    }
    return "unknown";
}

RooflinePoint rooflinePoint(const std::string& name, int64_t flops, int64_t bytes, int64_t ns,
                            const DeviceCeiling& d) {
    RooflinePoint p;
    p.name = name;
    p.flops = flops;
    p.bytes = bytes;
    p.ns = ns;
    if (bytes > 0) p.intensity = double(flops) / double(bytes);
    if (ns > 0) p.achievedFlops = double(flops) / (double(ns) * 1e-9);
    const double ridge = d.ridge();
    if (bytes > 0 && ridge > 0) {
        p.attainableFlops = std::min(d.peakFlops, p.intensity * d.peakBytesPerS);
        p.bound = p.intensity < ridge ? Bound::Memory : Bound::Compute;
        if (p.bound == Bound::Memory) p.mismatch = 1.0 - p.intensity / ridge;
    }
    return p;
}

double crossModalBandwidth(int64_t visualTokens, int64_t channels, int64_t textTokens, int64_t dim,
                           int bytesPerElement, double seconds) {
    if (seconds <= 0) return 0;
    return 2.0 * double(visualTokens * channels + textTokens * dim) * bytesPerElement / seconds;
}

} // namespace mvp
