#pragma once
// Device time of a GPU capture's probes from CUDA events, through the driver
// API (libcuda opened with dlopen: no build or load dependency). Plain C++.
//
// A mark records an event on the legacy default stream (CU_STREAM_LEGACY),
// which orders itself after all earlier work on every blocking stream — the
// built-in models' work and libtorch's default stream; work on non-blocking
// streams is not ordered and so not timed. The events are read at the end
// of each step (resolve): one host wait there, none per probe. In the exact
// mode every mark first waits for the GPU to finish all it was given, so the
// host's clock, read after the wait, includes the device's work: slower,
// and labelled so in the session.

#include "core/Result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mvp::cuda {

enum class DeviceTiming {
    Off,    // host times only: an op or span lasts while its work is launched
    Events, // CUDA events around module spans, read once per step
    Exact,  // the events, plus a wait for the GPU at every probe (spans and ops)
};
std::optional<DeviceTiming> parseDeviceTiming(std::string_view name); // "off", "events", "exact"
const char* deviceTimingName(DeviceTiming timing);

class EventTimer {
public:
    using Mark = uint32_t;

    // Loads the driver's event API from `library` (mode Events or Exact). The
    // events themselves are made on first use, on the calling thread's
    // current CUDA context (the model's). Errors name the library or symbol.
    static Result<std::unique_ptr<EventTimer>> open(DeviceTiming mode,
                                                    const std::string& library = "libcuda.so.1");
    ~EventTimer();
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;

    DeviceTiming mode() const { return mode_; }
    // Exact mode: waits for the GPU to drain (cuCtxSynchronize). Events: nothing.
    void settle();
    // Records an event now on the GPU's queue. Never fails loudly: a failed
    // driver call is kept, and resolve() reports it.
    Mark mark();
    // Marks recorded since the last resolve.
    size_t pending() const { return used_; }
    // Waits for the last mark, then gives every mark's device time in ns since
    // the first mark of the batch (indexed by Mark), and starts a new batch
    // whose marks reuse the events. Empty when nothing was marked.
    Result<std::vector<int64_t>> resolve();
    // Host waits for the GPU so far: one per resolve with marks, plus one per
    // settle in exact mode.
    int64_t waits() const { return waits_; }

private:
    struct Api;
    EventTimer(DeviceTiming mode, std::unique_ptr<Api> api);
    void fail(const char* call, int code);

    DeviceTiming mode_;
    std::unique_ptr<Api> api_;
    std::vector<void*> events_; // CUevent handles, reused batch after batch
    size_t used_ = 0;
    int64_t waits_ = 0;
    std::string error_; // the first failed driver call of this batch
};

} // namespace mvp::cuda
