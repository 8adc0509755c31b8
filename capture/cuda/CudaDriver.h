#pragma once
// Whether this machine can run CUDA work at all, asked of the driver itself
// (libcuda opened with dlopen: no build or load dependency), so that GPU
// captures fail with the reason and GPU tests skip cleanly (exit 77) on a
// machine without a GPU (docs/capture-notes.md §7). Plain C++.

#include <cstdint>
#include <string>

namespace mvp::cuda {

struct CudaAvailability {
    int devices = 0;
    std::string reason; // why no CUDA work can run here; empty when devices > 0
    bool available() const { return devices > 0; }
};

// Opens `library`, calls cuInit(0) and counts the devices.
CudaAvailability probeCudaDriver(const std::string& library = "libcuda.so.1");

struct CudaDeviceInfo {
    std::string name;       // "NVIDIA H200"; empty where the driver does not say
    int64_t totalBytes = 0; // device memory
    std::string pciBusId;   // "0000:3b:00.0": names the GPU to NVML; empty where unknown
};
// What the driver says of device `index` (after probeCudaDriver found it).
CudaDeviceInfo cudaDeviceInfo(int index, const std::string& library = "libcuda.so.1");

// The calling thread's current CUDA context (a CUcontext), or null where it
// has none (the model has not run CUDA work on this thread) or no driver loads.
void* currentCudaContext(const std::string& library = "libcuda.so.1");

} // namespace mvp::cuda
