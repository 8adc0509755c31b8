#include "capture/cuda/CuptiApi.h"

#include <cstdlib>
#include <dlfcn.h>
#include <vector>

namespace mvp::cuda {

namespace {

template <typename Api> struct Loaded {
    Api api{};
    bool ok = false;
    std::string reason;
};

// Candidates in order: the user's choice, then whatever the dynamic linker
// finds by soname (a libcupti another library such as libtorch's Kineto
// already loaded is found first), then the file the build linked against.
std::vector<std::string> candidates() {
    std::vector<std::string> names;
    if (const char* user = std::getenv("MVPROF_CUPTI_LIBRARY"); user && *user)
        names.emplace_back(user);
    names.emplace_back(MVP_CUPTI_SONAME);
    names.emplace_back("libcupti.so");
    names.emplace_back(MVP_CUPTI_PATH);
    return names;
}

template <typename Fn> bool bind(void* library, const char* name, Fn& slot, std::string& missing) {
    slot = reinterpret_cast<Fn>(::dlsym(library, name));
    if (!slot) missing += std::string(missing.empty() ? "" : ", ") + name;
    return slot != nullptr;
}

bool bindAll(void* l, CuptiApi& a, std::string& missing) {
    bool ok = bind(l, "cuptiGetResultString", a.getResultString, missing);
    ok &= bind(l, "cuptiGetCallbackName", a.getCallbackName, missing);
    ok &= bind(l, "cuptiGetTimestamp", a.getTimestamp, missing);
    ok &= bind(l, "cuptiActivityGetNextRecord", a.activityGetNextRecord, missing);
    ok &= bind(l, "cuptiActivityGetNumDroppedRecords", a.activityGetNumDroppedRecords, missing);
    ok &= bind(l, "cuptiActivityRegisterCallbacks", a.activityRegisterCallbacks, missing);
    ok &= bind(l, "cuptiActivityEnable", a.activityEnable, missing);
    ok &= bind(l, "cuptiActivityDisable", a.activityDisable, missing);
    ok &= bind(l, "cuptiActivityFlushAll", a.activityFlushAll, missing);
    ok &= bind(l, "cuptiActivityPushExternalCorrelationId", a.activityPushExternalCorrelationId,
               missing);
    ok &= bind(l, "cuptiActivityPopExternalCorrelationId", a.activityPopExternalCorrelationId,
               missing);
    return ok;
}

bool bindProfiler(void* l, CuptiProfilerApi& a, std::string& missing) {
    bool ok = bind(l, "cuptiProfilerInitialize", a.initialize, missing);
    ok &= bind(l, "cuptiProfilerDeInitialize", a.deInitialize, missing);
    ok &= bind(l, "cuptiDeviceGetChipName", a.deviceGetChipName, missing);
    ok &= bind(l, "cuptiProfilerGetCounterAvailability", a.getCounterAvailability, missing);
    ok &= bind(l, "cuptiProfilerHostInitialize", a.hostInitialize, missing);
    ok &= bind(l, "cuptiProfilerHostDeinitialize", a.hostDeinitialize, missing);
    ok &= bind(l, "cuptiProfilerHostGetSupportedChips", a.hostGetSupportedChips, missing);
    ok &= bind(l, "cuptiProfilerHostConfigAddMetrics", a.hostConfigAddMetrics, missing);
    ok &= bind(l, "cuptiProfilerHostGetConfigImageSize", a.hostGetConfigImageSize, missing);
    ok &= bind(l, "cuptiProfilerHostGetConfigImage", a.hostGetConfigImage, missing);
    ok &= bind(l, "cuptiProfilerHostGetNumOfPasses", a.hostGetNumOfPasses, missing);
    ok &= bind(l, "cuptiProfilerHostEvaluateToGpuValues", a.hostEvaluateToGpuValues, missing);
    ok &= bind(l, "cuptiRangeProfilerEnable", a.rangeEnable, missing);
    ok &= bind(l, "cuptiRangeProfilerDisable", a.rangeDisable, missing);
    ok &= bind(l, "cuptiRangeProfilerSetConfig", a.rangeSetConfig, missing);
    ok &= bind(l, "cuptiRangeProfilerStart", a.rangeStart, missing);
    ok &= bind(l, "cuptiRangeProfilerStop", a.rangeStop, missing);
    ok &= bind(l, "cuptiRangeProfilerPushRange", a.rangePush, missing);
    ok &= bind(l, "cuptiRangeProfilerPopRange", a.rangePop, missing);
    ok &= bind(l, "cuptiRangeProfilerDecodeData", a.rangeDecodeData, missing);
    ok &= bind(l, "cuptiRangeProfilerGetCounterDataSize", a.rangeGetCounterDataSize, missing);
    ok &= bind(l, "cuptiRangeProfilerCounterDataImageInitialize", a.rangeCounterDataImageInitialize,
               missing);
    ok &= bind(l, "cuptiRangeProfilerGetCounterDataInfo", a.rangeGetCounterDataInfo, missing);
    ok &= bind(l, "cuptiRangeProfilerCounterDataGetRangeInfo", a.rangeGetRangeInfo, missing);
    return ok;
}

// The first libcupti that loads, its entry points bound into `api` by `bindAll`.
template <typename Api, typename Binder> Loaded<Api> load(Binder bindAll) {
    Loaded<Api> out;
    std::string tried;
    for (const auto& name : candidates()) {
        void* library = ::dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (!library) {
            tried += (tried.empty() ? "" : "; ") + name;
            continue;
        }
        std::string missing;
        if (bindAll(library, out.api, missing)) {
            out.ok = true;
            return out;
        }
        out.reason = "n/a (" + name + " lacks " + missing + ": a CUPTI older than this build's)";
        ::dlclose(library);
        return out;
    }
    out.reason = "n/a (libcupti was not found: tried " + tried +
                 "; install the CUDA toolkit's CUPTI or set MVPROF_CUPTI_LIBRARY to its path)";
    return out;
}

} // namespace

const CuptiApi* cuptiApi(std::string* reason) {
    static const auto loaded = load<CuptiApi>(bindAll); // thread-safe, once
    if (!loaded.ok && reason) *reason = loaded.reason;
    return loaded.ok ? &loaded.api : nullptr;
}

const CuptiProfilerApi* cuptiProfilerApi(std::string* reason) {
    static const auto loaded = load<CuptiProfilerApi>(bindProfiler);
    if (!loaded.ok && reason) *reason = loaded.reason;
    return loaded.ok ? &loaded.api : nullptr;
}

std::string cuptiMessage(CUptiResult status) {
    const char* text = nullptr;
    const CuptiApi* api = cuptiApi();
    if (!api || api->getResultString(status, &text) != CUPTI_SUCCESS || !text)
        text = "unknown error";
    return std::string(text) + " (" + std::to_string(int(status)) + ")";
}

} // namespace mvp::cuda
