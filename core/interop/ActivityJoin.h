#pragma once
// Attributes GPU work and CUDA API calls to the op and module span that
// launched them, from CUPTI's external correlation records (docs/capture-notes.md
// §3). The capture pushes an op's id (ExternalKind::Op) and a probe span's id
// (ExternalKind::Span) around their work; CUPTI then pairs every API record
// made inside with the innermost pushed id of each kind, under the API
// record's correlation id, which the kernel, copy or fill it launched shares.
// The join runs once every buffer is flushed: records arrive out of order.

#include "core/session/Records.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace mvp {

enum class ExternalKind { Op, Span };

struct ExternalLink {
    ExternalKind kind = ExternalKind::Op;
    int64_t externalId = 0; // the pushed id: an op's or span's row id
    int64_t correlation = 0;
};

struct JoinStats {
    int64_t gpuWork = 0;       // kernels, copies and fills
    int64_t withOp = 0;        // of those, attributed to an op
    int64_t withSpan = 0;      // … to a module span
    int64_t gpuNs = 0;         // their summed device time
    int64_t gpuNsWithSpan = 0; // … of the work attributed to a module span
    int64_t apiCalls = 0, apiCallsWithOp = 0;
};

// Sets `op` and `span` on every row whose correlation id has links. Where
// several ids of one kind share a correlation id (nested pushes reported
// more than once), the largest wins: ids grow as calls start, so it is the
// innermost. A row with an op but no span link takes spanOfOp(op), the span
// the op ran in (nullopt: none).
JoinStats joinActivities(std::vector<DeviceActivityRow>& rows,
                         const std::vector<ExternalLink>& links,
                         const std::function<std::optional<int64_t>(int64_t op)>& spanOfOp);

// The same counts over rows as they stand (after a caller changed links).
JoinStats countActivities(const std::vector<DeviceActivityRow>& rows);

} // namespace mvp
