#include "capture/cuda/NvmlEnergy.h"

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
    using TotalEnergy = int (*)(void*, unsigned long long*);
    Init init = nullptr;
    Shutdown shutdown = nullptr;
    ErrorString errorString = nullptr;
    HandleByIndex handleByIndex = nullptr;
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

NvmlEnergy::NvmlEnergy(int gpuIndex, const std::string& library) {
    if (const std::string why = open(gpuIndex, library); !why.empty())
        unavailable(why);
    else
        read(zero_);
}

std::string NvmlEnergy::open(int gpuIndex, const std::string& library) {
    library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library_) return library + " not found (no NVIDIA driver on this machine)";
    api_ = new Api;
    if (!resolve(library_, "nvmlInit_v2", api_->init) ||
        !resolve(library_, "nvmlShutdown", api_->shutdown) ||
        !resolve(library_, "nvmlDeviceGetHandleByIndex_v2", api_->handleByIndex) ||
        !resolve(library_, "nvmlDeviceGetTotalEnergyConsumption", api_->totalEnergy))
        return library + " lacks the energy API (driver too old)";
    resolve(library_, "nvmlErrorString", api_->errorString);
    if (const int rc = api_->init(); rc != kNvmlSuccess)
        return "NVML did not start: " + api_->message(rc);
    api_->initialised = true;
    if (const int rc = api_->handleByIndex(static_cast<unsigned>(gpuIndex), &device_);
        rc != kNvmlSuccess)
        return "GPU " + std::to_string(gpuIndex) + ": " + api_->message(rc);
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
