#include "capture/cuda/EventTimer.h"

#include <cmath>
#include <dlfcn.h>

namespace mvp::cuda {
namespace {

// cuda.h's handles and constants, copied so that no toolkit header is needed.
using CuEvent = void*;
using CuStream = void*;
const CuStream kLegacyStream = reinterpret_cast<CuStream>(0x1); // CU_STREAM_LEGACY
constexpr unsigned kEventDefault = 0;                           // CU_EVENT_DEFAULT: timed

// The first of `names` the library exports (newer drivers add _v2 names).
void* symbol(void* library, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (void* s = dlsym(library, n)) return s;
    return nullptr;
}

} // namespace

std::optional<DeviceTiming> parseDeviceTiming(std::string_view name) {
    if (name == "off") return DeviceTiming::Off;
    if (name == "events") return DeviceTiming::Events;
    if (name == "exact") return DeviceTiming::Exact;
    return std::nullopt;
}

const char* deviceTimingName(DeviceTiming timing) {
    switch (timing) {
    case DeviceTiming::Off:
        return "off";
    case DeviceTiming::Events:
        return "events";
    case DeviceTiming::Exact:
        return "exact";
    }
    return "off";
}

struct EventTimer::Api {
    int (*create)(CuEvent*, unsigned) = nullptr;
    int (*record)(CuEvent, CuStream) = nullptr;
    int (*synchronize)(CuEvent) = nullptr;
    int (*elapsed)(float*, CuEvent, CuEvent) = nullptr;
    int (*destroy)(CuEvent) = nullptr;
    int (*ctxSynchronize)() = nullptr;
};

Result<std::unique_ptr<EventTimer>> EventTimer::open(DeviceTiming mode,
                                                     const std::string& library) {
    if (mode == DeviceTiming::Off)
        return makeError(ErrorCode::BadInput, "device timing is off: no events to record");
    // Kept open for the process's life, as the driver probe does: libtorch
    // uses the same driver.
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        return makeError(ErrorCode::NotFound, "no NVIDIA driver: " + library + " cannot be loaded");
    auto api = std::make_unique<Api>();
    api->create = reinterpret_cast<decltype(api->create)>(symbol(handle, {"cuEventCreate"}));
    api->record = reinterpret_cast<decltype(api->record)>(symbol(handle, {"cuEventRecord"}));
    api->synchronize =
        reinterpret_cast<decltype(api->synchronize)>(symbol(handle, {"cuEventSynchronize"}));
    api->elapsed = reinterpret_cast<decltype(api->elapsed)>(
        symbol(handle, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}));
    api->destroy = reinterpret_cast<decltype(api->destroy)>(
        symbol(handle, {"cuEventDestroy_v2", "cuEventDestroy"}));
    api->ctxSynchronize =
        reinterpret_cast<decltype(api->ctxSynchronize)>(symbol(handle, {"cuCtxSynchronize"}));
    if (!api->create || !api->record || !api->synchronize || !api->elapsed || !api->destroy ||
        !api->ctxSynchronize)
        return makeError(ErrorCode::NotFound,
                         library + " lacks the CUDA event API (cuEventCreate, cuEventRecord, "
                                   "cuEventSynchronize, cuEventElapsedTime, cuCtxSynchronize)");
    return std::unique_ptr<EventTimer>(new EventTimer(mode, std::move(api)));
}

EventTimer::EventTimer(DeviceTiming mode, std::unique_ptr<Api> api)
    : mode_(mode), api_(std::move(api)) {}

EventTimer::~EventTimer() {
    for (CuEvent e : events_)
        api_->destroy(e);
}

void EventTimer::fail(const char* call, int code) {
    if (error_.empty()) error_ = std::string(call) + " returned CUDA error " + std::to_string(code);
}

void EventTimer::settle() {
    if (mode_ != DeviceTiming::Exact) return;
    ++waits_;
    if (const int code = api_->ctxSynchronize(); code != 0) fail("cuCtxSynchronize", code);
}

EventTimer::Mark EventTimer::mark() {
    const Mark m = Mark(used_++);
    if (m == events_.size()) {
        CuEvent e = nullptr;
        if (const int code = api_->create(&e, kEventDefault); code != 0)
            fail("cuEventCreate", code);
        else
            events_.push_back(e);
    }
    if (m >= events_.size()) return m; // no event for it: resolve() reports why
    if (const int code = api_->record(events_[m], kLegacyStream); code != 0)
        fail("cuEventRecord", code);
    return m;
}

Result<std::vector<int64_t>> EventTimer::resolve() {
    const size_t n = used_;
    used_ = 0;
    std::vector<int64_t> times;
    if (n == 0) return times;
    if (!error_.empty()) {
        const std::string why = std::move(error_);
        error_.clear();
        return makeError(ErrorCode::Internal, "CUDA events could not be recorded: " + why);
    }
    // The last event completes after every earlier one on the same queue.
    ++waits_;
    if (const int code = api_->synchronize(events_[n - 1]); code != 0)
        return makeError(ErrorCode::Internal,
                         "cuEventSynchronize returned CUDA error " + std::to_string(code));
    times.resize(n);
    for (size_t i = 1; i < n; ++i) {
        float ms = 0;
        if (const int code = api_->elapsed(&ms, events_[0], events_[i]); code != 0)
            return makeError(ErrorCode::Internal,
                             "cuEventElapsedTime returned CUDA error " + std::to_string(code));
        times[i] = std::llround(double(ms) * 1e6);
    }
    return times;
}

} // namespace mvp::cuda
