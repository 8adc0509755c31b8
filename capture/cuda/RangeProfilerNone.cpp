// The range profiler in a build without the CUDA toolkit: it says so.
#include "capture/cuda/RangeProfiler.h"

namespace mvp::cuda {

struct RangeProfiler::State {};

RangeProfiler::RangeProfiler(std::unique_ptr<State> state) : d(std::move(state)) {}
RangeProfiler::~RangeProfiler() = default;

Result<std::unique_ptr<RangeProfiler>> RangeProfiler::start(int, const std::vector<std::string>&,
                                                            size_t, int) {
    return makeError(ErrorCode::NotFound,
                     "this mvprof was built without the CUDA toolkit's CUPTI: no hardware "
                     "counters");
}

const std::string& RangeProfiler::chip() const {
    static const std::string none;
    return none;
}
int RangeProfiler::configPasses() const {
    return 0;
}
Status RangeProfiler::beginPass() {
    return makeError(ErrorCode::NotFound, "no CUPTI in this build");
}
void RangeProfiler::push(const std::string&) {}
void RangeProfiler::pop() {}
Result<bool> RangeProfiler::endPass() {
    return makeError(ErrorCode::NotFound, "no CUPTI in this build");
}
Result<std::vector<CounterRange>> RangeProfiler::ranges() {
    return makeError(ErrorCode::NotFound, "no CUPTI in this build");
}

} // namespace mvp::cuda
