#pragma once
// The gate-vs-expert timeline (docs/diagnostics.md §5): one lane group per MoE
// layer — its router, then one lane per expert — over the run's time axis,
// with the phases as markers. Level of detail is computed here, not in the
// widget: for a visible window and a pixel size, each lane yields at most one
// box per pixel, narrower spans folded together and counted.

#include "core/session/Records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

struct TimelineLane {
    int layer = 0;
    int expert = -1;                   // -1: the layer's router (gate)
    std::string label;                 // "L1 gate", "L1 e3"
    std::vector<int64_t> starts, ends; // spans, sorted by start (measured)
};

struct TimelineBox {
    int64_t start = 0, end = 0;
    int count = 1; // spans folded into this box
};

struct Timeline {
    std::vector<TimelineLane> lanes; // layer order, gate first
    std::vector<PhaseRow> phases;
    int64_t endNs = 0;
    size_t spanCount() const;
};

Timeline buildTimeline(const std::vector<ModuleRow>& modules, const std::vector<SpanRow>& spans,
                       const std::vector<PhaseRow>& phases);

// The boxes of one lane that intersect [from, to], merged so that no two boxes
// start within one pixel (nsPerPixel) of each other's end.
std::vector<TimelineBox> levelOfDetail(const TimelineLane& lane, int64_t from, int64_t to,
                                       double nsPerPixel);

} // namespace mvp
