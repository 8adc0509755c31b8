#pragma once
// The range profiler's host object (CUPTI's profiler host API, through the
// dlopen'd entry points of CuptiApi.h): configuration images for a chip's
// metrics, and the metric values of a decoded counter-data image. Internal to
// capture/cuda (includes the toolkit's headers).

#include "capture/cuda/CuptiApi.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp::cuda {

#define HOST_PARAMS(Name)                                                                          \
    cuptiParams<CUpti_Profiler_Host_##Name##_Params>(                                              \
        CUpti_Profiler_Host_##Name##_Params_STRUCT_SIZE)

// The loaded range-profiler entry points, or why there are none.
Result<const CuptiProfilerApi*> profilerApi();

// One host object for a chip, deinitialised on scope exit. The counter
// availability image (from the GPU) may be empty for an offline configuration.
class HostObject {
public:
    HostObject(const CuptiProfilerApi& api, const std::string& chip,
               const std::vector<uint8_t>& counterAvailability = {});
    ~HostObject();
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    CUptiResult status() const { return status_; }
    CUptiResult add(const std::vector<const char*>& names);
    Result<std::vector<uint8_t>> image();
    // The metrics' values in range `range` of a decoded counter-data image.
    Result<std::vector<double>> evaluate(const std::vector<uint8_t>& counterData, size_t range,
                                         const std::vector<const char*>& names);

private:
    const CuptiProfilerApi& api_;
    CUptiResult status_ = CUPTI_ERROR_UNKNOWN;
    CUpti_Profiler_Host_Object* object_ = nullptr;
};

} // namespace mvp::cuda
