#pragma once
// GPU energy from NVML's total-energy counter (millijoules since the driver
// loaded; Volta and newer), for joules per inference and per phase.
// libnvidia-ml is opened with dlopen at run time: no build dependency, and a
// machine without NVIDIA's driver gets "n/a" with the reason, not a failure.
// Plain C++; the counter covers the whole GPU, other processes included.

#include <cstdint>
#include <optional>
#include <string>

namespace mvp::cuda {

class NvmlEnergy {
public:
    // Opens GPU `gpuIndex` through `library` and reads the counter once as
    // the zero point.
    explicit NvmlEnergy(int gpuIndex, const std::string& library = "libnvidia-ml.so.1");
    ~NvmlEnergy();
    NvmlEnergy(const NvmlEnergy&) = delete;
    NvmlEnergy& operator=(const NvmlEnergy&) = delete;

    bool available() const { return reason_.empty(); }
    // "n/a (…)" saying why no energy can be read; empty when available.
    const std::string& unavailableReason() const { return reason_; }

    // Joules since construction (measured); nullopt once a read fails, with
    // the reason in unavailableReason().
    std::optional<double> joules();

private:
    struct Api;
    std::string open(int gpuIndex, const std::string& library); // the reason it cannot, or ""
    bool read(uint64_t& millijoules);
    void unavailable(const std::string& why);

    void* library_ = nullptr;
    Api* api_ = nullptr;
    void* device_ = nullptr;
    uint64_t zero_ = 0;
    std::string reason_;
};

} // namespace mvp::cuda
