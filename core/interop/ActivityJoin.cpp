#include "core/interop/ActivityJoin.h"

#include <algorithm>
#include <unordered_map>

namespace mvp {
namespace {

struct Launch {
    std::optional<int64_t> op, span;
};

void keepInnermost(std::optional<int64_t>& slot, int64_t id) {
    if (!slot || id > *slot) slot = id;
}

std::unordered_map<int64_t, Launch> launchesByCorrelation(const std::vector<ExternalLink>& links) {
    std::unordered_map<int64_t, Launch> byCorrelation;
    byCorrelation.reserve(links.size());
    for (const ExternalLink& l : links) {
        Launch& launch = byCorrelation[l.correlation];
        keepInnermost(l.kind == ExternalKind::Op ? launch.op : launch.span, l.externalId);
    }
    return byCorrelation;
}

void count(JoinStats& s, const DeviceActivityRow& r) {
    if (!onDevice(r.kind)) {
        ++s.apiCalls;
        s.apiCallsWithOp += r.op.has_value();
        return;
    }
    const int64_t ns = std::max<int64_t>(0, r.endNs - r.startNs);
    ++s.gpuWork;
    s.withOp += r.op.has_value();
    s.withSpan += r.span.has_value();
    s.gpuNs += ns;
    if (r.span) s.gpuNsWithSpan += ns;
}

} // namespace

JoinStats joinActivities(std::vector<DeviceActivityRow>& rows,
                         const std::vector<ExternalLink>& links,
                         const std::function<std::optional<int64_t>(int64_t op)>& spanOfOp) {
    const auto byCorrelation = launchesByCorrelation(links);
    JoinStats stats;
    for (DeviceActivityRow& r : rows) {
        if (r.correlation) {
            if (const auto it = byCorrelation.find(*r.correlation); it != byCorrelation.end()) {
                if (it->second.op) r.op = it->second.op;
                if (it->second.span) r.span = it->second.span;
            }
        }
        if (r.op && !r.span && spanOfOp) r.span = spanOfOp(*r.op);
        count(stats, r);
    }
    return stats;
}

JoinStats countActivities(const std::vector<DeviceActivityRow>& rows) {
    JoinStats stats;
    for (const DeviceActivityRow& r : rows)
        count(stats, r);
    return stats;
}

} // namespace mvp
