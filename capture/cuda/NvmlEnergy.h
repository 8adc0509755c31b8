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
    // Opens the GPU that is CUDA device `cudaIndex` through `library` and
    // reads the counter once as the zero point. The GPU is found by the PCI
    // bus id the CUDA driver (`cudaLibrary`) gives it: CUDA numbers the GPUs
    // it sees (CUDA_VISIBLE_DEVICES, fastest first), NVML every GPU in bus
    // order, so their indices differ on many machines. Without a bus id,
    // NVML's GPU `cudaIndex` is read, unless CUDA_VISIBLE_DEVICES renumbers
    // the GPUs (then n/a, saying so: it might be another GPU's counter).
    explicit NvmlEnergy(int cudaIndex, const std::string& library = "libnvidia-ml.so.1",
                        const std::string& cudaLibrary = "libcuda.so.1");
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
    // The reason it cannot, or "".
    std::string open(int cudaIndex, const std::string& library, const std::string& cudaLibrary);
    std::string findDevice(int cudaIndex, const std::string& cudaLibrary);
    bool read(uint64_t& millijoules);
    void unavailable(const std::string& why);

    void* library_ = nullptr;
    Api* api_ = nullptr;
    void* device_ = nullptr;
    uint64_t zero_ = 0;
    std::string reason_;
};

} // namespace mvp::cuda
