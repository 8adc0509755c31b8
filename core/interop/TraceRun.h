#pragma once
// Turns a TraceModel into one run's rows: each CPU thread's slices nested by
// time (a slice inside another on its thread is its child, within the
// model's slack: 1 µs for the integer microseconds of older JSON traces), ops under ops and module
// spans, FLOPs handed up by the capture's rule (innermost wins), GPU work linked to the op that
// launched it. Internal to the importers.

#include "core/Result.h"
#include "core/interop/TraceModel.h"

#include <cstdint>

namespace mvp {
class SessionWriter;
}

namespace mvp::interop {

struct TraceRunCounts {
    int64_t ops = 0, spans = 0, modules = 0, activities = 0;
    int64_t linked = 0;      // GPU work attributed to an op
    int64_t overlapping = 0; // slices that overlapped a sibling partially (not nested)
    int64_t originNs = 0;    // the trace's time of the run's origin (its first event)
    int64_t wallNs = 0;      // first event's start to the last one's end
    bool gpu = false;        // it has GPU work
};

// Submits the run's modules, spans, ops, device activity and leaf FLOPs in
// batches (memory holds one batch, not the run). Sorts m.records().
Result<TraceRunCounts> writeTraceRun(TraceModel& m, SessionWriter& writer, int64_t run);

} // namespace mvp::interop
