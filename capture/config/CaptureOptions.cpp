#include "capture/config/CaptureOptions.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace mvp {

std::string withCaptureSettings(const std::string& configJson, const CaptureOptions& o) {
    auto cfg = nlohmann::json::parse(configJson, nullptr, false);
    if (!cfg.is_object()) return configJson;
    cfg["capture"] = {{"warmup", o.warmup}, {"nested_ops", o.nestedOps}, {"threads", o.threads}};
    if (o.device != "cpu") {
        cfg["capture"]["gpu_trace"] = o.traceGpu;
        cfg["capture"]["device_timing"] = cuda::deviceTimingName(o.deviceTiming);
        cfg["capture"]["hw_counters"] = o.hwCounters;
    }
    return cfg.dump();
}

void readCaptureSettings(const std::string& configJson, CaptureOptions& o) {
    const auto cfg = nlohmann::json::parse(configJson, nullptr, false);
    if (!cfg.is_object() || !cfg.contains("capture") || !cfg["capture"].is_object()) return;
    const auto& c = cfg["capture"];
    o.warmup = std::max(0, c.value("warmup", o.warmup));
    o.nestedOps = c.value("nested_ops", o.nestedOps);
    o.threads = std::max(0, c.value("threads", o.threads));
    // A GPU baseline's observation: exact device timing waits at every op,
    // and its counters are what a what-if's are compared with.
    o.traceGpu = c.value("gpu_trace", o.traceGpu);
    if (const auto timing = cuda::parseDeviceTiming(c.value("device_timing", std::string())))
        o.deviceTiming = *timing;
    o.hwCounters = c.value("hw_counters", o.hwCounters);
}

void recordOptions(const CaptureOptions& o, RunInfo& info) {
    info.model = o.model;
    info.prompt = o.prompt;
    info.imagePath = o.imagePath;
    info.steps = o.steps;
    info.device = o.device;
    info.dtype = o.dtype;
}

void optionsOfRun(const RunInfo& info, CaptureOptions& o) {
    o.model = info.model;
    o.prompt = info.prompt;
    o.imagePath = info.imagePath;
    o.steps = info.steps;
    o.device = info.device;
    o.dtype = info.dtype;
}

} // namespace mvp
