#include "capture/machine/DeviceMemory.h"

#include "core/ErrorText.h"

#if MVP_TORCH_DEVICE_STATS
#include <ATen/DeviceAccelerator.h>
#endif
#include <torch/version.h>

namespace mvp {

namespace {
const std::string kSource = "libtorch's CUDA caching allocator";

#if MVP_TORCH_DEVICE_STATS
// Index 0 of each statistic is the aggregate over the allocator's pools
// (StatType::AGGREGATE, whose namespace moved between 2.x releases).
struct Reading {
    int64_t allocated = 0, peakAllocated = 0, peakReserved = 0;
};
Reading read(int index) {
    const auto stats = at::accelerator::getDeviceStats(c10::DeviceIndex(index));
    return {stats.allocated_bytes[0].current, stats.allocated_bytes[0].peak,
            stats.reserved_bytes[0].peak};
}
#endif
} // namespace

DeviceMemoryWatch::DeviceMemoryWatch(int cudaIndex) : index_(cudaIndex) {
#if MVP_TORCH_DEVICE_STATS
    try {
        at::accelerator::resetPeakStats(c10::DeviceIndex(index_));
        startBytes_ = read(index_).allocated;
    } catch (const std::exception& e) { // no CUDA allocator in this process, or no such device
        why_ = kSource + " did not answer: " + firstLine(e);
    }
#else
    why_ = "this build's libtorch (" TORCH_VERSION ") has no device-allocator statistics "
           "(at::accelerator::getDeviceStats, libtorch 2.8 and later)";
#endif
}

std::vector<RunMetricRow> DeviceMemoryWatch::finish() const {
    auto absent = [&](const std::string& why) {
        return std::vector<RunMetricRow>{
            {"gpu.memory_available", 0, "", "measured", "n/a: " + why}};
    };
    if (!startBytes_) return absent(why_);
#if MVP_TORCH_DEVICE_STATS
    try {
        const Reading end = read(index_);
        const std::string device = "cuda:" + std::to_string(index_);
        return {{"gpu.memory_start_bytes", double(*startBytes_), "bytes", "measured",
                 kSource + ": bytes held by tensors on " + device +
                     " as the run began (model loaded, warmed up)"},
                {"gpu.peak_allocated_bytes", double(end.peakAllocated), "bytes", "measured",
                 kSource + ": the most bytes held by tensors on " + device +
                     " during the run (its peak reset as the run began); what the run itself "
                     "held is this less gpu.memory_start_bytes"},
                {"gpu.peak_reserved_bytes", double(end.peakReserved), "bytes", "measured",
                 kSource + ": the most bytes it held from the driver on " + device +
                     " during the run, its cached free blocks included"}};
    } catch (const std::exception& e) {
        return absent(kSource + " did not answer: " + firstLine(e));
    }
#else
    return absent(why_);
#endif
}

} // namespace mvp
