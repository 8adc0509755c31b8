#pragma once
// Streams a Chrome-trace JSON file (Kineto's object form or the legacy bare
// array) one event at a time through nlohmann's SAX interface: memory holds
// one event, never the file. nlohmann rather than simdjson because
// simdjson's on-demand API needs the whole document in memory (a 1 GB trace
// is one document), and nlohmann is a dependency already. Internal to the
// importers.

#include "core/Result.h"

#include <cstdint>
#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>

namespace mvp::interop {

using Json = nlohmann::json;

enum class TraceForm {
    Object, // {"traceEvents": [...], ...}: Kineto and most tools
    Array,  // [...]: the legacy profiler's export (libtorch without Kineto)
};

struct TraceJsonSink {
    // Each element of traceEvents (or of the bare array), as parsed. Its `ts`
    // and `dur`, where fractional, are kept as their text ("12.345") so that
    // microseconds with nanosecond digits convert exactly. An error stops the parse.
    std::function<Status(Json&& event, int64_t index)> event;
    // Each other top-level key with its value (values over 1 MiB are dropped).
    std::function<void(const std::string& key, Json&& value)> meta;
};

// The largest single event accepted: a bigger one is a damaged or foreign file.
inline constexpr int64_t kMaxEventBytes = 16 << 20;

// Parses `in` to the end, handing events and metadata to `sink`. `name` is
// the file's name for the messages: invalid JSON (with its byte offset),
// a root that is no object or array, an object without a traceEvents array,
// an event that is no object.
Result<TraceForm> parseTraceJson(std::istream& in, const std::string& name,
                                 const TraceJsonSink& sink);

} // namespace mvp::interop
