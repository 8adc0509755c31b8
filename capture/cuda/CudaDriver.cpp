#include "capture/cuda/CudaDriver.h"

#include <dlfcn.h>

namespace mvp::cuda {
namespace {

// CUresult codes the reasons name (cuda.h; copied so that no toolkit header
// is needed).
constexpr int kNoDevice = 100, kStubLibrary = 34, kInsufficientDriver = 35;

std::string initFailure(int code) {
    switch (code) {
    case kNoDevice:
        return "no CUDA device: the driver sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE)";
    case kStubLibrary:
        return "no NVIDIA driver: libcuda.so.1 is the toolkit's stub (cuInit: "
               "CUDA_ERROR_STUB_LIBRARY)";
    case kInsufficientDriver:
        return "the NVIDIA driver is older than this CUDA needs (cuInit: "
               "CUDA_ERROR_INSUFFICIENT_DRIVER)";
    default:
        return "the CUDA driver did not start (cuInit returned " + std::to_string(code) + ")";
    }
}

} // namespace

CudaAvailability probeCudaDriver(const std::string& library) {
    CudaAvailability out;
    // Kept open for the process's life: CUDA code will use the same driver.
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        out.reason = "no NVIDIA driver: " + library + " cannot be loaded";
        return out;
    }
    using Init = int (*)(unsigned);
    using Count = int (*)(int*);
    auto init = reinterpret_cast<Init>(dlsym(handle, "cuInit"));
    auto count = reinterpret_cast<Count>(dlsym(handle, "cuDeviceGetCount"));
    if (!init || !count) {
        out.reason = library + " is not a CUDA driver (no cuInit / cuDeviceGetCount)";
        return out;
    }
    if (const int code = init(0); code != 0) {
        out.reason = initFailure(code);
        return out;
    }
    if (const int code = count(&out.devices); code != 0 || out.devices <= 0) {
        out.devices = 0;
        out.reason = "no CUDA device: the driver counts none";
    }
    return out;
}

CudaDeviceInfo cudaDeviceInfo(int index, const std::string& library) {
    CudaDeviceInfo out;
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return out;
    using Init = int (*)(unsigned);
    using Get = int (*)(int*, int);
    using Name = int (*)(char*, int, int);
    using Memory = int (*)(size_t*, int);
    using BusId = int (*)(char*, int, int);
    auto init = reinterpret_cast<Init>(dlsym(handle, "cuInit"));
    auto get = reinterpret_cast<Get>(dlsym(handle, "cuDeviceGet"));
    auto name = reinterpret_cast<Name>(dlsym(handle, "cuDeviceGetName"));
    auto memory = reinterpret_cast<Memory>(dlsym(handle, "cuDeviceTotalMem_v2"));
    auto bus = reinterpret_cast<BusId>(dlsym(handle, "cuDeviceGetPCIBusId"));
    int device = 0;
    if (!init || !get || init(0) != 0 || get(&device, index) != 0) return out;
    char text[256] = {};
    if (name && name(text, int(sizeof text) - 1, device) == 0) out.name = text;
    size_t bytes = 0;
    if (memory && memory(&bytes, device) == 0) out.totalBytes = int64_t(bytes);
    char busId[64] = {};
    if (bus && bus(busId, int(sizeof busId) - 1, device) == 0) out.pciBusId = busId;
    return out;
}

void* currentCudaContext(const std::string& library) {
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return nullptr;
    using Current = int (*)(void**);
    auto current = reinterpret_cast<Current>(dlsym(handle, "cuCtxGetCurrent"));
    void* context = nullptr;
    if (!current || current(&context) != 0) return nullptr;
    return context;
}

} // namespace mvp::cuda
