#include "capture/machine/SystemInfo.h"

#include "core/session/Records.h"

#include <ctime>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace mvp::sysinfo {

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown CPU";
}

namespace {
// Reads "Key:   123 kB" from a /proc file.
int64_t procKb(const char* file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line))
        if (line.compare(0, key.size(), key) == 0 && line.size() > key.size() &&
            line[key.size()] == ':') {
            std::istringstream s(line.substr(key.size() + 1));
            int64_t kb = 0;
            s >> kb;
            return kb * 1024;
        }
    return 0;
}
} // namespace

std::string blasLibrary() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    std::string found;
    while (std::getline(maps, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos) continue;
        const std::string path = line.substr(slash);
        const std::string name = std::filesystem::path(path).filename().string();
        const bool blasLike = name.find("blas") != std::string::npos ||
                              name.find("mkl_rt") != std::string::npos ||
                              name.find("blis") != std::string::npos;
        if (!blasLike || name.find("cublas") != std::string::npos) continue;
        std::error_code ec;
        const std::string real = std::filesystem::canonical(path, ec).string();
        const std::string& p = ec ? path : real;
        std::string kind = "unknown BLAS";
        if (p.find("openblas") != std::string::npos)
            kind = "OpenBLAS";
        else if (p.find("mkl") != std::string::npos)
            kind = "Intel MKL";
        else if (p.find("blis") != std::string::npos)
            kind = "BLIS";
        else if (p.find("atlas") != std::string::npos)
            kind = "ATLAS";
        else if (name.rfind("libblas.so", 0) == 0)
            kind = std::string(kReferenceBlas) + " (slow: install libopenblas0-pthread)";
        const std::string entry = kind + " (" + p + ")";
        if (found.find(entry) == std::string::npos) found += (found.empty() ? "" : "; ") + entry;
    }
    return found.empty() ? "none loaded (libtorch's own kernels)" : found;
}

bool setBlasThreads(int threads) {
    using SetThreads = void (*)(int);
    const auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (!set) return false;
    set(threads);
    return true;
}

bool resetPeakRss() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.close();
    return bool(out);
}

int64_t peakRssBytes() {
    return procKb("/proc/self/status", "VmHWM");
}

int64_t currentRssBytes() {
    return procKb("/proc/self/status", "VmRSS");
}

RunMetricRow startRunMemory() {
    const bool reset = resetPeakRss();
    return {"memory.rss_start_bytes", double(currentRssBytes()), "bytes", "measured",
            reset ? "the process's resident memory as the run began (model loaded, warmed up); "
                    "the run's peak is measured from here"
                  : "the process's resident memory as the run began; the peak counter could "
                    "not be reset, so the run's peak covers the whole process"};
}

int64_t availableMemoryBytes() {
    return procKb("/proc/meminfo", "MemAvailable");
}
int64_t totalMemoryBytes() {
    return procKb("/proc/meminfo", "MemTotal");
}

std::string utcNow() {
    return isoUtc(int64_t(std::time(nullptr)) * 1000000000);
}

} // namespace mvp::sysinfo
