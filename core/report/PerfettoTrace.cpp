#include "core/report/PerfettoTrace.h"

#include "core/Utf8.h"
#include "core/report/TraceSink.h"
#include "core/session/SessionReader.h"

#include <cstring>
#include <fstream>
#include <map>
#include <set>

namespace mvp {

using nlohmann::json;

namespace {
// Field numbers (perfetto protos/perfetto/trace/…).
enum : uint32_t {
    kTracePacket = 1,      // Trace.packet
    kTimestamp = 8,        // TracePacket.timestamp
    kSequenceId = 10,      // TracePacket.trusted_packet_sequence_id
    kTrackEvent = 11,      // TracePacket.track_event
    kSequenceFlags = 13,   // TracePacket.sequence_flags
    kTrackDescriptor = 60, // TracePacket.track_descriptor
    kTdUuid = 1,           // TrackDescriptor.uuid
    kTdName = 2,           // TrackDescriptor.name
    kTdProcess = 3,        // TrackDescriptor.process
    kTdParent = 5,         // TrackDescriptor.parent_uuid
    kTdCounter = 8,        // TrackDescriptor.counter
    kTdSiblingRank = 12,   // TrackDescriptor.sibling_order_rank
    kProcPid = 1,          // ProcessDescriptor.pid
    kProcName = 6,         // ProcessDescriptor.process_name
    kTeAnnotations = 4,    // TrackEvent.debug_annotations
    kTeType = 9,           // TrackEvent.type
    kTeTrack = 11,         // TrackEvent.track_uuid
    kTeCategories = 22,    // TrackEvent.categories
    kTeName = 23,          // TrackEvent.name
    kTeCounterValue = 30,  // TrackEvent.counter_value
    kDaBool = 2,           // DebugAnnotation.bool_value
    kDaInt = 4,            // DebugAnnotation.int_value
    kDaDouble = 5,         // DebugAnnotation.double_value
    kDaString = 6,         // DebugAnnotation.string_value
    kDaName = 10,          // DebugAnnotation.name
};
enum : uint64_t { kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4 };

// Protobuf strings are UTF-8, and names from a user's model need not be.
std::string utf8(const std::string& s) {
    return validUtf8(s);
}

// One message being built: fields appended in wire format.
class Proto {
public:
    void varint(uint32_t field, uint64_t v) {
        key(field, 0);
        raw(v);
    }
    void fixed64(uint32_t field, double v) {
        key(field, 1);
        char b[8];
        std::memcpy(b, &v, 8);
        bytes_.append(b, 8);
    }
    void string(uint32_t field, const std::string& s) { bytesField(field, utf8(s)); }
    void message(uint32_t field, const Proto& m) { bytesField(field, m.bytes_); }
    const std::string& bytes() const { return bytes_; }

private:
    void bytesField(uint32_t field, const std::string& b) {
        key(field, 2);
        raw(b.size());
        bytes_ += b;
    }
    void key(uint32_t field, uint32_t wire) { raw((uint64_t(field) << 3) | wire); }
    void raw(uint64_t v) {
        do {
            const auto b = uint8_t(v & 0x7f);
            v >>= 7;
            bytes_ += char(v ? b | 0x80 : b);
        } while (v);
    }
    std::string bytes_;
};

Proto annotation(const std::string& name, const json& v) {
    Proto a;
    a.string(kDaName, name);
    if (v.is_boolean())
        a.varint(kDaBool, v.get<bool>());
    else if (v.is_number_integer())
        a.varint(kDaInt, uint64_t(v.get<int64_t>())); // int64 as two's complement, like protobuf
    else if (v.is_number_float())
        a.fixed64(kDaDouble, v.get<double>());
    else if (v.is_string())
        a.string(kDaString, v.get<std::string>());
    else
        a.string(kDaString, v.dump(-1, ' ', false, json::error_handler_t::replace));
    return a;
}

class PerfettoSink : public TraceSink {
public:
    explicit PerfettoSink(std::ofstream& out) : out_(out) {}
    using TraceSink::meta;
    using TraceSink::slice;

    void meta(int64_t pid, std::optional<int> tid, const char* name, const json& args) override {
        const std::string what = name;
        if (what == "process_name") describeProcess(pid, args.value("name", std::string()));
        if (what == "thread_name" && tid)
            describeTrack(pid, *tid, args.value("name", std::string()));
    }
    void slice(int64_t pid, int tid, const std::string& name, const char* cat, int64_t startNs,
               int64_t endNs, const json& args) override {
        const uint64_t track = trackUuid(pid, tid);
        auto& open = open_[track];
        while (!open.empty() && open.back() <= startNs)
            endSlice(track, open);
        event(track, kSliceBegin, startNs, &name, cat, &args);
        open.push_back(std::max(endNs, startNs));
    }
    void instant(int64_t pid, int tid, const std::string& name, int64_t ns,
                 const json& args) override {
        event(trackUuid(pid, tid), kInstant, ns, &name, "token", &args);
    }
    void counter(int64_t pid, const std::string& name, int64_t ns, const json& args) override {
        for (const auto& [key, value] : args.items()) {
            const uint64_t track = counterTrack(pid, name + " " + key);
            Proto e;
            e.varint(kTeType, kCounter);
            e.varint(kTeTrack, track);
            e.varint(kTeCounterValue, uint64_t(value.is_number() ? value.get<int64_t>() : 0));
            packet(ns, &e);
        }
    }
    int64_t events() const override { return events_; }
    // Ends the slices still open, at their ends.
    void endRun() override {
        for (auto& [track, open] : open_)
            while (!open.empty())
                endSlice(track, open);
    }

private:
    static uint64_t processUuid(int64_t pid) { return uint64_t(pid) << 24; }
    uint64_t trackUuid(int64_t pid, int tid) {
        const uint64_t uuid = processUuid(pid) | uint64_t(tid + 1);
        if (!described_.count(uuid)) describeTrack(pid, tid, "track " + std::to_string(tid));
        return uuid;
    }
    uint64_t counterTrack(int64_t pid, const std::string& name) {
        auto [it, added] = counters_.emplace(std::pair{pid, name}, 0);
        if (added) {
            it->second = processUuid(pid) | (uint64_t(1) << 23) | counters_.size();
            Proto d;
            d.varint(kTdUuid, it->second);
            d.string(kTdName, name);
            d.varint(kTdParent, processUuid(pid));
            d.message(kTdCounter, Proto());
            descriptor(d);
        }
        return it->second;
    }
    void describeProcess(int64_t pid, const std::string& name) {
        Proto proc;
        proc.varint(kProcPid, uint64_t(pid));
        proc.string(kProcName, name);
        Proto d;
        d.varint(kTdUuid, processUuid(pid));
        d.message(kTdProcess, proc);
        descriptor(d);
    }
    void describeTrack(int64_t pid, int tid, const std::string& name) {
        const uint64_t uuid = processUuid(pid) | uint64_t(tid + 1);
        described_.insert(uuid);
        Proto d;
        d.varint(kTdUuid, uuid);
        d.string(kTdName, name);
        d.varint(kTdParent, processUuid(pid));
        d.varint(kTdSiblingRank, uint64_t(tid));
        descriptor(d);
    }
    void descriptor(const Proto& d) {
        Proto p;
        p.varint(kSequenceId, 1);
        if (first_) p.varint(kSequenceFlags, 1); // SEQ_INCREMENTAL_STATE_CLEARED
        first_ = false;
        p.message(kTrackDescriptor, d);
        write(p);
    }
    void event(uint64_t track, uint64_t type, int64_t ns, const std::string* name, const char* cat,
               const json* args) {
        Proto e;
        e.varint(kTeType, type);
        e.varint(kTeTrack, track);
        if (name) e.string(kTeName, *name);
        if (cat) e.string(kTeCategories, cat);
        if (args)
            for (const auto& [key, value] : args->items())
                e.message(kTeAnnotations, annotation(key, value));
        packet(ns, &e);
    }
    void endSlice(uint64_t track, std::vector<int64_t>& open) {
        const int64_t end = open.back();
        open.pop_back();
        event(track, kSliceEnd, end, nullptr, nullptr, nullptr);
    }
    void packet(int64_t ns, const Proto* trackEvent) {
        Proto p;
        p.varint(kTimestamp, uint64_t(std::max<int64_t>(0, ns + kPerfettoOriginNs)));
        p.varint(kSequenceId, 1);
        p.message(kTrackEvent, *trackEvent);
        write(p);
    }
    void write(const Proto& packet) {
        Proto framed;
        framed.message(kTracePacket, packet);
        out_ << framed.bytes();
        ++events_;
    }

    std::ofstream& out_;
    int64_t events_ = 0;
    bool first_ = true;
    std::map<uint64_t, std::vector<int64_t>> open_; // track → ends of its open slices
    std::set<uint64_t> described_;
    std::map<std::pair<int64_t, std::string>, uint64_t> counters_;
};
} // namespace

Result<ChromeTraceSummary> writePerfettoTrace(SessionReader& reader,
                                              const std::vector<int64_t>& runs,
                                              const std::string& outPath) {
    return writeTraceFile(reader, runs, outPath,
                          [](std::ofstream& file) { return std::make_unique<PerfettoSink>(file); });
}

} // namespace mvp
