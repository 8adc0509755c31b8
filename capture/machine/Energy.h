#pragma once
// CPU energy from the kernel's powercap/RAPL counters (docs/diagnostics.md §9:
// energy per inference). Plain C++: reads <root>/intel-rapl:N/energy_uj
// (packages) and their "dram" subdomains, each a microjoule counter that
// wraps at max_energy_range_uj. The counters cover the whole package, not
// this process: other work on the machine is in them (said in the notes).

#include "capture/cuda/NvmlEnergy.h"
#include "core/Phase.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mvp {

class EnergyMeter {
public:
    // Finds the counters under `root`; unavailable() says why there are none.
    explicit EnergyMeter(const std::string& root = "/sys/class/powercap");

    bool available() const { return !domains_.empty(); }
    // "n/a (…)" with the reason when no counter can be read.
    const std::string& unavailableReason() const { return reason_; }

    // Joules of the package and DRAM domains since construction (summed over
    // sockets), wrap-around handled: sample at least once per wrap period
    // (minutes at full load on current parts).
    struct Joules {
        double package = 0, dram = 0;
        bool hasDram = false;
    };
    Joules sample();

private:
    struct Domain {
        std::string file; // energy_uj
        bool dram = false;
        uint64_t range = 0, last = 0;
        double joules = 0;
    };
    std::vector<Domain> domains_;
    std::string reason_;
};

// Energy per phase of one run: the meters sampled at phase boundaries.
class PhaseEnergy {
public:
    explicit PhaseEnergy(EnergyMeter* meter) : meter_(meter) {}
    // Also reads a GPU's NVML counter at every boundary (not owned; attach
    // before the first phase).
    void attachGpu(cuda::NvmlEnergy* gpu) { gpu_ = gpu; }
    void phaseBoundary(Phase nextPhase); // None ends the last phase
    // energy.package_j, energy.dram_j (per inference) and energy.<phase>.package_j,
    // measured; or energy.available = 0 with the reason. With a GPU attached
    // also energy.gpu_j and energy.<phase>.gpu_j, or energy.gpu_available = 0.
    struct Metric {
        std::string name;
        double value;
        std::string unit, note;
    };
    std::vector<Metric> metrics() const;

private:
    void sampleCpu();
    void sampleGpu();
    std::vector<Metric> cpuMetrics() const;
    std::vector<Metric> gpuMetrics() const;

    EnergyMeter* meter_;
    cuda::NvmlEnergy* gpu_ = nullptr;
    Phase phase_ = Phase::None;
    bool started_ = false;
    EnergyMeter::Joules at_;
    std::map<Phase, EnergyMeter::Joules> byPhase_;
    double gpuAt_ = 0;
    std::map<Phase, double> gpuByPhase_;
};

} // namespace mvp
