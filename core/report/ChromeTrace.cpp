#include "core/report/ChromeTrace.h"

#include "core/analysis/Analysis.h"
#include "core/report/TraceSink.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

namespace mvp {

using nlohmann::json;

const char* traceTrackName(TraceTrack t) {
    switch (t) {
    case TraceTrack::Phases:
        return "phases";
    case TraceTrack::Modules:
        return "module spans";
    case TraceTrack::Ops:
        return "ATen ops";
    case TraceTrack::Tokens:
        return "tokens";
    }
    return "";
}

namespace {
constexpr TraceTrack kTracks[] = {TraceTrack::Phases, TraceTrack::Modules, TraceTrack::Ops,
                                  TraceTrack::Tokens};

// ns as µs with the ns as three decimals: exact, unlike a double.
std::string micros(int64_t ns) {
    const bool negative = ns < 0;
    const uint64_t a = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%llu.%03llu", negative ? "-" : "",
                  static_cast<unsigned long long>(a / 1000),
                  static_cast<unsigned long long>(a % 1000));
    return buf;
}

// JSON text of `v`; names from a user's model or file need not be UTF-8, and
// a byte that is not becomes U+FFFD rather than an exception.
std::string text(const json& v) {
    return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The JSON file, one event per line after the first.
class JsonSink : public TraceSink {
public:
    JsonSink(std::ofstream& out, std::string session) : out_(out), session_(std::move(session)) {}
    void begin() override {
        out_ << R"({"displayTimeUnit":"ns","metadata":)"
             << text(json{{"producer", std::string("mvprof ") + appVersion()},
                          {"session", session_},
                          {"time_unit", "µs from each run's start (ns fractions), measured"}})
             << R"(,"traceEvents":[)";
    }
    void end() override { out_ << "\n]}\n"; }
    using TraceSink::meta;
    using TraceSink::slice;
    void write(const std::string& event) { out_ << (events_++ ? ",\n" : "\n") << event; }
    void meta(int64_t pid, std::optional<int> tid, const char* name, const json& args) override {
        write(R"({"ph":"M","pid":)" + std::to_string(pid) +
              (tid ? R"(,"tid":)" + std::to_string(*tid) : std::string()) + R"(,"name":")" + name +
              R"(","args":)" + text(args) + "}");
    }
    void slice(int64_t pid, int tid, const std::string& name, const char* cat, int64_t startNs,
               int64_t endNs, const json& args) override {
        write(R"({"ph":"X","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) +
              R"(,"ts":)" + micros(startNs) + R"(,"dur":)" +
              micros(std::max<int64_t>(0, endNs - startNs)) + R"(,"name":)" + text(name) +
              R"(,"cat":")" + cat + R"(","args":)" + text(args) + "}");
    }
    void instant(int64_t pid, int tid, const std::string& name, int64_t ns,
                 const json& args) override {
        write(R"({"ph":"i","s":"t","pid":)" + std::to_string(pid) + R"(,"tid":)" +
              std::to_string(tid) + R"(,"ts":)" + micros(ns) + R"(,"name":)" + text(name) +
              R"(,"cat":"token","args":)" + text(args) + "}");
    }
    void counter(int64_t pid, const std::string& name, int64_t ns, const json& args) override {
        write(R"({"ph":"C","pid":)" + std::to_string(pid) + R"(,"ts":)" + micros(ns) +
              R"(,"name":)" + text(name) + R"(,"cat":"routing","args":)" + text(args) + "}");
    }
    int64_t events() const override { return events_; }

private:
    std::ofstream& out_;
    std::string session_;
    int64_t events_ = 0;
};

// Slices of one track in the order an importer nests them: by start, the
// longer (enclosing) one first where two start together.
template <typename Row> void sortForNesting(std::vector<Row>& rows) {
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(a.startNs, b.endNs) < std::tie(b.startNs, a.endNs);
    });
}

json flopsArg(int64_t flops, bool known) {
    return known ? json(flops) : json(nullptr);
}

void writeMetadata(TraceSink& out, const RunData& d) {
    const int64_t pid = d.run.id;
    std::string name = "run " + std::to_string(pid) + ": " + d.run.model;
    if (!d.run.label.empty()) name += " (" + d.run.label + ")";
    out.meta(pid, std::nullopt, "process_name", {{"name", name}});
    out.meta(pid, std::nullopt, "process_sort_index", {{"sort_index", pid}});
    for (const TraceTrack t : kTracks) {
        out.meta(pid, t, "thread_name", {{"name", traceTrackName(t)}});
        out.meta(pid, t, "thread_sort_index", {{"sort_index", int(t)}});
    }
}

// Phases tile the run: a decode step is its own slice, named with its step.
int64_t writePhases(TraceSink& out, RunData& d) {
    sortForNesting(d.phases);
    for (const auto& p : d.phases) {
        const std::string name = p.phase == Phase::Decode ? "decode " + std::to_string(p.step)
                                                          : std::string(phaseName(p.phase));
        out.slice(d.run.id, TraceTrack::Phases, name, "phase", p.startNs, p.endNs,
                  {{"phase", phaseName(p.phase)}, {"step", p.step}});
    }
    return int64_t(d.phases.size());
}

int64_t writeSpans(TraceSink& out, RunData& d) {
    std::map<int64_t, const ModuleRow*> modules;
    for (const auto& m : d.modules)
        modules[m.id] = &m;
    sortForNesting(d.spans);
    for (const auto& s : d.spans) {
        const auto m = modules.find(s.module);
        const std::string name =
            m != modules.end() ? m->second->path : "module " + std::to_string(s.module);
        out.slice(d.run.id, TraceTrack::Modules, name, "module", s.startNs, s.endNs,
                  {{"kind", m != modules.end() ? m->second->kind : std::string()},
                   {"module", s.module},
                   {"phase", phaseName(s.phase)},
                   {"step", s.step},
                   {"flops_estimated", flopsArg(s.flops, s.flopsKnown)},
                   {"bytes_estimated", s.bytes}});
    }
    return int64_t(d.spans.size());
}

// The op's shapes as Kineto's "Input Dims" (a list of lists), or as the text
// stored where it is not one.
json inputDims(const std::string& shapes) {
    if (shapes.empty()) return json::array();
    json dims = json::parse(shapes, nullptr, false);
    return dims.is_discarded() ? json(shapes) : dims;
}

void writeOp(TraceSink& out, int64_t pid, const OpRow& o) {
    json args{{"Input Dims", inputDims(o.shapes)},
              {"Input type", o.dtype},
              {"External id", o.id},
              {"op", o.id},
              {"phase", phaseName(o.phase)},
              {"step", o.step},
              {"flops_estimated", flopsArg(o.flops, o.flopsKnown)},
              {"bytes_estimated", o.bytes}};
    if (o.parentOp) args["parent_op"] = *o.parentOp;
    out.slice(pid, TraceTrack::Ops, o.name, "cpu_op", o.startNs, o.endNs, args);
}

// Ops arrive as stored: a top-level op after the ops nested in it (it ends
// last). So the ops seen up to a top-level one are its whole call tree and
// can be sorted for nesting and written: memory holds one tree, not the run.
Result<int64_t> writeOps(TraceSink& out, SessionReader& reader, int64_t run) {
    std::vector<OpRow> tree;
    int64_t written = 0;
    auto flush = [&] {
        sortForNesting(tree);
        for (const auto& o : tree)
            writeOp(out, run, o);
        written += int64_t(tree.size());
        tree.clear();
    };
    const Status s = reader.forEachOp(run, [&](OpRow&& o) -> Status {
        const bool top = !o.parentOp;
        tree.push_back(std::move(o));
        if (top) flush();
        return Ok{};
    });
    if (!s) return s.error();
    flush(); // nested ops whose parent was never stored (a killed run)
    return written;
}

// Where each forward pass (phase, step) starts: its tokens and routing are
// placed there.
std::map<std::pair<Phase, int>, int64_t> passStarts(const RunData& d) {
    std::map<std::pair<Phase, int>, int64_t> at;
    for (const auto& p : d.phases) {
        auto [it, added] = at.emplace(std::pair{p.phase, p.step}, p.startNs);
        if (!added) it->second = std::min(it->second, p.startNs);
    }
    return at;
}

int64_t passStart(const std::map<std::pair<Phase, int>, int64_t>& starts, Phase phase, int step) {
    const auto it = starts.find({phase, step});
    return it != starts.end() ? it->second : 0;
}

int64_t writeTokens(TraceSink& out, const RunData& d,
                    const std::map<std::pair<Phase, int>, int64_t>& starts) {
    // (phase, step, position) → layer → experts by rank.
    std::map<std::tuple<Phase, int, int>, std::map<int, std::vector<int>>> experts;
    for (const auto& r : d.routing) {
        auto& ranks = experts[{r.phase, r.step, r.token}][r.layer];
        if (int(ranks.size()) <= r.rank) ranks.resize(size_t(r.rank) + 1, -1);
        ranks[size_t(r.rank)] = r.expert;
    }
    for (const auto& t : d.tokens) {
        json args{{"position", t.position},
                  {"modality", modalityName(t.modality)},
                  {"phase", phaseName(t.phase)},
                  {"step", t.step}};
        if (t.tokenId >= 0) args["token_id"] = t.tokenId;
        if (t.patch >= 0) args["patch"] = t.patch;
        if (const auto it = experts.find({t.phase, t.step, t.position}); it != experts.end()) {
            json layers = json::object();
            for (const auto& [layer, ranks] : it->second)
                layers["layer " + std::to_string(layer)] = ranks;
            args["experts"] = std::move(layers);
        }
        out.instant(d.run.id, int(TraceTrack::Tokens),
                    std::string(modalityName(t.modality)) + " " + std::to_string(t.position),
                    passStart(starts, t.phase, t.step), args);
    }
    return int64_t(d.tokens.size());
}

// Per MoE layer, one counter sample per forward pass: tokens routed to each
// expert (every expert named, so an idle one reads 0).
int64_t writeRouting(TraceSink& out, const RunData& d,
                     const std::map<std::pair<Phase, int>, int64_t>& starts) {
    int experts = d.experts;
    for (const auto& r : d.routing)
        experts = std::max(experts, r.expert + 1);
    std::map<std::tuple<int, int64_t, Phase, int>, std::vector<int64_t>> counts;
    for (const auto& r : d.routing) {
        auto& c = counts[{r.layer, passStart(starts, r.phase, r.step), r.phase, r.step}];
        c.resize(size_t(experts), 0);
        c[size_t(r.expert)] += 1;
    }
    for (const auto& [key, c] : counts) {
        json args = json::object();
        for (size_t e = 0; e < c.size(); ++e)
            args["expert " + std::to_string(e)] = c[e];
        out.counter(d.run.id, "layer " + std::to_string(std::get<0>(key)) + " tokens per expert",
                    std::get<1>(key), args);
    }
    return int64_t(counts.size());
}

// Kineto's category of each kind of device activity.
const char* activityCategory(ActivityKind k) {
    switch (k) {
    case ActivityKind::Kernel:
        return "kernel";
    case ActivityKind::Memcpy:
        return "gpu_memcpy";
    case ActivityKind::Memset:
        return "gpu_memset";
    case ActivityKind::Runtime:
        return "cuda_runtime";
    case ActivityKind::Driver:
        return "cuda_driver";
    }
    return "kernel";
}

// GPU work on a track per (device, stream), API calls on one per host
// thread; each track named, in that order after the run's own tracks.
int64_t writeActivities(TraceSink& out, int64_t pid, std::vector<DeviceActivityRow>& rows) {
    std::map<std::tuple<bool, int64_t, int64_t>, int> tracks; // (api, device|thread, stream)
    auto trackOf = [&](const DeviceActivityRow& a) {
        const bool api = !onDevice(a.kind);
        const auto key = std::tuple{api, api ? a.thread : int64_t(a.device), api ? 0 : a.stream};
        auto [it, added] = tracks.emplace(key, kFirstDeviceTrack + int(tracks.size()));
        if (added) {
            const std::string name =
                api ? "CUDA API (thread " + std::to_string(a.thread) + ")"
                    : "GPU " + std::to_string(a.device) + " stream " + std::to_string(a.stream);
            out.meta(pid, std::optional<int>(it->second), "thread_name", {{"name", name}});
            out.meta(pid, std::optional<int>(it->second), "thread_sort_index",
                     {{"sort_index", it->second}});
        }
        return it->second;
    };
    sortForNesting(rows);
    for (const auto& a : rows) {
        json args{{"device", a.device}, {"stream", a.stream}};
        if (a.correlation) args["correlation"] = *a.correlation;
        if (a.op) args["External id"] = *a.op;
        if (a.span) args["span"] = *a.span;
        if (!onDevice(a.kind)) args["thread"] = a.thread;
        if (a.bytes > 0) args["bytes"] = a.bytes;
        out.slice(pid, trackOf(a), a.name, activityCategory(a.kind), a.startNs, a.endNs, args);
    }
    return int64_t(rows.size());
}

} // namespace

Status writeRunEvents(TraceSink& out, SessionReader& reader, int64_t runId,
                      ChromeTraceSummary& sum) {
    auto data = loadRunData(reader, runId);
    if (!data) return data.error();
    writeMetadata(out, *data);
    sum.phases += writePhases(out, *data);
    sum.spans += writeSpans(out, *data);
    auto ops = writeOps(out, reader, runId);
    if (!ops) return ops.error();
    sum.ops += *ops;
    const auto starts = passStarts(*data);
    sum.tokens += writeTokens(out, *data, starts);
    sum.counters += writeRouting(out, *data, starts);
    auto activities = reader.activities(runId);
    if (!activities) return activities.error();
    sum.activities += writeActivities(out, runId, *activities);
    return Ok{};
}

Result<std::vector<int64_t>> chosenRuns(SessionReader& reader, const std::vector<int64_t>& runs) {
    if (!runs.empty()) {
        for (const int64_t id : runs)
            if (auto r = reader.run(id); !r) return r.error();
        return runs;
    }
    auto all = reader.runs();
    if (!all) return all.error();
    if (all->empty())
        return makeError(ErrorCode::BadInput, reader.path() + " has no runs to export");
    std::vector<int64_t> ids;
    for (const auto& r : *all)
        ids.push_back(r.id);
    return ids;
}

Result<ChromeTraceSummary>
writeTraceFile(SessionReader& reader, const std::vector<int64_t>& runs, const std::string& outPath,
               const std::function<std::unique_ptr<TraceSink>(std::ofstream&)>& make) {
    auto ids = chosenRuns(reader, runs);
    if (!ids) return ids.error();
    const std::string partial = outPath + ".partial";
    std::ofstream file(partial, std::ios::binary | std::ios::trunc);
    if (!file)
        return makeError(ErrorCode::Io,
                         "cannot write " + outPath + ": check the folder exists and is writable");
    auto discard = [&](Error e) {
        file.close();
        std::error_code ec;
        std::filesystem::remove(partial, ec);
        return e;
    };
    const auto out = make(file);
    ChromeTraceSummary sum;
    out->begin();
    for (const int64_t id : *ids) {
        if (auto s = writeRunEvents(*out, reader, id, sum); !s) return discard(s.error());
        out->endRun();
    }
    out->end();
    file.close();
    if (!file)
        return discard(makeError(ErrorCode::Io, "writing " + outPath + " failed (disk full?)"));
    std::error_code ec;
    std::filesystem::rename(partial, outPath, ec);
    if (ec)
        return discard(makeError(ErrorCode::Io, "cannot replace " + outPath + ": " + ec.message()));
    sum.events = out->events();
    return sum;
}

Result<ChromeTraceSummary> writeChromeTrace(SessionReader& reader, const std::vector<int64_t>& runs,
                                            const std::string& outPath) {
    return writeTraceFile(reader, runs, outPath, [&](std::ofstream& file) {
        return std::make_unique<JsonSink>(file, reader.path());
    });
}

} // namespace mvp
