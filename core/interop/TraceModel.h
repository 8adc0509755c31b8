#pragma once
// A trace's events reduced to what a session stores, compactly (~80 bytes an
// event, strings interned), until the whole file has been read: nesting by
// time needs every event of a thread, and kernels may come before the ops
// that launched them. Internal to the importers.

#include "core/Phase.h"
#include "core/Result.h"
#include "core/interop/ChunkedVector.h"
#include "core/interop/TraceJson.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mvp::interop {

enum class EventKind : uint8_t {
    Op,         // cpu_op (and a legacy event named like one: "aten::mm")
    Annotation, // user_annotation, record_function, a legacy event of another name
    ModuleCall, // python_function "nn.Module: <Class>_<k>"
    Kernel,
    Memcpy,
    Memset,
    Runtime,
    Driver,
    // From mvprof's own export (metadata.producer "mvprof …"): a module span
    // named by its whole path, and a phase.
    ModuleSpan,
    Phase,
};

// TraceRecord's ids: none, or one past 32 bits (kept in the model).
inline constexpr uint32_t kNoId = UINT32_MAX, kWideId = UINT32_MAX - 1;

constexpr bool isDeviceWork(EventKind k) {
    return k == EventKind::Kernel || k == EventKind::Memcpy || k == EventKind::Memset;
}

// What an op's name and arguments give, once per distinct pair: a model
// calls the same op with the same shapes over and over.
struct OpSignature {
    int64_t flops = -1;             // the op's own formula (or the trace's figure); -1: none
    int64_t bytes = 0;              // estimated
    uint32_t shapes = 0, dtype = 0; // interned
    uint32_t hierarchy = 0;         // its TorchScript "Module Hierarchy" (interned), 0 = none
    bool arithmetic = false;        // the own formula counts real arithmetic
    bool unevaluated = false;       // it has a formula, but the trace lacks the shapes it needs
};

// A kernel's, copy's or fill's own fields, kept beside its record (once
// per distinct value: kernels on one stream share theirs).
struct DeviceWork {
    int64_t bytes = 0; // copied or filled
    int32_t stream = -1;
    int16_t device = -1;
    bool operator==(const DeviceWork&) const = default;
};

// Kineto's "External id" (an op and the GPU work it launched) and CUPTI's
// correlation id (an API call and its GPU work) of an event; -1: none.
struct EventIds {
    int64_t external = -1, correlation = -1;
};

// One event, in 48 bytes (a 1 GB trace has some 4 M): what only some kinds
// have lives beside it (DeviceWork, OpSignature), and ids past 32 bits in
// the model's overflow maps (TraceModel::ids).
struct TraceRecord {
    int64_t startNs = 0, durNs = 0; // on the trace's clock
    uint32_t name = 0, track = 0;   // interned string, TraceModel::tracks index
    // Op: its OpSignature; ModuleSpan: its kind (interned); GPU work: its DeviceWork.
    uint32_t detail = 0;
    uint32_t order = 0; // its place in the file: breaks ties of start and length
    int32_t step = 0;   // where the trace says (mvprof's export)
    uint32_t externalId = kNoId, correlation = kNoId; // read through TraceModel::ids
    mvp::Phase phase = mvp::Phase::None;
    EventKind kind = EventKind::Op;
};
static_assert(sizeof(TraceRecord) == 48, "the importer's memory is 48 bytes an event");

// A thread (CPU events) or a device stream (GPU events).
struct TraceTrack {
    std::string pid, tid; // as the trace names them
    int64_t thread = -1;  // the tid as a number where it is one
    bool gpu = false;
};

class TraceModel {
public:
    explicit TraceModel(std::string fileName) : file_(std::move(fileName)) {}

    // One event of the trace (its index for messages). Unknown categories
    // are counted, never fatal; an X event without a name or a valid ts /
    // dur is refused.
    Status add(const TraceEvent& event, int64_t index);
    void addMeta(const std::string& key, Json&& value);
    // For readers of rows rather than JSON (Nsight Systems' SQLite export): a
    // record named `name` on the thread or GPU stream (pid, tid) names, with
    // its ids, and GPU work with its fields.
    void addRecord(TraceRecord r, std::string_view name, const std::string& pid,
                   const std::string& tid, int64_t thread, EventIds ids = {},
                   const DeviceWork& work = {});
    // A record on an existing track (the module spans a TorchScript trace implies).
    void addRecordOnTrack(TraceRecord r, std::string_view name, uint32_t track);
    // An op's cost from Kineto-style arguments ({"Input Dims": …}).
    uint32_t signatureOf(const std::string& name, const Json& args);
    // The same from an event's arguments as read; fails when one of them is
    // not the JSON an op's arguments are.
    Result<uint32_t> signatureOf(std::string_view name, const TraceEvent::Args& args);
    void countEvent() { ++events_; }
    // How far a child may end after its parent and still nest: 1 µs for JSON
    // traces (older ones have whole, truncated microseconds), 0 for exact ns.
    int64_t nestingSlackNs() const { return slackNs_; }
    void setNestingSlackNs(int64_t ns) { slackNs_ = ns; }
    void skip(const std::string& why) { ++skipped_[why]; }

    const std::string& file() const { return file_; }
    // Growing it never copies what it holds (a 1 GB trace has millions).
    ChunkedVector<TraceRecord>& records() { return records_; }
    const OpSignature& signature(uint32_t id) const { return signatures_[id]; }
    EventIds ids(const TraceRecord& r) const;
    const DeviceWork& deviceWork(const TraceRecord& r) const { return deviceWork_[r.detail]; }
    const std::vector<TraceTrack>& tracks() const { return tracks_; }
    const std::string& text(uint32_t id) const { return strings_[id]; }
    uint32_t intern(std::string_view s);
    const Json& meta() const { return meta_; }
    // Events left out, by category ("python frame", "gpu_user_annotation" …).
    const std::map<std::string, int64_t>& skipped() const { return skipped_; }
    int64_t events() const { return events_; }
    // The trace's clock in absolute ns where it tells (baseTimeNanoseconds,
    // or absolute µs timestamps), for the run's start time.
    std::optional<int64_t> absoluteOriginNs(int64_t minStartNs) const;
    // Written by mvprof's export: its phases and module paths come back as
    // they were, and a run's tracks (phases, modules, ops) nest as one thread.
    bool fromMvprof() const { return fromMvprof_; }

private:
    Status addComplete(const TraceEvent& e, int64_t index, std::string_view cat);
    Result<bool> classify(TraceRecord& r, DeviceWork& work, std::string_view cat,
                          std::string_view name, const TraceEvent& e);
    void addMvprofArgs(TraceRecord& r, const TraceEvent::Args& args);
    uint32_t addSignature(std::string key, const std::string& name, const Json& args,
                          uint32_t hierarchy);
    // Sets order, name, track, ids and GPU work's fields; appends the record.
    void append(TraceRecord& r, std::string_view name, uint32_t track, EventIds ids,
                const DeviceWork& work);
    uint32_t trackOf(const TraceEvent& e, bool gpu, bool wholeProcess);
    uint32_t trackOf(std::pair<std::string, std::string> key, int64_t thread, bool gpu);

    std::string file_;
    ChunkedVector<TraceRecord> records_;
    std::vector<OpSignature> signatures_;
    std::vector<DeviceWork> deviceWork_;
    struct DeviceWorkHash {
        size_t operator()(const DeviceWork& w) const {
            return std::hash<int64_t>()(w.bytes * 1000003 + w.stream * 1031 + w.device);
        }
    };
    std::unordered_map<DeviceWork, uint32_t, DeviceWorkHash> deviceWorkIds_;
    std::unordered_map<uint32_t, EventIds> wideIds_; // by order: ids past 32 bits
    std::unordered_map<std::string, uint32_t> signatureIds_;
    std::string signatureKey_; // reused: one op event after another
    struct LastTrack {         // consecutive events mostly share a thread
        std::string pid, tid;
        bool gpu = false, wholeProcess = false;
        uint32_t id = 0;
    };
    std::optional<LastTrack> lastTrack_;
    std::vector<TraceTrack> tracks_;
    std::map<std::pair<std::string, std::string>, uint32_t> trackIds_;
    std::deque<std::string> strings_{std::string()}; // id 0 = ""
    std::unordered_map<std::string_view, uint32_t> stringIds_{{std::string_view(), 0}};
    std::map<std::string, int64_t> skipped_;
    Json meta_ = Json::object();
    int64_t events_ = 0;
    bool fromMvprof_ = false;
    int64_t slackNs_ = 1000;
};

// A TorchScript trace's module spans, from its ops' "Module Hierarchy"
// (frames "<instance>(<Type>)::<method>" joined by ".", the top one "TOP";
// pytorch/pytorch torch/csrc/jit/runtime/interpreter.cpp moduleHierarchy):
// on each thread, the ops that share a hierarchy prefix make one span of that
// module, from the first one's start to the last one's end. Module paths
// start with the top module's type ("ResNet.layer1.0.conv1"); SELF and
// CALL_FUNCTION frames (a helper method, a free function) add none.
void addModuleHierarchySpans(TraceModel& m);

// "12.345" µs (or 12, 12.3456789, "12") → ns, exactly for up to 3 decimals
// and rounded beyond; nullopt for anything that is not a number.
std::optional<int64_t> microsToNs(const Json& v);
// The same for a member as read: a number's text or a string.
std::optional<int64_t> microsToNs(const JsonField& v);

} // namespace mvp::interop
