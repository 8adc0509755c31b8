#include "capture/machine/HostRoofline.h"

#include "capture/cuda/CudaDriver.h"
#include "capture/machine/SystemInfo.h"
#include "core/session/SessionReader.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <torch/torch.h>

namespace mvp {

namespace {

std::filesystem::path cacheFile() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    std::filesystem::path dir = xdg && *xdg
                                    ? std::filesystem::path(xdg)
                                    : std::filesystem::path(home ? home : "/tmp") / ".cache";
    return dir / "mvprof" / "host-roofline.json";
}

template <typename F> double bestSeconds(int reps, F f) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// Best of `reps` after one warm-up, the device's queue drained around each.
template <typename F> double bestDeviceSeconds(int index, int reps, F f) {
    f();
    torch::cuda::synchronize(index);
    return bestSeconds(reps, [&] {
        f();
        torch::cuda::synchronize(index);
    });
}
} // namespace

DeviceRow gpuDevice(int index, const std::string& dtype) {
    DeviceRow d;
    const auto info = cuda::cudaDeviceInfo(index);
    d.name = "GPU: " + (info.name.empty() ? std::string("CUDA device") : info.name) +
             " (cuda:" + std::to_string(index) + ")";
    d.memoryTotalBytes = info.totalBytes;
    c10::InferenceMode guard;
    const auto type = dtype == "bfloat16"  ? torch::kBFloat16
                      : dtype == "float16" ? torch::kHalf
                                           : torch::kFloat;
    const auto on = torch::TensorOptions().device(torch::kCUDA, c10::DeviceIndex(index));
    constexpr int64_t n = 8192;
    auto a = torch::rand({n, n}, on.dtype(type)), b = torch::rand({n, n}, on.dtype(type));
    const double mm = bestDeviceSeconds(index, 5, [&] { (void)torch::mm(a, b); });
    auto src = torch::rand({256 << 20}, on.dtype(torch::kFloat)); // 1 GiB
    auto dst = torch::empty_like(src);
    const double copy = bestDeviceSeconds(index, 5, [&] { dst.copy_(src); });
    d.peakFlops = 2.0 * double(n) * n * n / mm;
    d.peakBytesPerS = 2.0 * double(src.numel()) * 4.0 / copy; // read + write
    d.source =
        "measured (micro-benchmark: " + dtype + " matmul, device copy; " + sysinfo::utcNow() + ")";
    return d;
}

DeviceRow hostDevice() {
    DeviceRow d;
    const int threads = at::get_num_threads();
    d.name = "CPU: " + sysinfo::cpuModel() + ", " + std::to_string(threads) + " threads";
    d.memoryAvailableBytes = sysinfo::availableMemoryBytes();
    d.memoryTotalBytes = sysinfo::totalMemoryBytes();
    // The ceilings depend on the CPU, the BLAS and the thread count: all three key the cache.
    const std::string key = hostName() + "|" + d.name + "|" + sysinfo::blasLibrary();
    const auto file = cacheFile();
    try {
        std::ifstream in(file);
        if (in) {
            const auto j = nlohmann::json::parse(in);
            if (j.value("key", "") == key) {
                d.peakFlops = j.at("peak_flops");
                d.peakBytesPerS = j.at("peak_bytes_per_s");
                d.source = "measured (micro-benchmark, cached " +
                           j.value("measured_utc", std::string("?")) + ")";
                return d;
            }
        }
    } catch (...) {
        // A damaged cache is simply measured again.
    }

    c10::InferenceMode guard;
    constexpr int64_t n = 1024;
    auto a = torch::rand({n, n}), b = torch::rand({n, n});
    (void)torch::mm(a, b); // warm up the BLAS threads
    const double mm = bestSeconds(3, [&] { (void)torch::mm(a, b); });
    auto src = torch::rand({64 << 20}); // 256 MiB of float32
    auto dst = torch::empty_like(src);
    dst.copy_(src);
    const double copy = bestSeconds(3, [&] { dst.copy_(src); });
    d.peakFlops = 2.0 * n * n * n / mm;
    d.peakBytesPerS = 2.0 * double(src.numel()) * 4.0 / copy; // read + write
    const std::string when = sysinfo::utcNow();
    d.source = "measured (micro-benchmark, " + when + ")";
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    std::ofstream out(file);
    out << nlohmann::json{
        {"key", key},
        {"peak_flops", d.peakFlops},
        {"peak_bytes_per_s", d.peakBytesPerS},
        {"measured_utc",
         when}}.dump(2);
    return d;
}

} // namespace mvp
