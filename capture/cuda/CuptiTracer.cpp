#include "capture/cuda/CuptiTracer.h"

#include "capture/cuda/CuptiApi.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

namespace mvp::cuda {
namespace {

// Kineto's buffer size: large enough that a decode step's records rarely
// span buffers, small enough that a flush frees memory soon.
constexpr size_t kBufferBytes = 4 << 20;

constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

// What CUPTI's threads hand over: completed buffers and the records they
// could not hold. Guarded by gMutex; the callbacks stay registered for the
// process's life (CUPTI has no way to unregister them).
std::mutex gMutex;
std::vector<std::pair<uint8_t*, size_t>> gCompleted; // buffer, valid bytes
std::atomic<int64_t> gDropped{0};
std::atomic<bool> gRunning{false};
bool gRegistered = false;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0; // a null buffer: CUPTI drops and counts the records
    *maxNumRecords = 0;                 // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t,
                              size_t validSize) {
    size_t dropped = 0;
    if (cuptiApi()->activityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS)
        gDropped += int64_t(dropped);
    if (!buffer) return;
    std::lock_guard lock(gMutex);
    gCompleted.emplace_back(buffer, validSize);
}

std::vector<std::pair<uint8_t*, size_t>> takeCompleted() {
    std::lock_guard lock(gMutex);
    return std::exchange(gCompleted, {});
}

void freeAll(std::vector<std::pair<uint8_t*, size_t>>& buffers) {
    for (auto& b : buffers)
        std::free(b.first);
    buffers.clear();
}

void disableKinds() {
    for (const auto kind : kKinds)
        cuptiApi()->activityDisable(kind);
}

Status enableKinds() {
    for (const auto kind : kKinds)
        if (const auto s = cuptiApi()->activityEnable(kind); s != CUPTI_SUCCESS) {
            disableKinds();
            return makeError(ErrorCode::BadInput,
                             "CUPTI unavailable: enabling activity kind " +
                                 std::to_string(int(kind)) + " failed with " + cuptiMessage(s) +
                                 " (no NVIDIA GPU or driver here, or another profiler such as "
                                 "Nsight or torch.profiler holds CUPTI)");
        }
    return Ok{};
}

// Only a running tracer's marks call these, so CUPTI is loaded.
void push(CUpti_ExternalCorrelationKind kind, int64_t id) {
    cuptiApi()->activityPushExternalCorrelationId(kind, uint64_t(id));
}

void pop(CUpti_ExternalCorrelationKind kind) {
    uint64_t last = 0;
    cuptiApi()->activityPopExternalCorrelationId(kind, &last);
}

} // namespace

Result<std::unique_ptr<CuptiTracer>> CuptiTracer::start() {
    std::string why;
    const CuptiApi* cupti = cuptiApi(&why);
    if (!cupti) return makeError(ErrorCode::BadInput, "CUPTI unavailable: " + why);
    if (gRunning.exchange(true))
        return makeError(ErrorCode::BadInput, "a CUPTI tracer already runs in this process");
    if (!gRegistered) {
        if (const auto s = cupti->activityRegisterCallbacks(bufferRequested, bufferCompleted);
            s != CUPTI_SUCCESS) {
            gRunning = false;
            return makeError(ErrorCode::BadInput,
                             "CUPTI unavailable: registering activity buffers failed with " +
                                 cuptiMessage(s) + " (no NVIDIA GPU or driver here?)");
        }
        gRegistered = true;
    }
    if (auto s = enableKinds(); !s) {
        gRunning = false;
        return s.error();
    }
    gDropped = 0;
    return std::unique_ptr<CuptiTracer>(new CuptiTracer);
}

CuptiTracer::~CuptiTracer() {
    disableKinds();
    cuptiApi()->activityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    auto left = takeCompleted();
    freeAll(left);
    gRunning = false;
}

void CuptiTracer::pushOp(int64_t id) {
    push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, id);
}
void CuptiTracer::popOp() {
    pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2);
}
void CuptiTracer::pushSpan(int64_t id) {
    push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, id);
}
void CuptiTracer::popSpan() {
    pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);
}

void CuptiTracer::pushProfilerWork() {
    push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, 0);
    push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, 0);
}
void CuptiTracer::popProfilerWork() {
    pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);
    pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2);
}

int64_t CuptiTracer::timestampNs() {
    uint64_t ns = 0;
    if (const CuptiApi* cupti = cuptiApi()) cupti->getTimestamp(&ns);
    return int64_t(ns);
}

Result<TracedActivities> CuptiTracer::collect() {
    if (const auto s = cuptiApi()->activityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        s != CUPTI_SUCCESS)
        return makeError(ErrorCode::Internal, "CUPTI flush failed: " + cuptiMessage(s));
    auto buffers = takeCompleted();
    TracedActivities out;
    Status parsed = Ok{};
    for (const auto& [buffer, valid] : buffers)
        if (parsed) parsed = parseActivityBuffer(buffer, valid, out.parsed);
    out.buffers = int64_t(buffers.size());
    freeAll(buffers);
    if (!parsed) return parsed.error();
    out.dropped = gDropped.exchange(0);
    return out;
}

} // namespace mvp::cuda
