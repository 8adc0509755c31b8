#include "core/analysis/ModuleCosts.h"

#include <algorithm>
#include <unordered_map>

namespace mvp {

std::optional<size_t> ModuleCostTree::indexOf(int64_t moduleId) const {
    // Capture numbers modules 1..n in order; fall back to a search otherwise.
    if (moduleId >= 1 && size_t(moduleId) <= nodes.size() &&
        nodes[size_t(moduleId - 1)].module.id == moduleId)
        return size_t(moduleId - 1);
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].module.id == moduleId) return i;
    return std::nullopt;
}

ModuleCostTree buildModuleCosts(const std::vector<ModuleRow>& modules,
                                const std::vector<SpanRow>& spans, int64_t wallNs) {
    ModuleCostTree tree;
    tree.wallNs = wallNs;
    tree.nodes.reserve(modules.size());
    for (const auto& m : modules) {
        ModuleCost c;
        c.module = m;
        tree.nodes.push_back(std::move(c));
    }
    for (size_t i = 0; i < tree.nodes.size(); ++i) {
        const auto& parent = tree.nodes[i].module.parent;
        const auto p = parent ? tree.indexOf(*parent) : std::nullopt;
        if (p)
            tree.nodes[*p].children.push_back(i);
        else
            tree.roots.push_back(i);
    }

    // Time spent in direct child spans, per parent span.
    std::unordered_map<int64_t, int64_t> childNs;
    childNs.reserve(spans.size());
    for (const auto& s : spans)
        if (s.parent) childNs[*s.parent] += s.endNs - s.startNs;

    for (const auto& s : spans) {
        const auto i = tree.indexOf(s.module);
        if (!i) continue;
        auto& n = tree.nodes[*i];
        const int64_t dur = s.endNs - s.startNs;
        const auto c = childNs.find(s.id);
        n.calls += 1;
        n.totalNs += dur;
        n.selfNs += dur - (c == childNs.end() ? 0 : c->second);
        n.flops += s.flops;
        n.bytes += s.bytes;
        n.flopsKnown = n.flopsKnown || s.flopsKnown;
    }
    for (auto& n : tree.nodes)
        n.share = wallNs > 0 ? double(n.totalNs) / double(wallNs) : 0.0;
    return tree;
}

void addDeviceTime(ModuleCostTree& tree, const std::vector<SpanRow>& spans,
                   const std::unordered_map<int64_t, int64_t>& deviceNsBySpan) {
    tree.deviceTime = DeviceTimeSource::Activity;
    for (auto& n : tree.nodes)
        n.deviceNs = 0;
    std::unordered_map<int64_t, const SpanRow*> byId;
    byId.reserve(spans.size());
    for (const auto& s : spans)
        byId[s.id] = &s;
    // Each span's own GPU time goes to its module and to the modules of the
    // spans around it; a chain longer than the spans is a damaged parent loop.
    for (const auto& [spanId, ns] : deviceNsBySpan) {
        auto it = byId.find(spanId);
        for (size_t hops = 0; it != byId.end() && hops <= spans.size(); ++hops) {
            const SpanRow& s = *it->second;
            if (const auto i = tree.indexOf(s.module)) *tree.nodes[*i].deviceNs += ns;
            it = s.parent ? byId.find(*s.parent) : byId.end();
        }
    }
}

void addSpanDeviceTime(ModuleCostTree& tree, const std::vector<SpanRow>& spans) {
    const bool timed =
        std::any_of(spans.begin(), spans.end(), [](const SpanRow& s) { return s.deviceNs; });
    if (!timed) return;
    tree.deviceTime = DeviceTimeSource::Events;
    for (auto& n : tree.nodes)
        n.deviceNs = 0;
    for (const auto& s : spans)
        if (const auto i = tree.indexOf(s.module); i && s.deviceNs)
            *tree.nodes[*i].deviceNs += *s.deviceNs;
}

PhaseSummary summarisePhases(const std::vector<PhaseRow>& rows) {
    PhaseSummary s;
    if (rows.empty()) return s;
    std::vector<PhaseRow> sorted = rows;
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    int64_t covered = 0, lastEnd = sorted.front().startNs, maxEnd = sorted.front().endNs;
    for (size_t i = 0; i < sorted.size(); ++i) {
        const auto& r = sorted[i];
        if (i > 0 && r.startNs < lastEnd) ++s.overlaps;
        lastEnd = r.endNs;
        maxEnd = std::max(maxEnd, r.endNs);
        covered += r.endNs - r.startNs;
        auto it = std::find_if(s.phases.begin(), s.phases.end(),
                               [&](const auto& p) { return p.phase == r.phase; });
        if (it == s.phases.end()) it = s.phases.insert(s.phases.end(), PhaseTotal{r.phase});
        it->count += 1;
        it->totalNs += r.endNs - r.startNs;
    }
    // Times count from the run's origin, so the wall time ends at the last phase end.
    s.wallNs = maxEnd;
    s.coverage = s.wallNs > 0 ? double(covered) / double(s.wallNs) : 0.0;
    for (auto& p : s.phases)
        p.share = s.wallNs > 0 ? double(p.totalNs) / double(s.wallNs) : 0.0;
    return s;
}

void addPhaseCosts(PhaseSummary& summary, const std::vector<OpTotal>& totals) {
    for (const auto& t : totals)
        for (auto& p : summary.phases)
            if (p.phase == t.phase) {
                p.flops += t.flops;
                p.bytes += t.bytes;
                p.opNs += t.ns;
                p.knownNs += t.knownNs;
                break;
            }
}

} // namespace mvp
