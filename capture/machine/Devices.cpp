#include "capture/machine/Devices.h"

#include "capture/cuda/CudaDriver.h"
#include "capture/machine/SystemInfo.h"

#include <torch/cuda.h>

namespace mvp {

DeviceList captureDevices() {
    DeviceList out;
    out.devices.push_back(
        {"cpu", sysinfo::cpuModel(), sysinfo::totalMemoryBytes(), {"float32", "bfloat16"}});
    // The driver first: it says why there is no GPU better than libtorch can.
    const auto driver = cuda::probeCudaDriver();
    if (!driver.available()) {
        out.noCuda = driver.reason;
        return out;
    }
    if (!torch::cuda::is_available()) {
        out.noCuda = "this libtorch was built without CUDA (Debian's is CPU-only; the PyTorch "
                     "wheel's has it)";
        return out;
    }
    const int count = int(torch::cuda::device_count());
    for (int i = 0; i < count; ++i) {
        const auto info = cuda::cudaDeviceInfo(i);
        out.devices.push_back({"cuda:" + std::to_string(i),
                               info.name.empty() ? std::string("CUDA device") : info.name,
                               info.totalBytes,
                               {"bfloat16", "float16", "float32"}});
    }
    return out;
}

} // namespace mvp
