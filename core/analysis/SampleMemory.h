#pragma once
// The memory one captured sample held, where it was held: on the GPU when
// the run read its caching allocator (gpu.* metrics, capture/machine/DeviceMemory.h),
// else in the process's resident memory. For the batch advisor (docs/diagnostics.md
// §10) and the what-if comparison's peak memory.

#include "core/analysis/Analysis.h"

#include <cstdint>
#include <optional>

namespace mvp {

// A GPU run's allocator figures (measured): what tensors held as the run
// began, and the most they held during it.
struct GpuMemoryUse {
    double startBytes = 0, peakBytes = 0;
    // What the run itself held: its KV cache, activations and workspaces.
    double grownBytes() const { return peakBytes > startBytes ? peakBytes - startBytes : 0.0; }
};
std::optional<GpuMemoryUse> gpuMemoryUse(const RunData& d);

// The GPU memory the run's configuration needs (derived): its weights
// (weights.bytes) plus what its tensors grew by during the run. Not the
// allocator's raw peak: a what-if's process holds its baseline's model too,
// for the A/B passes. Absent without the allocator figures or the weights.
std::optional<double> gpuPeakBytes(const RunData& d);

// What the advisor calibrates on and divides: the bytes the sample held
// beyond the loaded, warmed-up model (≤ 0: nothing to calibrate on), and the
// room a batch shares — on a GPU its memory less what tensors held as the run
// began (derived), else the host's available memory at capture (measured).
struct SampleMemory {
    int64_t sampleBytes = 0, freeBytes = 0;
    bool onGpu = false;
};
SampleMemory sampleMemory(const RunData& d, int64_t parameters);

} // namespace mvp
