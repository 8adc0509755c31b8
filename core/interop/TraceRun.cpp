#include "core/interop/TraceRun.h"

#include "core/ops/Flops.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace mvp::interop {

namespace {
constexpr size_t kBatchRows = 8192;

bool isSpan(EventKind k) {
    return k == EventKind::Annotation || k == EventKind::ModuleCall || k == EventKind::ModuleSpan;
}

// On ties a span opens before the op it encloses, an op before its API calls.
int nestingRank(EventKind k) {
    return isSpan(k) ? 0 : k == EventKind::Op ? 1 : 2;
}

ActivityKind activityKind(EventKind k) {
    switch (k) {
    case EventKind::Memcpy:
        return ActivityKind::Memcpy;
    case EventKind::Memset:
        return ActivityKind::Memset;
    case EventKind::Runtime:
        return ActivityKind::Runtime;
    case EventKind::Driver:
        return ActivityKind::Driver;
    default:
        return ActivityKind::Kernel;
    }
}

// `text` without a trailing `sep` and digits ("ResNet_0" → "ResNet").
std::string withoutNumber(std::string text, char sep) {
    const auto at = text.rfind(sep);
    if (at != std::string::npos && at + 1 < text.size() &&
        std::all_of(text.begin() + long(at) + 1, text.end(),
                    [](char c) { return c >= '0' && c <= '9'; }))
        text.resize(at);
    return text;
}

// "nn.Module: ResNet_0" → ("ResNet_0", "ResNet"); "ProfilerStep#3" →
// ("ProfilerStep", "record_function"): a step's number is no module of its own.
std::pair<std::string, std::string> moduleName(const TraceRecord& r, const std::string& name) {
    if (r.kind == EventKind::ModuleSpan) return {name, ""};
    if (r.kind == EventKind::ModuleCall) {
        std::string component = name.substr(std::string("nn.Module: ").size());
        return {component, withoutNumber(component, '_')};
    }
    return {withoutNumber(name, '#'), "record_function"};
}

struct Frame {
    size_t record = 0;
    int64_t id = 0;    // op or span id
    int64_t endNs = 0; // on the trace's clock
    bool op = false;
    int64_t module = 0;                                  // spans
    std::optional<int64_t> parent;                       // spans: enclosing span; ops: enclosing op
    std::optional<int64_t> span;                         // ops: innermost span
    ChildCalls children;                                 // ops
    int64_t flops = 0, bytes = 0, ops = 0, knownOps = 0; // spans: top-level ops inside
};

struct Launch {
    std::optional<int64_t> op, span;
};

// The ids GPU work carries, each with the op and span that launched it:
// sorted, 12 bytes an id where a hash map took ~70 (a 1 GB trace holds
// millions of launches); ids past 32 bits, rare, in a table of their own.
class LaunchTable {
public:
    // Room for `ids` wants: grown by doubling, the table would hold up to
    // twice its ids, and three times while shrink_to_fit copies it.
    void reserve(size_t ids) { narrow_.reserve(ids); }
    void want(int64_t id) {
        if (id < 0) return;
        if (id < int64_t(UINT32_MAX))
            narrow_.push_back({uint32_t(id), 0, 0});
        else
            wide_.push_back({id, 0, 0});
    }
    void seal() {
        sortUnique(narrow_);
        sortUnique(wide_);
    }
    // Who launched `id`, where some GPU work carries it.
    void set(int64_t id, const Launch& launch) {
        // op and span ids count records, so they fit 32 bits; 0: none
        const auto set = [&](auto* e) {
            if (!e) return;
            e->op = uint32_t(launch.op.value_or(0));
            e->span = uint32_t(launch.span.value_or(0));
        };
        if (id >= int64_t(UINT32_MAX))
            set(find(wide_, id));
        else if (id >= 0)
            set(find(narrow_, uint32_t(id)));
    }
    std::optional<Launch> get(int64_t id) const {
        const auto launch = [](const auto* e) -> std::optional<Launch> {
            if (!e) return std::nullopt;
            const auto id0 = [](uint32_t v) {
                return v ? std::optional<int64_t>(v) : std::nullopt;
            };
            return Launch{id0(e->op), id0(e->span)};
        };
        if (id >= int64_t(UINT32_MAX)) return launch(find(wide_, id));
        return id >= 0 ? launch(find(narrow_, uint32_t(id))) : std::nullopt;
    }

private:
    template <class Id> struct Entry {
        Id id;
        uint32_t op, span;
    };
    template <class E> static void sortUnique(std::vector<E>& v) {
        std::sort(v.begin(), v.end(), [](const E& a, const E& b) { return a.id < b.id; });
        v.erase(
            std::unique(v.begin(), v.end(), [](const E& a, const E& b) { return a.id == b.id; }),
            v.end());
        if (v.size() < v.capacity() / 4 * 3) v.shrink_to_fit(); // copying costs a peak too
    }
    template <class V, class Id> static auto find(V& v, Id id) -> decltype(&*v.begin()) {
        const auto it =
            std::lower_bound(v.begin(), v.end(), id, [](const auto& e, Id x) { return e.id < x; });
        return it != v.end() && it->id == id ? &*it : nullptr;
    }
    std::vector<Entry<uint32_t>> narrow_;
    std::vector<Entry<int64_t>> wide_;
};

class RunBuilder {
public:
    RunBuilder(TraceModel& m, SessionWriter& w, int64_t run) : m_(m), w_(w) { batch_.run = run; }

    Result<TraceRunCounts> build() {
        auto& recs = m_.records();
        if (recs.empty())
            return makeError(ErrorCode::BadInput,
                             m_.file() + " has no slices to import (no X events of a known kind)");
        sortForNesting();
        counts_.originNs = recs.front().startNs;
        int64_t last = recs.front().startNs;
        for (const auto& r : recs) {
            counts_.originNs = std::min(counts_.originNs, r.startNs);
            last = std::max(last, r.startNs + r.durNs);
        }
        counts_.wallNs = last - counts_.originNs;
        noteLinksWanted();
        walkCpuTracks();
        linkDeviceWork();
        addLeafFlops();
        submit(true);
        return counts_;
    }

private:
    void sortForNesting() {
        const auto before = [](const TraceRecord& a, const TraceRecord& b) {
            const bool ga = isDeviceWork(a.kind), gb = isDeviceWork(b.kind);
            if (ga != gb) return gb; // CPU tracks first
            if (a.track != b.track) return a.track < b.track;
            if (a.startNs != b.startNs) return a.startNs < b.startNs;
            if (a.durNs != b.durNs) return a.durNs > b.durNs;
            if (nestingRank(a.kind) != nestingRank(b.kind))
                return nestingRank(a.kind) < nestingRank(b.kind);
            return a.order < b.order; // the file lists a parent first
        };
        // A trace written in order (one thread, or mvprof's export) needs one
        // pass, not a sort of millions.
        auto& recs = m_.records();
        if (!std::is_sorted(recs.begin(), recs.end(), before))
            std::sort(recs.begin(), recs.end(), before);
    }

    // Only the ids some GPU work carries are kept while the CPU tracks are
    // walked: a map of every op's External id would cost more than the ops.
    void noteLinksWanted() {
        size_t work = 0;
        for (const auto& r : m_.records())
            work += isDeviceWork(r.kind) ? 1 : 0;
        launchByExternal_.reserve(work);
        launchByCorrelation_.reserve(work);
        for (const auto& r : m_.records()) {
            if (!isDeviceWork(r.kind)) continue;
            const EventIds ids = m_.ids(r);
            if (ids.external >= 0) launchByExternal_.want(ids.external);
            if (ids.correlation >= 0) launchByCorrelation_.want(ids.correlation);
        }
        launchByExternal_.seal();
        launchByCorrelation_.seal();
    }

    void walkCpuTracks() {
        auto& recs = m_.records();
        std::optional<uint32_t> track;
        for (size_t i = 0; i < recs.size() && !isDeviceWork(recs[i].kind); ++i) {
            const TraceRecord& r = recs[i];
            if (track != r.track) {
                closeAll();
                track = r.track;
            }
            if (r.kind != EventKind::Phase) closeEndedBefore(r);
            if (r.kind == EventKind::Phase)
                addPhase(r);
            else if (r.kind == EventKind::Op)
                openOp(i);
            else if (isSpan(r.kind))
                openSpan(i);
            else
                addApiCall(r);
        }
        closeAll();
    }

    void closeEndedBefore(const TraceRecord& r) {
        while (!stack_.empty() && stack_.back().endNs <= r.startNs)
            close();
        // A slice that starts inside the innermost one but ends after it is
        // not its child: the two overlap, and it nests in whatever contains both.
        bool overlapped = false;
        while (!stack_.empty() && r.startNs + r.durNs > stack_.back().endNs + m_.nestingSlackNs()) {
            close();
            overlapped = true;
        }
        counts_.overlapping += overlapped ? 1 : 0;
    }

    Frame* innermostFrame(bool op) {
        for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
            if (it->op == op) return &*it;
        return nullptr;
    }
    std::optional<int64_t> innermost(bool op) {
        const Frame* f = innermostFrame(op);
        return f ? std::optional<int64_t>(f->id) : std::nullopt;
    }

    Frame frame(size_t i, int64_t id, bool op) const {
        const TraceRecord& r = m_.records()[i];
        Frame f;
        f.record = i;
        f.id = id;
        f.endNs = r.startNs + r.durNs;
        f.op = op;
        return f;
    }

    void openOp(size_t i) {
        const TraceRecord& r = m_.records()[i];
        Frame f = frame(i, ++counts_.ops, true);
        f.parent = innermost(true);
        f.span = innermost(false);
        launchByExternal_.set(m_.ids(r).external, {f.id, f.span});
        stack_.push_back(f);
    }

    void openSpan(size_t i) {
        const TraceRecord& r = m_.records()[i];
        Frame f = frame(i, ++counts_.spans, false);
        f.parent = innermost(false);
        const Frame* outer = innermostFrame(false);
        const int64_t parentModule = outer ? outer->module : 0;
        f.module = moduleFor(parentModule, r);
        stack_.push_back(f);
    }

    // A phase of mvprof's export: it tiles the run, so it encloses nothing here.
    void addPhase(const TraceRecord& r) {
        if (r.phase == Phase::None) return;
        const int64_t start = r.startNs - counts_.originNs;
        batch_.phases.push_back({r.phase, r.step, start, start + r.durNs});
    }

    int64_t moduleFor(int64_t parent, const TraceRecord& r) {
        auto [component, kind] = moduleName(r, m_.text(r.name));
        if (r.kind == EventKind::ModuleSpan) { // named by its path already
            parent = 0;
            kind = m_.text(r.detail);
        }
        const auto key = std::pair{parent, component};
        if (const auto it = modules_.find(key); it != modules_.end()) return it->second;
        ModuleRow row;
        row.id = ++counts_.modules;
        row.path = parent ? paths_[parent] + "." + component : component;
        if (r.kind == EventKind::ModuleSpan) {
            if (const Frame* outer = innermostFrame(false)) row.parent = outer->module;
        } else if (parent)
            row.parent = parent;
        row.kind = kind;
        paths_[row.id] = row.path;
        modules_.emplace(key, row.id);
        batch_.modules.push_back(std::move(row));
        return counts_.modules;
    }

    void addApiCall(const TraceRecord& r) {
        const Launch launch{innermost(true), innermost(false)};
        launchByCorrelation_.set(m_.ids(r).correlation, launch);
        DeviceActivityRow a = activity(r, launch);
        a.thread =
            m_.tracks()[r.track].thread >= 0 ? m_.tracks()[r.track].thread : int64_t(r.track);
        batch_.activities.push_back(std::move(a));
        submit(false);
    }

    DeviceActivityRow activity(const TraceRecord& r, const Launch& launch) {
        DeviceActivityRow a;
        a.id = ++counts_.activities;
        a.kind = activityKind(r.kind);
        a.name = m_.text(r.name);
        a.startNs = r.startNs - counts_.originNs;
        a.endNs = a.startNs + r.durNs;
        if (const int64_t correlation = m_.ids(r).correlation; correlation >= 0)
            a.correlation = correlation;
        a.op = launch.op;
        a.span = launch.span;
        if (isDeviceWork(r.kind)) {
            const DeviceWork& work = m_.deviceWork(r);
            a.bytes = work.bytes;
            a.device = std::max<int>(0, work.device);
            a.stream = work.stream;
        }
        return a;
    }

    void close() {
        Frame f = std::move(stack_.back());
        stack_.pop_back();
        if (f.op)
            closeOp(f);
        else
            closeSpan(f);
        submit(false);
    }

    void closeOp(const Frame& f) {
        const TraceRecord& r = m_.records()[f.record];
        const OpSignature& sig = m_.signature(r.detail);
        const std::optional<int64_t> own =
            sig.flops >= 0 ? std::optional<int64_t>(sig.flops) : std::nullopt;
        CallFlops flops = callFlops(f.children, own, sig.arithmetic);
        // A formula without the shapes it needs (record_shapes off, the legacy
        // export) is unknown, not the 0 of the allocations nested in it.
        if (sig.unevaluated && !f.children.arithmetic) flops = {};
        if (flops.leaf) {
            auto& leaf = leaves_[{r.phase, r.name}];
            leaf.first += 1;
            leaf.second += flops.flops;
        }
        Frame* parentOp = innermostFrame(true);
        Frame* span = innermostFrame(false);
        if (parentOp)
            addNestedCall(parentOp->children, flops, sig.arithmetic, f.children);
        else if (span) { // a top-level op: its span's figures, handed up when the span ends
            span->flops += flops.known ? flops.flops : 0;
            span->bytes += sig.bytes;
            span->ops += 1;
            span->knownOps += flops.known ? 1 : 0;
        }
        OpRow row;
        row.id = f.id;
        row.span = f.span;
        row.parentOp = f.parent;
        row.name = m_.text(r.name);
        row.phase = r.phase;
        row.step = r.step;
        row.startNs = r.startNs - counts_.originNs;
        row.endNs = row.startNs + r.durNs;
        row.shapes = m_.text(sig.shapes);
        row.dtype = m_.text(sig.dtype);
        row.flops = flops.flops;
        row.bytes = sig.bytes;
        row.flopsKnown = flops.known;
        batch_.ops.push_back(std::move(row));
    }

    void closeSpan(const Frame& f) {
        const TraceRecord& r = m_.records()[f.record];
        if (Frame* parent = innermostFrame(false)) {
            parent->flops += f.flops, parent->bytes += f.bytes;
            parent->ops += f.ops, parent->knownOps += f.knownOps;
        }
        SpanRow row;
        row.id = f.id;
        row.module = f.module;
        row.parent = f.parent;
        row.phase = r.phase;
        row.step = r.step;
        row.startNs = r.startNs - counts_.originNs;
        row.endNs = row.startNs + r.durNs;
        row.flops = f.flops;
        row.bytes = f.bytes;
        row.flopsKnown = f.ops == 0 || f.knownOps > 0;
        batch_.spans.push_back(std::move(row));
    }

    void closeAll() {
        while (!stack_.empty())
            close();
    }

    // A kernel, copy or fill belongs to the op whose External id it carries,
    // else to the API call with its correlation id and that call's op.
    void linkDeviceWork() {
        for (const auto& r : m_.records()) {
            if (!isDeviceWork(r.kind)) continue;
            DeviceActivityRow a = activity(r, launchOf(m_.ids(r)));
            counts_.linked += a.op ? 1 : 0;
            counts_.gpu = true;
            batch_.activities.push_back(std::move(a));
            submit(false);
        }
    }

    Launch launchOf(const EventIds& ids) const {
        if (const auto byOp = launchByExternal_.get(ids.external); byOp && byOp->op) return *byOp;
        return launchByCorrelation_.get(ids.correlation).value_or(Launch{});
    }

    void addLeafFlops() {
        for (const auto& [key, calls] : leaves_)
            batch_.leafFlops.push_back({key.first, m_.text(key.second), calls.first, calls.second});
    }

    void submit(bool force) {
        if (!force && batch_.ops.size() < kBatchRows && batch_.spans.size() < kBatchRows &&
            batch_.activities.size() < kBatchRows)
            return;
        const int64_t run = batch_.run;
        w_.submit(std::move(batch_));
        batch_ = Batch{};
        batch_.run = run;
        // Bounded memory without stalling: wait for the writer to have
        // committed the batch before (it wrote that one while this one was
        // built), then have it start on this one. Two batches in flight, not
        // more: on a 1 GB CUDA trace each more queued cost ~3 MiB of peak
        // RSS, and no speed. A write error is sticky: the run's end reports it.
        if (committed_.valid()) (void)committed_.get();
        committed_ = w_.flushLater();
    }

    TraceModel& m_;
    SessionWriter& w_;
    Batch batch_;
    TraceRunCounts counts_;
    std::vector<Frame> stack_;
    std::map<std::pair<int64_t, std::string>, int64_t> modules_;
    std::unordered_map<int64_t, std::string> paths_;
    LaunchTable launchByExternal_, launchByCorrelation_;
    std::map<std::pair<Phase, uint32_t>, std::pair<int64_t, int64_t>> leaves_; // calls, FLOPs
    std::future<Status> committed_; // the writer's last commit asked for
};
} // namespace

Result<TraceRunCounts> writeTraceRun(TraceModel& m, SessionWriter& writer, int64_t run) {
    return RunBuilder(m, writer, run).build();
}

} // namespace mvp::interop
