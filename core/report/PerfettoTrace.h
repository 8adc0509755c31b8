#pragma once
// A session's runs as a Perfetto protobuf trace (.pftrace): the same events
// as the Chrome-trace export (ChromeTrace.h) as TrackEvent packets, written
// without a protobuf library (varints and length-delimited fields by hand;
// field numbers from perfetto's protos/perfetto/trace/*.proto, see
// docs/interop.md §B). A file is a stream of packets, so it is
// written as it goes and is several times smaller than the JSON: the format
// for sessions too large for JSON viewers. Each run is a process track; its
// phases, module spans, ops, GPU streams and API threads are child tracks of
// nested SLICE_BEGIN / SLICE_END pairs, tokens INSTANT events and routing
// counter tracks ("layer L tokens per expert expert e"). Timestamps are ns
// from the run's start plus kPerfettoOriginNs (TracePacket.timestamp is
// unsigned; spans a user's model records before its first phase are
// earlier). Written to OUT.partial and renamed.

#include "core/Result.h"
#include "core/report/ChromeTrace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

class SessionReader;

inline constexpr int64_t kPerfettoOriginNs = 1'000'000'000;

Result<ChromeTraceSummary> writePerfettoTrace(SessionReader& reader,
                                              const std::vector<int64_t>& runs,
                                              const std::string& outPath);

} // namespace mvp
