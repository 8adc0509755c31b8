#include "capture/cuda/CounterConfig.h"

#include "capture/cuda/CounterHost.h"

namespace mvp::cuda {

HostObject::HostObject(const CuptiProfilerApi& api, const std::string& chip,
                       const std::vector<uint8_t>& counterAvailability)
    : api_(api) {
    auto p = HOST_PARAMS(Initialize);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage =
        counterAvailability.empty() ? nullptr : counterAvailability.data();
    status_ = api_.hostInitialize(&p);
    object_ = status_ == CUPTI_SUCCESS ? p.pHostObject : nullptr;
}

HostObject::~HostObject() {
    if (!object_) return;
    auto p = HOST_PARAMS(Deinitialize);
    p.pHostObject = object_;
    api_.hostDeinitialize(&p);
}

CUptiResult HostObject::add(const std::vector<const char*>& names) {
    auto p = HOST_PARAMS(ConfigAddMetrics);
    p.pHostObject = object_;
    p.ppMetricNames = const_cast<const char**>(names.data());
    p.numMetrics = names.size();
    return api_.hostConfigAddMetrics(&p);
}

Result<std::vector<uint8_t>> HostObject::image() {
    auto size = HOST_PARAMS(GetConfigImageSize);
    size.pHostObject = object_;
    if (const auto s = api_.hostGetConfigImageSize(&size); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal, "CUPTI config image size: " + cuptiMessage(s));
    std::vector<uint8_t> out(size.configImageSize);
    auto get = HOST_PARAMS(GetConfigImage);
    get.pHostObject = object_;
    get.configImageSize = out.size();
    get.pConfigImage = out.data();
    if (const auto s = api_.hostGetConfigImage(&get); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal, "CUPTI config image: " + cuptiMessage(s));
    return out;
}

Result<std::vector<double>> HostObject::evaluate(const std::vector<uint8_t>& counterData,
                                                 size_t range,
                                                 const std::vector<const char*>& names) {
    std::vector<double> values(names.size(), 0.0);
    auto p = HOST_PARAMS(EvaluateToGpuValues);
    p.pHostObject = object_;
    p.pCounterDataImage = counterData.data();
    p.counterDataImageSize = counterData.size();
    p.rangeIndex = range;
    p.ppMetricNames = const_cast<const char**>(names.data());
    p.numMetrics = names.size();
    p.pMetricValues = values.data();
    if (const auto s = api_.hostEvaluateToGpuValues(&p); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal, "CUPTI could not evaluate range " +
                                                  std::to_string(range) + ": " + cuptiMessage(s));
    return values;
}

Result<const CuptiProfilerApi*> profilerApi() {
    std::string why;
    const CuptiProfilerApi* api = cuptiProfilerApi(&why);
    if (!api) return makeError(ErrorCode::NotFound, "CUPTI's range profiler: " + why);
    return api;
}

namespace {

Result<int> passesOf(const CuptiProfilerApi& api, std::vector<uint8_t>& image) {
    auto p = HOST_PARAMS(GetNumOfPasses);
    p.configImageSize = image.size();
    p.pConfigImage = image.data();
    if (const auto s = api.hostGetNumOfPasses(&p); s != CUPTI_SUCCESS)
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

} // namespace

Result<std::vector<std::string>> supportedChips() {
    auto api = profilerApi();
    if (!api) return api.error();
    auto p = HOST_PARAMS(GetSupportedChips);
    if (const auto s = (*api)->hostGetSupportedChips(&p); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal,
                         "the CUPTI range profiler lists no chips: " + cuptiMessage(s));
    std::vector<std::string> out;
    for (size_t i = 0; i < p.numChips; ++i)
        out.emplace_back(p.ppChipNames[i]);
    return out;
}

Result<CounterConfig> configureCounters(const std::string& chip,
                                        const std::vector<std::string>& metrics,
                                        const std::vector<uint8_t>& counterAvailability) {
    if (metrics.empty()) return makeError(ErrorCode::BadInput, "no hardware metrics asked for");
    auto api = profilerApi();
    if (!api) return api.error();
    if (auto s = checkChip(chip); !s) return s.error();
    for (const auto& m : metrics) {
        HostObject scratch(**api, chip, counterAvailability);
        if (scratch.status() != CUPTI_SUCCESS)
            return makeError(ErrorCode::Internal, "CUPTI range profiler for " + chip + ": " +
                                                      cuptiMessage(scratch.status()));
        if (const auto s = scratch.add({m.c_str()}); s != CUPTI_SUCCESS)
            return makeError(ErrorCode::BadInput, "hardware metric \"" + m +
                                                      "\" is not one CUPTI knows for " + chip +
                                                      ": " + cuptiMessage(s));
    }
    HostObject host(**api, chip, counterAvailability);
    std::vector<const char*> names;
    for (const auto& m : metrics)
        names.push_back(m.c_str());
    if (const auto s = host.add(names); s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal,
                         "CUPTI refused the metrics together: " + cuptiMessage(s));
    auto image = host.image();
    if (!image) return image.error();
    auto passes = passesOf(**api, *image);
    if (!passes) return passes.error();
    return CounterConfig{chip, metrics, std::move(*image), *passes};
}

} // namespace mvp::cuda
