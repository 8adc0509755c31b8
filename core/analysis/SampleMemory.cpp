#include "core/analysis/SampleMemory.h"

namespace mvp {

std::optional<GpuMemoryUse> gpuMemoryUse(const RunData& d) {
    const auto* start = findMetric(d, "gpu.memory_start_bytes");
    const auto* peak = findMetric(d, "gpu.peak_allocated_bytes");
    if (!start || !peak) return std::nullopt;
    return GpuMemoryUse{start->value, peak->value};
}

std::optional<double> gpuPeakBytes(const RunData& d) {
    const auto use = gpuMemoryUse(d);
    const auto* weights = findMetric(d, "weights.bytes");
    if (!use || !weights) return std::nullopt;
    return weights->value + use->grownBytes();
}

namespace {
// The process's peak resident memory over its start (the model loaded and
// warmed up, so weights in their dtype, KV cache and activations are what
// grew). Runs written before the start was recorded fall back to the peak
// less the stored weights (or the parameters in float32).
int64_t hostSampleBytes(const RunData& d, int64_t parameters) {
    if (const auto* start = findMetric(d, "memory.rss_start_bytes"); start && start->value > 0)
        return d.run.peakRssBytes - int64_t(start->value);
    if (const auto* weights = findMetric(d, "weights.bytes"))
        return d.run.peakRssBytes - int64_t(weights->value);
    return d.run.peakRssBytes - parameters * 4;
}
} // namespace

SampleMemory sampleMemory(const RunData& d, int64_t parameters) {
    // On a GPU the host's memory holds neither the weights nor the KV cache.
    if (const auto use = gpuMemoryUse(d); use && d.device && d.device->memoryTotalBytes > 0)
        return {int64_t(use->peakBytes - use->startBytes),
                d.device->memoryTotalBytes - int64_t(use->startBytes), true};
    return {hostSampleBytes(d, parameters), d.device ? d.device->memoryAvailableBytes : 0, false};
}

} // namespace mvp
