#include "core/analysis/Timeline.h"

#include "core/analysis/MoeStats.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace mvp {

size_t Timeline::spanCount() const {
    size_t n = 0;
    for (const auto& l : lanes)
        n += l.starts.size();
    return n;
}

Timeline buildTimeline(const std::vector<ModuleRow>& modules, const std::vector<SpanRow>& spans,
                       const std::vector<PhaseRow>& phases) {
    Timeline t;
    t.phases = phases;
    std::map<std::pair<int, int>, size_t> laneOf;
    std::map<int64_t, size_t> laneOfModule;
    std::vector<std::pair<int, int>> keys;
    for (const auto& m : modules)
        if (auto p = moeLane(m); p && p->second >= -1) keys.push_back(*p);
    std::sort(keys.begin(), keys.end());
    for (const auto& k : keys) {
        TimelineLane lane;
        lane.layer = k.first;
        lane.expert = k.second;
        lane.label = "L" + std::to_string(k.first) +
                     (k.second < 0 ? " gate" : " e" + std::to_string(k.second));
        laneOf[k] = t.lanes.size();
        t.lanes.push_back(std::move(lane));
    }
    for (const auto& m : modules)
        if (auto p = moeLane(m); p && p->second >= -1) laneOfModule[m.id] = laneOf[*p];
    for (const auto& s : spans) {
        t.endNs = std::max(t.endNs, s.endNs);
        auto it = laneOfModule.find(s.module);
        if (it == laneOfModule.end()) continue;
        t.lanes[it->second].starts.push_back(s.startNs);
        t.lanes[it->second].ends.push_back(s.endNs);
    }
    for (const auto& p : phases)
        t.endNs = std::max(t.endNs, p.endNs);
    for (auto& lane : t.lanes) {
        // Spans of one lane arrive in end order; sort by start for range lookups.
        std::vector<size_t> order(lane.starts.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return lane.starts[a] < lane.starts[b]; });
        std::vector<int64_t> s, e;
        s.reserve(order.size());
        e.reserve(order.size());
        for (size_t i : order)
            s.push_back(lane.starts[i]), e.push_back(lane.ends[i]);
        lane.starts = std::move(s);
        lane.ends = std::move(e);
    }
    return t;
}

std::vector<TimelineBox> levelOfDetail(const TimelineLane& lane, int64_t from, int64_t to,
                                       double nsPerPixel) {
    std::vector<TimelineBox> out;
    if (lane.starts.empty() || to < from) return out;
    // Spans in one lane never overlap (one module runs at a time), so the first
    // candidate is the one before the first start ≥ from.
    auto it = std::lower_bound(lane.starts.begin(), lane.starts.end(), from);
    size_t i = size_t(std::max<std::ptrdiff_t>(0, (it - lane.starts.begin()) - 1));
    const auto pixel = int64_t(std::max(1.0, nsPerPixel));
    for (; i < lane.starts.size() && lane.starts[i] <= to; ++i) {
        if (lane.ends[i] < from) continue;
        if (!out.empty() && lane.starts[i] - out.back().end < pixel &&
            (lane.ends[i] - lane.starts[i] < pixel || out.back().end - out.back().start < pixel)) {
            // Closer than a pixel to the previous box and too thin to show alone: fold.
            out.back().end = std::max(out.back().end, lane.ends[i]);
            out.back().count += 1;
        } else {
            out.push_back({lane.starts[i], lane.ends[i], 1});
        }
    }
    return out;
}

} // namespace mvp
