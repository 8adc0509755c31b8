#pragma once
// CUPTI's activity entry points, loaded from libcupti with dlopen at run
// time: a binary that can trace GPUs still starts on a machine without the
// CUDA toolkit, and says why it cannot trace there. Internal to capture/cuda
// (includes the toolkit's header for the types).

#include <cupti.h>
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

// CUPTI's own words for a result code, for error messages.
std::string cuptiMessage(CUptiResult status);

} // namespace mvp::cuda
