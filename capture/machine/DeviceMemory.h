#pragma once
// The GPU memory a run holds, as libtorch's caching allocator counts it (the
// figures torch.cuda.max_memory_allocated reads): the allocator's peak is
// reset as the run begins and read as it ends. Plain C++ header. Needs
// libtorch's device-allocator statistics (at::accelerator, libtorch 2.8 and
// later, found by CMake); a build against an older libtorch (Debian's 1.13)
// says so in the run metric instead of a number.

#include "core/session/Records.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

class DeviceMemoryWatch {
public:
    // Resets the allocator's peak for CUDA device `cudaIndex` and reads the
    // bytes its tensors hold now (the model loaded and warmed up).
    explicit DeviceMemoryWatch(int cudaIndex);
    // After the run: gpu.memory_start_bytes, gpu.peak_allocated_bytes (the most
    // bytes tensors held during the run) and gpu.peak_reserved_bytes (the most
    // the allocator held from the driver, cached blocks included), all
    // measured; or gpu.memory_available = 0 whose note says why there are none.
    std::vector<RunMetricRow> finish() const;

private:
    int index_ = 0;
    std::optional<int64_t> startBytes_;
    std::string why_; // why there are no figures, where there are none
};

} // namespace mvp
