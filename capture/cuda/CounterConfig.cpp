#include "capture/cuda/CounterConfig.h"

#include "capture/cuda/CuptiApi.h"

#include <cupti_profiler_host.h>

namespace mvp::cuda {
namespace {

// A parameter block as CUPTI wants it: zeroed, its size set.
template <typename Params> Params params(size_t structSize) {
    Params p{};
    p.structSize = structSize;
    return p;
}
#define HOST_PARAMS(Name)                                                                          \
    params<CUpti_Profiler_Host_##Name##_Params>(CUpti_Profiler_Host_##Name##_Params_STRUCT_SIZE)

// A range-profiler host object for one chip, deinitialised on scope exit.
class HostObject {
public:
    explicit HostObject(const std::string& chip) {
        auto p = HOST_PARAMS(Initialize);
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        status_ = cuptiProfilerHostInitialize(&p);
        object_ = status_ == CUPTI_SUCCESS ? p.pHostObject : nullptr;
    }
    ~HostObject() {
        if (!object_) return;
        auto p = HOST_PARAMS(Deinitialize);
        p.pHostObject = object_;
        cuptiProfilerHostDeinitialize(&p);
    }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    CUptiResult status() const { return status_; }

    CUptiResult add(const std::vector<const char*>& names) {
        auto p = HOST_PARAMS(ConfigAddMetrics);
        p.pHostObject = object_;
        p.ppMetricNames = const_cast<const char**>(names.data());
        p.numMetrics = names.size();
        return cuptiProfilerHostConfigAddMetrics(&p);
    }

    Result<std::vector<uint8_t>> image() {
        auto size = HOST_PARAMS(GetConfigImageSize);
        size.pHostObject = object_;
        if (const auto s = cuptiProfilerHostGetConfigImageSize(&size); s != CUPTI_SUCCESS)
            return makeError(ErrorCode::Internal, "CUPTI config image size: " + cuptiMessage(s));
        std::vector<uint8_t> out(size.configImageSize);
        auto get = HOST_PARAMS(GetConfigImage);
        get.pHostObject = object_;
        get.configImageSize = out.size();
        get.pConfigImage = out.data();
        if (const auto s = cuptiProfilerHostGetConfigImage(&get); s != CUPTI_SUCCESS)
            return makeError(ErrorCode::Internal, "CUPTI config image: " + cuptiMessage(s));
        return out;
    }

private:
    CUptiResult status_ = CUPTI_ERROR_UNKNOWN;
    CUpti_Profiler_Host_Object* object_ = nullptr;
};

Result<int> passesOf(std::vector<uint8_t>& image) {
    auto p = HOST_PARAMS(GetNumOfPasses);
    p.configImageSize = image.size();
    p.pConfigImage = image.data();
    if (const auto s = cuptiProfilerHostGetNumOfPasses(&p); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal, "CUPTI pass count: " + cuptiMessage(s));
    return int(p.numOfPasses);
}

Status checkChip(const std::string& chip) {
    auto chips = supportedChips();
    if (!chips) return chips.error();
    for (const auto& c : *chips)
        if (c == chip) return Ok{};
    std::string known;
    for (const auto& c : *chips)
        known += (known.empty() ? "" : ", ") + c;
    return makeError(ErrorCode::BadInput, "the range profiler of this CUPTI does not know chip \"" +
                                              chip + "\" (it knows " + known + ")");
}

const std::string kSass = "sm__sass_thread_inst_executed_op_";

} // namespace

const std::vector<std::string>& rooflineMetrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m = {"dram__bytes_read.sum", "dram__bytes_write.sum",
                                      "gpu__time_duration.sum"};
        for (const char* precision : {"f", "h", "d"})
            for (const char* op : {"fma", "add", "mul"})
                m.push_back(kSass + precision + op + "_pred_on.sum");
        for (const char* tensor : {"bf16_dst_fp32", "fp16", "tf32_dst_fp32"})
            m.push_back(std::string("sm__ops_path_tensor_src_") + tensor + ".sum");
        return m;
    }();
    return metrics;
}

Result<std::vector<std::string>> supportedChips() {
    auto p = HOST_PARAMS(GetSupportedChips);
    if (const auto s = cuptiProfilerHostGetSupportedChips(&p); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal,
                         "the CUPTI range profiler lists no chips: " + cuptiMessage(s));
    std::vector<std::string> out;
    for (size_t i = 0; i < p.numChips; ++i)
        out.emplace_back(p.ppChipNames[i]);
    return out;
}

Result<CounterConfig> configureCounters(const std::string& chip,
                                        const std::vector<std::string>& metrics) {
    if (metrics.empty()) return makeError(ErrorCode::BadInput, "no hardware metrics asked for");
    if (auto s = checkChip(chip); !s) return s.error();
    for (const auto& m : metrics) {
        HostObject scratch(chip);
        if (scratch.status() != CUPTI_SUCCESS)
            return makeError(ErrorCode::Internal, "CUPTI range profiler for " + chip + ": " +
                                                      cuptiMessage(scratch.status()));
        if (const auto s = scratch.add({m.c_str()}); s != CUPTI_SUCCESS)
            return makeError(ErrorCode::BadInput, "hardware metric \"" + m +
                                                      "\" is not one CUPTI knows for " + chip +
                                                      ": " + cuptiMessage(s));
    }
    HostObject host(chip);
    std::vector<const char*> names;
    for (const auto& m : metrics)
        names.push_back(m.c_str());
    if (const auto s = host.add(names); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal,
                         "CUPTI refused the metrics together: " + cuptiMessage(s));
    auto image = host.image();
    if (!image) return image.error();
    auto passes = passesOf(*image);
    if (!passes) return passes.error();
    return CounterConfig{chip, metrics, std::move(*image), *passes};
}

CountedWork countedWork(const std::map<std::string, double>& values) {
    auto value = [&](const std::string& name) -> std::optional<double> {
        const auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional<double>(it->second);
    };
    CountedWork out;
    std::optional<double> flops = 0.0;
    auto add = [&](const std::string& name, double weight) {
        const auto v = value(name);
        flops = flops && v ? std::optional<double>(*flops + weight * *v) : std::nullopt;
    };
    for (const char* precision : {"f", "h", "d"}) {
        add(kSass + precision + "fma_pred_on.sum", 2);
        add(kSass + precision + "add_pred_on.sum", 1);
        add(kSass + precision + "mul_pred_on.sum", 1);
    }
    for (const char* tensor : {"bf16_dst_fp32", "fp16", "tf32_dst_fp32"})
        add(std::string("sm__ops_path_tensor_src_") + tensor + ".sum", 1);
    out.flops = flops;
    const auto read = value("dram__bytes_read.sum"), written = value("dram__bytes_write.sum");
    if (read && written) out.dramBytes = *read + *written;
    if (const auto ns = value("gpu__time_duration.sum")) out.seconds = *ns * 1e-9;
    return out;
}

} // namespace mvp::cuda
