#include "capture/machine/Energy.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace mvp {

namespace fs = std::filesystem;

namespace {

std::optional<uint64_t> readCounter(const std::string& file) {
    std::ifstream in(file);
    uint64_t v = 0;
    if (!(in >> v)) return std::nullopt;
    return v;
}

std::string readName(const fs::path& dir) {
    std::ifstream in(dir / "name");
    std::string name;
    std::getline(in, name);
    return name;
}

} // namespace

EnergyMeter::EnergyMeter(const std::string& root) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        reason_ = "n/a (no powercap/RAPL energy counters on this machine)";
        return;
    }
    bool denied = false;
    auto add = [&](const fs::path& dir, bool dram) {
        const std::string file = (dir / "energy_uj").string();
        if (!fs::exists(file, ec)) return;
        if (::access(file.c_str(), R_OK) != 0) {
            denied = denied || errno == EACCES;
            return;
        }
        const auto now = readCounter(file);
        const auto range = readCounter((dir / "max_energy_range_uj").string());
        if (!now || !range || *range == 0) return;
        domains_.push_back(Domain{file, dram, *range, *now, 0.0});
    };
    // Packages are intel-rapl:N; their subdomains intel-rapl:N:M (dram, core, uncore).
    for (const auto& e : fs::directory_iterator(root, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("intel-rapl:", 0) != 0 || name.find(':', 11) != std::string::npos) continue;
        add(e.path(), false);
        for (const auto& sub : fs::directory_iterator(e.path(), ec))
            if (sub.is_directory() && readName(sub.path()) == "dram") add(sub.path(), true);
    }
    if (domains_.empty())
        reason_ = denied ? "n/a (the RAPL energy counters are not readable by this user: e.g. "
                           "sudo chmod a+r /sys/class/powercap/intel-rapl:*/energy_uj)"
                         : "n/a (no powercap/RAPL energy counters on this machine)";
}

EnergyMeter::Joules EnergyMeter::sample() {
    Joules j;
    for (auto& d : domains_) {
        if (const auto now = readCounter(d.file)) {
            // A counter below its last value wrapped at its range.
            const uint64_t delta = *now >= d.last ? *now - d.last : d.range - d.last + *now;
            d.joules += double(delta) * 1e-6;
            d.last = *now;
        }
        (d.dram ? j.dram : j.package) += d.joules;
        j.hasDram = j.hasDram || d.dram;
    }
    return j;
}

void PhaseEnergy::phaseBoundary(Phase nextPhase) {
    if (meter_ && meter_->available()) sampleCpu();
    if (gpu_ && gpu_->available()) sampleGpu();
    phase_ = nextPhase;
    started_ = nextPhase != Phase::None;
}

void PhaseEnergy::sampleCpu() {
    const auto now = meter_->sample();
    if (started_) {
        auto& p = byPhase_[phase_];
        p.package += now.package - at_.package;
        p.dram += now.dram - at_.dram;
        p.hasDram = now.hasDram;
    }
    at_ = now;
}

void PhaseEnergy::sampleGpu() {
    // A failed read leaves the meter unavailable, with the reason.
    const auto now = gpu_->joules();
    if (!now) return;
    if (started_) gpuByPhase_[phase_] += *now - gpuAt_;
    gpuAt_ = *now;
}

std::vector<PhaseEnergy::Metric> PhaseEnergy::metrics() const {
    auto out = cpuMetrics();
    const auto gpu = gpuMetrics();
    out.insert(out.end(), gpu.begin(), gpu.end());
    return out;
}

std::vector<PhaseEnergy::Metric> PhaseEnergy::cpuMetrics() const {
    if (!meter_ || !meter_->available())
        return {{"energy.available", 0, "", meter_ ? meter_->unavailableReason() : "n/a"}};
    const std::string note = "RAPL counters sampled at phase boundaries; the whole package, "
                             "other processes included";
    std::vector<Metric> out;
    EnergyMeter::Joules total;
    for (const auto& [phase, j] : byPhase_) {
        out.push_back({"energy." + phaseName(phase) + ".package_j", j.package, "J", note});
        total.package += j.package;
        total.dram += j.dram;
        total.hasDram = total.hasDram || j.hasDram;
    }
    out.push_back({"energy.package_j", total.package, "J", note + " (per inference)"});
    if (total.hasDram) out.push_back({"energy.dram_j", total.dram, "J", note + " (per inference)"});
    return out;
}

std::vector<PhaseEnergy::Metric> PhaseEnergy::gpuMetrics() const {
    if (!gpu_) return {};
    if (!gpu_->available()) return {{"energy.gpu_available", 0, "", gpu_->unavailableReason()}};
    if (gpuByPhase_.empty())
        return {{"energy.gpu_available", 0, "", "n/a (the GPU's counter was read in no phase)"}};
    // NVML refreshes the counter periodically: a phase much shorter than
    // that reads coarsely, while the sum over the run stays whole.
    const std::string note = "NVML's total-energy counter read at phase boundaries; the whole "
                             "GPU, other processes' work included, refreshed periodically "
                             "(short phases read coarsely)";
    std::vector<Metric> out;
    double total = 0;
    for (const auto& [phase, j] : gpuByPhase_) {
        out.push_back({"energy." + phaseName(phase) + ".gpu_j", j, "J", note});
        total += j;
    }
    out.push_back({"energy.gpu_j", total, "J", note + " (per inference)"});
    return out;
}

} // namespace mvp
