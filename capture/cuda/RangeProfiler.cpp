#include "capture/cuda/RangeProfiler.h"

#include "capture/cuda/CounterConfig.h"
#include "capture/cuda/CounterHost.h"
#include "capture/cuda/CudaDriver.h"

#include <algorithm>

namespace mvp::cuda {
namespace {

#define TARGET_PARAMS(Name)                                                                        \
    cuptiParams<CUpti_Profiler_##Name##_Params>(CUpti_Profiler_##Name##_Params_STRUCT_SIZE)
#define RANGE_PARAMS(Name)                                                                         \
    cuptiParams<CUpti_RangeProfiler_##Name##_Params>(                                              \
        CUpti_RangeProfiler_##Name##_Params_STRUCT_SIZE)

Error cuptiError(const std::string& what, CUptiResult s) {
    // Profiling counters needs the driver's permission (NVreg_RestrictProfilingToAdminUsers).
    const std::string hint = s == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
                                 ? " (the driver restricts GPU counters to administrators)"
                             : s == CUPTI_ERROR_UNKNOWN
                                 ? " (CUPTI answers this where it finds no GPU or driver)"
                                 : "";
    return makeError(ErrorCode::Internal, "CUPTI " + what + ": " + cuptiMessage(s) + hint);
}

} // namespace

struct RangeProfiler::State {
    const CuptiProfilerApi* api = nullptr;
    bool initialized = false;
    CUcontext context = nullptr;
    std::string chip;
    std::vector<std::string> metrics;
    std::vector<const char*> names; // into metrics
    std::vector<uint8_t> availability, counterData;
    CounterConfig config;
    CUpti_RangeProfiler_Object* object = nullptr;
    std::string pushError; // the first failed push or pop of a pass

    ~State() {
        if (object) {
            auto p = RANGE_PARAMS(Disable);
            p.pRangeProfilerObject = object;
            api->rangeDisable(&p);
        }
        if (initialized) {
            auto p = TARGET_PARAMS(DeInitialize);
            api->deInitialize(&p);
        }
    }

    Status initialize(int device) {
        auto init = TARGET_PARAMS(Initialize);
        if (const auto s = api->initialize(&init); s != CUPTI_SUCCESS)
            return cuptiError("profiler initialisation", s);
        initialized = true;
        auto chipName = cuptiParams<CUpti_Device_GetChipName_Params>(
            CUpti_Device_GetChipName_Params_STRUCT_SIZE);
        chipName.deviceIndex = size_t(device);
        if (const auto s = api->deviceGetChipName(&chipName); s != CUPTI_SUCCESS)
            return cuptiError("chip name of device " + std::to_string(device), s);
        chip = chipName.pChipName;
        context = static_cast<CUcontext>(currentCudaContext());
        if (!context)
            return makeError(ErrorCode::Internal,
                             "no CUDA context on this thread: run CUDA work before counting");
        return readAvailability();
    }

    Status readAvailability() {
        auto p = TARGET_PARAMS(GetCounterAvailability);
        p.ctx = context;
        if (const auto s = api->getCounterAvailability(&p); s != CUPTI_SUCCESS)
            return cuptiError("counter availability", s);
        availability.resize(p.counterAvailabilityImageSize);
        p.pCounterAvailabilityImage = availability.data();
        if (const auto s = api->getCounterAvailability(&p); s != CUPTI_SUCCESS)
            return cuptiError("counter availability", s);
        return Ok{};
    }

    Status enable(size_t maxRanges, int levels) {
        auto on = RANGE_PARAMS(Enable);
        on.ctx = context;
        if (const auto s = api->rangeEnable(&on); s != CUPTI_SUCCESS)
            return cuptiError("range profiler", s);
        object = on.pRangeProfilerObject;
        auto size = RANGE_PARAMS(GetCounterDataSize);
        size.pRangeProfilerObject = object;
        size.pMetricNames = names.data();
        size.numMetrics = names.size();
        size.maxNumOfRanges = maxRanges;
        size.maxNumRangeTreeNodes = uint32_t(maxRanges);
        if (const auto s = api->rangeGetCounterDataSize(&size); s != CUPTI_SUCCESS)
            return cuptiError("counter data size", s);
        counterData.assign(size.counterDataSize, 0);
        auto image = RANGE_PARAMS(CounterDataImage_Initialize);
        image.pRangeProfilerObject = object;
        image.counterDataSize = counterData.size();
        image.pCounterData = counterData.data();
        if (const auto s = api->rangeCounterDataImageInitialize(&image); s != CUPTI_SUCCESS)
            return cuptiError("counter data image", s);
        return configure(maxRanges, levels);
    }

    Status configure(size_t maxRanges, int levels) {
        auto set = RANGE_PARAMS(SetConfig);
        set.pRangeProfilerObject = object;
        set.configSize = config.image.size();
        set.pConfig = config.image.data();
        set.counterDataImageSize = counterData.size();
        set.pCounterDataImage = counterData.data();
        set.range = CUPTI_UserRange;
        set.replayMode = CUPTI_UserReplay;
        set.maxRangesPerPass = maxRanges;
        set.numNestingLevels = uint16_t(levels);
        set.minNestingLevel = 1;
        set.passIndex = 0;
        set.targetNestingLevel = 1;
        if (const auto s = api->rangeSetConfig(&set); s != CUPTI_SUCCESS)
            return cuptiError("range profiler configuration", s);
        return Ok{};
    }
};

RangeProfiler::RangeProfiler(std::unique_ptr<State> state) : d(std::move(state)) {}
RangeProfiler::~RangeProfiler() = default;

Result<std::unique_ptr<RangeProfiler>> RangeProfiler::start(int device,
                                                            const std::vector<std::string>& metrics,
                                                            size_t maxRanges, int levels) {
    auto api = profilerApi();
    if (!api) return api.error();
    auto s = std::make_unique<State>();
    s->api = *api;
    s->metrics = metrics;
    for (const auto& m : s->metrics)
        s->names.push_back(m.c_str());
    if (auto ok = s->initialize(device); !ok) return ok.error();
    auto config = configureCounters(s->chip, metrics, s->availability);
    if (!config) return config.error();
    s->config = std::move(config.value());
    if (auto ok = s->enable(std::max<size_t>(1, maxRanges), std::max(1, levels)); !ok)
        return ok.error();
    return std::unique_ptr<RangeProfiler>(new RangeProfiler(std::move(s)));
}

const std::string& RangeProfiler::chip() const {
    return d->chip;
}
int RangeProfiler::configPasses() const {
    return d->config.passes;
}

Status RangeProfiler::beginPass() {
    d->pushError.clear();
    auto p = RANGE_PARAMS(Start);
    p.pRangeProfilerObject = d->object;
    if (const auto s = d->api->rangeStart(&p); s != CUPTI_SUCCESS)
        return cuptiError("range profiler start", s);
    return Ok{};
}

void RangeProfiler::push(const std::string& name) {
    auto p = RANGE_PARAMS(PushRange);
    p.pRangeProfilerObject = d->object;
    p.pRangeName = name.c_str();
    if (const auto s = d->api->rangePush(&p); s != CUPTI_SUCCESS && d->pushError.empty())
        d->pushError = "push of range " + name + ": " + cuptiMessage(s);
}

void RangeProfiler::pop() {
    auto p = RANGE_PARAMS(PopRange);
    p.pRangeProfilerObject = d->object;
    if (const auto s = d->api->rangePop(&p); s != CUPTI_SUCCESS && d->pushError.empty())
        d->pushError = "pop of a range: " + cuptiMessage(s);
}

Result<bool> RangeProfiler::endPass() {
    auto p = RANGE_PARAMS(Stop);
    p.pRangeProfilerObject = d->object;
    if (const auto s = d->api->rangeStop(&p); s != CUPTI_SUCCESS)
        return cuptiError("range profiler stop", s);
    ++passes_;
    if (!d->pushError.empty())
        return makeError(ErrorCode::Internal, "CUPTI range profiler " + d->pushError);
    return p.isAllPassSubmitted != 0;
}

Result<std::vector<CounterRange>> RangeProfiler::ranges() {
    auto decode = RANGE_PARAMS(DecodeData);
    decode.pRangeProfilerObject = d->object;
    if (const auto s = d->api->rangeDecodeData(&decode); s != CUPTI_SUCCESS)
        return cuptiError("counter data decoding", s);
    dropped_ = int64_t(decode.numOfRangeDropped);
    auto info = RANGE_PARAMS(GetCounterDataInfo);
    info.pCounterDataImage = d->counterData.data();
    info.counterDataImageSize = d->counterData.size();
    if (const auto s = d->api->rangeGetCounterDataInfo(&info); s != CUPTI_SUCCESS)
        return cuptiError("counter data ranges", s);
    HostObject host(*d->api, d->chip, d->availability);
    if (host.status() != CUPTI_SUCCESS) return cuptiError("host object", host.status());
    std::vector<CounterRange> out;
    for (size_t i = 0; i < info.numTotalRanges; ++i) {
        auto name = RANGE_PARAMS(CounterData_GetRangeInfo);
        name.pCounterDataImage = d->counterData.data();
        name.counterDataImageSize = d->counterData.size();
        name.rangeIndex = i;
        name.rangeDelimiter = "/";
        if (const auto s = d->api->rangeGetRangeInfo(&name); s != CUPTI_SUCCESS)
            return cuptiError("name of range " + std::to_string(i), s);
        auto values = host.evaluate(d->counterData, i, d->names);
        if (!values) return values.error();
        CounterRange r;
        const std::string path = name.rangeName ? name.rangeName : "";
        for (size_t from = 0; from <= path.size();) {
            const size_t slash = std::min(path.find('/', from), path.size());
            r.path.push_back(path.substr(from, slash - from));
            from = slash + 1;
        }
        for (size_t m = 0; m < d->metrics.size(); ++m)
            r.values[d->metrics[m]] = (*values)[m];
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace mvp::cuda
