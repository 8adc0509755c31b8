// GpuTrace over CUPTI's activity API, in builds that found the CUDA toolkit.
#include "capture/cuda/CuptiTracer.h"
#include "capture/probe/GpuTrace.h"
#include "capture/probe/HostClock.h"

namespace mvp {

namespace {

class CuptiTrace final : public GpuTrace {
public:
    explicit CuptiTrace(std::unique_ptr<cuda::CuptiTracer> tracer) : tracer_(std::move(tracer)) {}
    CorrelationMarks& marks() override { return marks_; }
    // The host reading between two of CUPTI's: their midpoint is its moment
    // (CUPTI's read costs tens of ns, so the pair is good to about that).
    ClockPair pairClocks() const override {
        const int64_t before = cuda::CuptiTracer::timestampNs();
        const int64_t host = HostClock::instance().nowNs();
        const int64_t after = cuda::CuptiTracer::timestampNs();
        return {before + (after - before) / 2, host};
    }
    Result<cuda::TracedActivities> collect() override { return tracer_->collect(); }

private:
    std::unique_ptr<cuda::CuptiTracer> tracer_;
    cuda::CuptiMarks marks_;
};

} // namespace

Result<std::unique_ptr<GpuTrace>> GpuTrace::start() {
    auto tracer = cuda::CuptiTracer::start();
    if (!tracer) return tracer.error();
    return std::unique_ptr<GpuTrace>(new CuptiTrace(std::move(tracer.value())));
}

} // namespace mvp
