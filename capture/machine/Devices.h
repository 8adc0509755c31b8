#pragma once
// The devices a capture can run on (`mvprof-cli devices`, New Capture), as
// libtorch and the CUDA driver see them.

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

// A device a capture can run on (`mvprof-cli devices`, New Capture).
struct DeviceChoice {
    std::string id;                  // what --device takes: "cpu", "cuda:0"
    std::string name;                // "NVIDIA H200", or the CPU's model
    int64_t memoryBytes = 0;         // the device's memory (the host's for the CPU)
    std::vector<std::string> dtypes; // the precisions --dtype takes there
};
struct DeviceList {
    std::vector<DeviceChoice> devices; // the CPU first
    std::string noCuda;                // why no CUDA device is listed; empty when one is
};
// Asks libtorch and the CUDA driver; cheap (nothing is measured).
DeviceList captureDevices();

} // namespace mvp
