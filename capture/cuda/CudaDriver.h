#pragma once
// Whether this machine can run CUDA work at all, asked of the driver itself
// (libcuda opened with dlopen: no build or load dependency), so that GPU
// captures fail with the reason and GPU tests skip cleanly (exit 77) on a
// machine without a GPU (capture-tech.md §7). Plain C++.

#include <string>

namespace mvp::cuda {

struct CudaAvailability {
    int devices = 0;
    std::string reason; // why no CUDA work can run here; empty when devices > 0
    bool available() const { return devices > 0; }
};

// Opens `library`, calls cuInit(0) and counts the devices.
CudaAvailability probeCudaDriver(const std::string& library = "libcuda.so.1");

} // namespace mvp::cuda
