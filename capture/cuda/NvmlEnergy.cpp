#include "capture/cuda/NvmlEnergy.h"

#include "capture/cuda/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>

namespace mvp::cuda {

// NVML's C API as declared in nvml.h (nvmlReturn_t is an int enum,
// nvmlDevice_t an opaque pointer); resolved by name so the header and the
// library need not be present at build time.
struct NvmlEnergy::Api {
    using Init = int (*)();
    using Shutdown = int (*)();
    using ErrorString = const char* (*)(int);
    using HandleByIndex = int (*)(unsigned, void**);
    using HandleByBusId = int (*)(const char*, void**);
    using TotalEnergy = int (*)(void*, unsigned long long*);
    Init init = nullptr;
    Shutdown shutdown = nullptr;
    ErrorString errorString = nullptr;
    HandleByIndex handleByIndex = nullptr;
    HandleByBusId handleByBusId = nullptr; // optional: older drivers lack the _v2
    TotalEnergy totalEnergy = nullptr;
    bool initialised = false;

    std::string message(int code) const {
        const char* text = errorString ? errorString(code) : nullptr;
        return text ? std::string(text) : "NVML error " + std::to_string(code);
    }
};

namespace {
constexpr int kNvmlSuccess = 0, kNvmlNotSupported = 3;

template <typename F> bool resolve(void* library, const char* name, F& out) {
    out = reinterpret_cast<F>(dlsym(library, name));
    return out != nullptr;
}
} // namespace

NvmlEnergy::NvmlEnergy(int cudaIndex, const std::string& library, const std::string& cudaLibrary) {
    if (const std::string why = open(cudaIndex, library, cudaLibrary); !why.empty())
        unavailable(why);
    else
        read(zero_);
}

std::string NvmlEnergy::open(int cudaIndex, const std::string& library,
                             const std::string& cudaLibrary) {
    library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library_) return library + " not found (no NVIDIA driver on this machine)";
    api_ = new Api;
    if (!resolve(library_, "nvmlInit_v2", api_->init) ||
        !resolve(library_, "nvmlShutdown", api_->shutdown) ||
        !resolve(library_, "nvmlDeviceGetHandleByIndex_v2", api_->handleByIndex) ||
        !resolve(library_, "nvmlDeviceGetTotalEnergyConsumption", api_->totalEnergy))
        return library + " lacks the energy API (driver too old)";
    resolve(library_, "nvmlErrorString", api_->errorString);
    resolve(library_, "nvmlDeviceGetHandleByPciBusId_v2", api_->handleByBusId);
    if (const int rc = api_->init(); rc != kNvmlSuccess)
        return "NVML did not start: " + api_->message(rc);
    api_->initialised = true;
    return findDevice(cudaIndex, cudaLibrary);
}

// The GPU whose counter is read: by bus id where both sides know it.
std::string NvmlEnergy::findDevice(int cudaIndex, const std::string& cudaLibrary) {
    const std::string name = "cuda:" + std::to_string(cudaIndex);
    const std::string bus = cudaDeviceInfo(cudaIndex, cudaLibrary).pciBusId;
    if (!bus.empty() && api_->handleByBusId) {
        if (const int rc = api_->handleByBusId(bus.c_str(), &device_); rc != kNvmlSuccess)
            return "GPU " + bus + " (" + name + "): " + api_->message(rc);
        return {};
    }
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible)
        return "the driver gave no PCI bus id for " + name +
               " and CUDA_VISIBLE_DEVICES=" + visible + " renumbers the GPUs: NVML's GPU " +
               std::to_string(cudaIndex) + " may be another one";
    if (const int rc = api_->handleByIndex(static_cast<unsigned>(cudaIndex), &device_);
        rc != kNvmlSuccess)
        return "GPU " + std::to_string(cudaIndex) + ": " + api_->message(rc);
    return {};
}

NvmlEnergy::~NvmlEnergy() {
    if (api_ && api_->initialised) api_->shutdown();
    delete api_;
    if (library_) dlclose(library_);
}

void NvmlEnergy::unavailable(const std::string& why) {
    reason_ = "n/a (" + why + ")";
}

bool NvmlEnergy::read(uint64_t& millijoules) {
    unsigned long long value = 0;
    const int rc = api_->totalEnergy(device_, &value);
    if (rc == kNvmlNotSupported) {
        unavailable("this GPU has no total-energy counter (Volta or newer needed): " +
                    api_->message(rc));
        return false;
    }
    if (rc != kNvmlSuccess) {
        unavailable("reading the GPU's energy counter failed: " + api_->message(rc));
        return false;
    }
    millijoules = value;
    return true;
}

std::optional<double> NvmlEnergy::joules() {
    uint64_t now = 0;
    if (!available() || !read(now)) return std::nullopt;
    // The counter only grows while the driver stays loaded; a smaller value
    // means it restarted, and the difference would be a wrong number.
    if (now < zero_) {
        unavailable("the GPU's energy counter went back (driver reloaded)");
        return std::nullopt;
    }
    return static_cast<double>(now - zero_) / 1000.0;
}

} // namespace mvp::cuda
