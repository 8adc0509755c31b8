#pragma once
// CUPTI's activity entry points, loaded from libcupti with dlopen at run
// time: a binary that can trace GPUs still starts on a machine without the
// CUDA toolkit, and says why it cannot trace there. Internal to capture/cuda
// (includes the toolkit's header for the types).

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <string>

namespace mvp::cuda {

struct CuptiApi {
    decltype(&cuptiGetResultString) getResultString;
    decltype(&cuptiGetCallbackName) getCallbackName;
    decltype(&cuptiGetTimestamp) getTimestamp;
    decltype(&cuptiActivityGetNextRecord) activityGetNextRecord;
    decltype(&cuptiActivityGetNumDroppedRecords) activityGetNumDroppedRecords;
    decltype(&cuptiActivityRegisterCallbacks) activityRegisterCallbacks;
    decltype(&cuptiActivityEnable) activityEnable;
    decltype(&cuptiActivityDisable) activityDisable;
    decltype(&cuptiActivityFlushAll) activityFlushAll;
    decltype(&cuptiActivityPushExternalCorrelationId) activityPushExternalCorrelationId;
    decltype(&cuptiActivityPopExternalCorrelationId) activityPopExternalCorrelationId;
};

// The process's libcupti (one already loaded first, then by its soname, then
// where the build found it; $MVPROF_CUPTI_LIBRARY first of all), loaded on
// the first call. Null when none loads or an entry point is missing, with
// the reason in `reason` when given.
const CuptiApi* cuptiApi(std::string* reason = nullptr);

// The range profiler's entry points (hardware counters, docs/capture-notes.md §5):
// the host API, which needs no GPU, and the target API. Loaded from the same
// libcupti as the activity API but apart from it, so that a CUPTI without
// them still traces.
struct CuptiProfilerApi {
    decltype(&cuptiProfilerInitialize) initialize;
    decltype(&cuptiProfilerDeInitialize) deInitialize;
    decltype(&cuptiDeviceGetChipName) deviceGetChipName;
    decltype(&cuptiProfilerGetCounterAvailability) getCounterAvailability;
    decltype(&cuptiProfilerHostInitialize) hostInitialize;
    decltype(&cuptiProfilerHostDeinitialize) hostDeinitialize;
    decltype(&cuptiProfilerHostGetSupportedChips) hostGetSupportedChips;
    decltype(&cuptiProfilerHostConfigAddMetrics) hostConfigAddMetrics;
    decltype(&cuptiProfilerHostGetConfigImageSize) hostGetConfigImageSize;
    decltype(&cuptiProfilerHostGetConfigImage) hostGetConfigImage;
    decltype(&cuptiProfilerHostGetNumOfPasses) hostGetNumOfPasses;
    decltype(&cuptiProfilerHostEvaluateToGpuValues) hostEvaluateToGpuValues;
    decltype(&cuptiRangeProfilerEnable) rangeEnable;
    decltype(&cuptiRangeProfilerDisable) rangeDisable;
    decltype(&cuptiRangeProfilerSetConfig) rangeSetConfig;
    decltype(&cuptiRangeProfilerStart) rangeStart;
    decltype(&cuptiRangeProfilerStop) rangeStop;
    decltype(&cuptiRangeProfilerPushRange) rangePush;
    decltype(&cuptiRangeProfilerPopRange) rangePop;
    decltype(&cuptiRangeProfilerDecodeData) rangeDecodeData;
    decltype(&cuptiRangeProfilerGetCounterDataSize) rangeGetCounterDataSize;
    decltype(&cuptiRangeProfilerCounterDataImageInitialize) rangeCounterDataImageInitialize;
    decltype(&cuptiRangeProfilerGetCounterDataInfo) rangeGetCounterDataInfo;
    decltype(&cuptiRangeProfilerCounterDataGetRangeInfo) rangeGetRangeInfo;
};
const CuptiProfilerApi* cuptiProfilerApi(std::string* reason = nullptr);

// A parameter block as CUPTI wants it: zeroed, its size set.
template <typename Params> Params cuptiParams(size_t structSize) {
    Params p{};
    p.structSize = structSize;
    return p;
}

// CUPTI's own words for a result code, for error messages.
std::string cuptiMessage(CUptiResult status);

} // namespace mvp::cuda
