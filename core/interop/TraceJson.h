#pragma once
// Streams a Chrome-trace JSON file (Kineto's object form or the legacy bare
// array) one event at a time: memory holds a window of the file (a few MiB),
// never the whole of it. A parser of its own, made for this one shape: it
// validates all of JSON's grammar (strings' UTF-8 and escapes included) but
// builds no document, handing each event over as views of the fields the
// importers read (docs/interop.md "How a trace is read" says why neither
// nlohmann's SAX, which built a document per event, nor simdjson). Internal
// to the importers.

#include "core/Result.h"

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mvp::interop {

using Json = nlohmann::json;
class TraceStream;

enum class TraceForm {
    Object, // {"traceEvents": [...], ...}: Kineto and most tools
    Array,  // [...]: the legacy profiler's export (libtorch without Kineto)
};

// One member of an event as read. Views into the parser's window: valid
// only during the sink's call.
struct JsonField {
    enum class Type : uint8_t { Missing, String, Integer, Float, Other };
    Type type = Type::Missing;
    std::string_view text; // String: its value, unescaped; Integer, Float: the number's text
    std::string_view raw;  // the value as JSON text (any type)

    bool present() const { return type != Type::Missing; }
    bool isString() const { return type == Type::String; }
    bool isNumber() const { return type == Type::Integer || type == Type::Float; }
};

// The members of a trace event the importers read; every other member is
// validated and skipped. A member given twice counts once, the last.
struct TraceEvent {
    JsonField ph, cat, name, ts, dur, pid, tid;
    bool argsIsObject = false;
    struct Args {
        JsonField externalId, correlation, device, stream, bytes; // "External id" …
        JsonField hierarchy, kind, phase, step;                   // "Module Hierarchy", mvprof's
        JsonField flops, flopsEstimated;                          // "flops", "flops_estimated"
        JsonField inputDims, inputType, concreteInputs;           // raw: an op's arguments
    } args;
};

struct TraceJsonSink {
    // Each element of traceEvents (or of the bare array). An error stops the parse.
    std::function<Status(const TraceEvent& event, int64_t index)> event;
    // Each other top-level key with its value (values over 1 MiB are dropped).
    std::function<void(const std::string& key, Json&& value)> meta;
};

// The largest single event (or top-level value) accepted: a bigger one is a
// damaged or foreign file.
inline constexpr int64_t kMaxEventBytes = 16 << 20;
// The longest string: no trace has one longer (a damaged file, one endless line).
inline constexpr int64_t kMaxStringBytes = 4 << 20;

// Parses `in` to the end, handing events and metadata to `sink`. `name` is
// the file's name for the messages: invalid JSON (with its byte offset),
// a root that is no object or array, an object without a traceEvents array,
// an event that is no object, a string or event past the limits above.
Result<TraceForm> parseTraceJson(TraceStream& in, const std::string& name,
                                 const TraceJsonSink& sink);

} // namespace mvp::interop
