#include "capture/cuda/ActivityBuffer.h"

#include "capture/cuda/CuptiApi.h"

#include <cstdlib>
#include <cupti.h>
#include <cxxabi.h>
#include <memory>
#include <string>

namespace mvp::cuda {
namespace {

// Kernel names arrive mangled; the tree and timeline show them demangled
// (as Kineto and Nsight do). Unmangled names (extern "C") pass as they are.
std::string demangled(const char* name) {
    if (!name) return "(unnamed kernel)";
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                               std::free);
    return status == 0 && out ? std::string(out.get()) : std::string(name);
}

const char* copyName(uint8_t copyKind) {
    switch (copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "Memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "Memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "Memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "Memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "Memcpy PtoP";
    default:
        return "Memcpy";
    }
}

// GPU work's common fields. A kernel's sit at the same offsets in every
// Kernel record version since Kernel4 (docs/capture-notes.md §3), so older CUPTI
// 12.x records read correctly through the 13.x struct.
template <typename Record>
DeviceActivityRow gpuRow(ActivityKind kind, std::string name, const Record& r) {
    DeviceActivityRow row;
    row.kind = kind;
    row.name = std::move(name);
    row.device = static_cast<int>(r.deviceId);
    row.stream = r.streamId;
    row.startNs = static_cast<int64_t>(r.start);
    row.endNs = static_cast<int64_t>(r.end);
    row.correlation = r.correlationId;
    return row;
}

DeviceActivityRow kernelRow(const CUpti_ActivityKernel10& k) {
    return gpuRow(ActivityKind::Kernel, demangled(k.name), k);
}

DeviceActivityRow copyRow(const CUpti_ActivityMemcpy6& m) {
    DeviceActivityRow r = gpuRow(ActivityKind::Memcpy, copyName(m.copyKind), m);
    r.bytes = static_cast<int64_t>(m.bytes);
    return r;
}

DeviceActivityRow fillRow(const CUpti_ActivityMemset4& m) {
    DeviceActivityRow r = gpuRow(ActivityKind::Memset, "Memset", m);
    r.bytes = static_cast<int64_t>(m.bytes);
    return r;
}

DeviceActivityRow apiRow(const CuptiApi& cupti, const CUpti_ActivityAPI& a, bool driver) {
    DeviceActivityRow r;
    r.kind = driver ? ActivityKind::Driver : ActivityKind::Runtime;
    const char* name = nullptr;
    const auto domain = driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
    r.name = cupti.getCallbackName(domain, a.cbid, &name) == CUPTI_SUCCESS && name
                 ? std::string(name)
                 : (driver ? "driver call " : "runtime call ") + std::to_string(a.cbid);
    r.thread = static_cast<int64_t>(a.threadId);
    r.startNs = static_cast<int64_t>(a.start);
    r.endNs = static_cast<int64_t>(a.end);
    r.correlation = a.correlationId;
    return r;
}

void addLink(const CUpti_ActivityExternalCorrelation& e, ParsedActivities& out) {
    if (e.externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2)
        out.links.push_back(
            {ExternalKind::Op, static_cast<int64_t>(e.externalId), e.correlationId});
    else if (e.externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1)
        out.links.push_back(
            {ExternalKind::Span, static_cast<int64_t>(e.externalId), e.correlationId});
    else
        ++out.otherRecords;
}

void addRecord(const CuptiApi& cupti, const CUpti_Activity* record, ParsedActivities& out) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        out.rows.push_back(kernelRow(*reinterpret_cast<const CUpti_ActivityKernel10*>(record)));
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        out.rows.push_back(copyRow(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record)));
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        out.rows.push_back(fillRow(*reinterpret_cast<const CUpti_ActivityMemset4*>(record)));
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        out.rows.push_back(apiRow(cupti, *reinterpret_cast<const CUpti_ActivityAPI*>(record),
                                  record->kind == CUPTI_ACTIVITY_KIND_DRIVER));
        break;
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
        addLink(*reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record), out);
        break;
    default:
        ++out.otherRecords;
    }
}

} // namespace

Status parseActivityBuffer(uint8_t* buffer, size_t validSize, ParsedActivities& out) {
    std::string why;
    const CuptiApi* cupti = cuptiApi(&why);
    if (!cupti) return makeError(ErrorCode::BadInput, "CUPTI activity buffers unreadable: " + why);
    CUpti_Activity* record = nullptr;
    for (;;) {
        const CUptiResult status = cupti->activityGetNextRecord(buffer, validSize, &record);
        if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) return Ok{};
        if (status != CUPTI_SUCCESS)
            return makeError(ErrorCode::BadInput,
                             "CUPTI activity buffer unreadable: " + cuptiMessage(status));
        addRecord(*cupti, record, out);
    }
}

} // namespace mvp::cuda
