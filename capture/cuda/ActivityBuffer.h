#pragma once
// CUPTI activity buffers → session rows (docs/capture-notes.md §3). Plain C++:
// no CUPTI header here, so callers need not see the toolkit. Kernels
// (CONCURRENT_KERNEL / KERNEL), copies, fills and runtime / driver API calls
// become DeviceActivityRows; external correlation records become the links
// ActivityJoin attributes them by. Records of kinds not listed are counted.

#include "core/Result.h"
#include "core/interop/ActivityJoin.h"
#include "core/session/Records.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mvp::cuda {

struct ParsedActivities {
    std::vector<DeviceActivityRow> rows; // ids unset (0): the writer numbers them
    std::vector<ExternalLink> links;
    int64_t otherRecords = 0; // records of a kind mvprof does not store
};

// Walks one completed buffer's `validSize` bytes with cuptiActivityGetNextRecord,
// appending to `out`. External ids pushed with CUSTOM2 are ops, CUSTOM1 spans
// (Kineto's CUSTOM0 is left alone). An error other than the end of the
// buffer is returned with CUPTI's message; what was parsed before it stays.
Status parseActivityBuffer(uint8_t* buffer, size_t validSize, ParsedActivities& out);

} // namespace mvp::cuda
