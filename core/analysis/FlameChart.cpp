#include "core/analysis/FlameChart.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>

namespace mvp {

namespace {
// Puts each slice (sorted by start) on the first row at or below its depth
// where it overlaps nothing: nested slices keep their depth, a slice that
// overlaps a sibling (two threads, a damaged file) spills one row down.
struct Packer {
    FlameKind kind;
    std::string prefix;
    std::vector<FlameRow> rows;

    void place(int depth, int64_t start, int64_t end, uint32_t name, int64_t id) {
        size_t d = size_t(std::max(depth, 0));
        while (d < rows.size() && !rows[d].ends.empty() && rows[d].ends.back() > start)
            ++d;
        while (rows.size() <= d) {
            FlameRow r;
            r.kind = kind;
            r.depth = int(rows.size());
            r.label = prefix + (rows.empty() ? std::string() : " " + std::to_string(rows.size()));
            rows.push_back(std::move(r));
        }
        FlameRow& row = rows[d];
        row.starts.push_back(start);
        row.ends.push_back(std::max(end, start));
        row.names.push_back(name);
        row.ids.push_back(id);
    }
};

std::string phaseLabel(const PhaseRow& p) {
    return p.phase == Phase::Decode ? "decode " + std::to_string(p.step) : phaseName(p.phase);
}
} // namespace

size_t FlameChart::sliceCount() const {
    size_t n = 0;
    for (const auto& r : rows)
        n += r.starts.size();
    return n;
}

int64_t FlameChart::moduleOfSpan(int64_t span) const {
    const auto it = std::lower_bound(spanModules.begin(), spanModules.end(),
                                     std::pair<int64_t, int64_t>{span, INT64_MIN});
    return it != spanModules.end() && it->first == span ? it->second : 0;
}

uint32_t FlameChartBuilder::intern(const std::string& name) {
    const auto [it, added] = nameIds_.emplace(name, uint32_t(chart_.names.size()));
    if (added) chart_.names.push_back(name);
    return it->second;
}

FlameChartBuilder::FlameChartBuilder(const std::vector<PhaseRow>& phases,
                                     const std::vector<ModuleRow>& modules,
                                     const std::vector<SpanRow>& spans) {
    Packer phaseRows{FlameKind::Phase, "phases", {}};
    std::vector<PhaseRow> sorted = phases;
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    for (size_t i = 0; i < sorted.size(); ++i)
        phaseRows.place(0, sorted[i].startNs, sorted[i].endNs, intern(phaseLabel(sorted[i])),
                        int64_t(i));
    std::map<int64_t, const ModuleRow*> byId;
    for (const auto& m : modules)
        byId[m.id] = &m;
    // Depth from the parent chain: a parent span has a lower id (docs/format.md).
    std::map<int64_t, int> depth;
    std::vector<const SpanRow*> order;
    for (const auto& s : spans) {
        const auto parent = s.parent ? depth.find(*s.parent) : depth.end();
        depth[s.id] = parent == depth.end() ? 0 : parent->second + 1;
        order.push_back(&s);
        chart_.spanModules.emplace_back(s.id, s.module);
    }
    std::sort(chart_.spanModules.begin(), chart_.spanModules.end());
    std::stable_sort(order.begin(), order.end(), [](const SpanRow* a, const SpanRow* b) {
        return std::tie(a->startNs, b->endNs) < std::tie(b->startNs, a->endNs);
    });
    Packer moduleRows{FlameKind::Module, "modules", {}};
    for (const SpanRow* s : order) {
        const auto m = byId.find(s->module);
        moduleRows.place(depth[s->id], s->startNs, s->endNs,
                         intern(m != byId.end() ? m->second->path : "module"), s->id);
    }
    for (auto* rows : {&phaseRows.rows, &moduleRows.rows})
        for (auto& r : *rows)
            chart_.rows.push_back(std::move(r));
}

void FlameChartBuilder::addOp(const OpRow& op) {
    Slice s;
    s.start = op.startNs;
    s.end = op.endNs;
    s.id = uint32_t(op.id);
    s.parent = op.parentOp ? uint32_t(*op.parentOp) : 0;
    s.name = intern(op.name);
    ops_.push_back(s);
}

void FlameChartBuilder::addActivity(const DeviceActivityRow& a) {
    Slice s;
    s.start = a.startNs;
    s.end = a.endNs;
    s.id = uint32_t(a.id);
    s.name = intern(a.name);
    activities_.emplace_back(onDevice(a.kind) ? "GPU " + std::to_string(a.device) + " stream " +
                                                    std::to_string(a.stream)
                                              : "CUDA API thread " + std::to_string(a.thread),
                             s);
}

FlameChart FlameChartBuilder::finish() {
    // Ops: depth from the parent chain (a parent has a lower id), then by start.
    // Parents are found by binary search over the ids (a damaged file's huge
    // id must not size a table), and sorted in place (no copy of 10 M slices).
    const auto byId = [](const Slice& a, const Slice& b) { return a.id < b.id; };
    std::sort(ops_.begin(), ops_.end(), byId);
    for (auto& s : ops_) {
        if (!s.parent || s.parent >= s.id) continue;
        Slice key;
        key.id = s.parent;
        const auto parent = std::lower_bound(ops_.begin(), ops_.end(), key, byId);
        if (parent != ops_.end() && parent->id == s.parent)
            s.depth = uint16_t(std::min<int>(parent->depth + 1, 1000));
    }
    std::sort(ops_.begin(), ops_.end(), [](const Slice& a, const Slice& b) {
        return std::tie(a.start, b.end, a.id) < std::tie(b.start, a.end, b.id);
    });
    Packer opRows{FlameKind::Op, "ops", {}};
    for (const auto& s : ops_)
        opRows.place(s.depth, s.start, s.end, s.name, s.id);
    ops_.clear();
    ops_.shrink_to_fit();
    for (auto& r : opRows.rows)
        chart_.rows.push_back(std::move(r));
    // Device work per stream, then API calls per thread, each by start.
    std::stable_sort(activities_.begin(), activities_.end(), [](const auto& a, const auto& b) {
        const bool apiA = a.first.rfind("CUDA", 0) == 0, apiB = b.first.rfind("CUDA", 0) == 0;
        return std::tie(apiA, a.first, a.second.start) < std::tie(apiB, b.first, b.second.start);
    });
    for (size_t i = 0; i < activities_.size();) {
        const std::string& label = activities_[i].first;
        const bool api = label.rfind("CUDA", 0) == 0;
        Packer rows{api ? FlameKind::Api : FlameKind::Device, label, {}};
        for (; i < activities_.size() && activities_[i].first == label; ++i) {
            const Slice& s = activities_[i].second;
            rows.place(0, s.start, s.end, s.name, s.id);
        }
        for (auto& r : rows.rows)
            chart_.rows.push_back(std::move(r));
    }
    activities_.clear();
    bool any = false;
    for (const auto& r : chart_.rows)
        if (!r.starts.empty()) {
            chart_.startNs = any ? std::min(chart_.startNs, r.starts.front()) : r.starts.front();
            chart_.endNs = any ? std::max(chart_.endNs, r.ends.back()) : r.ends.back();
            any = true;
        }
    return std::move(chart_);
}

void flameBoxes(const FlameRow& row, int64_t from, int64_t to, double nsPerPixel,
                std::vector<FlameBox>& out) {
    out.clear();
    const size_t n = row.starts.size();
    if (n == 0 || to < from) return;
    const double px = std::max(1.0, nsPerPixel);
    // Slices of a row never overlap, so their ends are sorted too.
    size_t i = size_t(std::lower_bound(row.ends.begin(), row.ends.end(), from) - row.ends.begin());
    while (i < n && row.starts[i] <= to) {
        if (double(row.ends[i] - row.starts[i]) >= px) {
            out.push_back({row.starts[i], row.ends[i], i, 1});
            ++i;
            continue;
        }
        // Thinner than a pixel: fold every slice that starts in this pixel
        // cell into one box, and go on from the next cell.
        const double cell = std::max(0.0, std::floor(double(row.starts[i] - from) / px));
        const auto cellEnd = from + int64_t((cell + 1) * px);
        const auto next = std::lower_bound(row.starts.begin() + long(i) + 1, row.starts.end(),
                                           std::max(cellEnd, row.starts[i] + 1));
        const size_t j = size_t(next - row.starts.begin());
        out.push_back({row.starts[i], std::max(row.ends[j - 1], row.starts[i]), i, int(j - i)});
        i = j;
    }
}

std::vector<bool> matchingNames(const FlameChart& chart, const std::string& needle) {
    auto lower = [](std::string s) {
        for (auto& c : s)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    const std::string want = lower(needle);
    std::vector<bool> match(chart.names.size());
    for (size_t i = 0; i < chart.names.size(); ++i)
        match[i] = !want.empty() && lower(chart.names[i]).find(want) != std::string::npos;
    return match;
}

std::vector<std::pair<size_t, size_t>> findSlices(const FlameChart& chart,
                                                  const std::string& needle, size_t limit) {
    std::vector<std::pair<size_t, size_t>> out;
    if (needle.empty()) return out;
    const std::vector<bool> match = matchingNames(chart, needle);
    std::vector<std::tuple<int64_t, size_t, size_t>> hits;
    for (size_t r = 0; r < chart.rows.size(); ++r)
        for (size_t i = 0; i < chart.rows[r].names.size(); ++i)
            if (match[chart.rows[r].names[i]]) hits.emplace_back(chart.rows[r].starts[i], r, i);
    std::sort(hits.begin(), hits.end());
    for (size_t k = 0; k < hits.size() && k < limit; ++k)
        out.emplace_back(std::get<1>(hits[k]), std::get<2>(hits[k]));
    return out;
}

} // namespace mvp
