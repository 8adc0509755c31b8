// GpuTrace in builds without the CUDA toolkit: there is no tracer to start.
#include "capture/probe/GpuTrace.h"

namespace mvp {

Result<std::unique_ptr<GpuTrace>> GpuTrace::start() {
    return makeError(ErrorCode::BadInput,
                     "this build of mvprof has no CUPTI (the CUDA toolkit was not found when it "
                     "was built): GPU kernels and copies are not traced");
}

} // namespace mvp
