#pragma once
// A session's runs as a Chrome trace (the JSON object form with
// "traceEvents"), which the Perfetto UI and chrome://tracing open. One
// process per run (pid = run id) with tracks for phases, module spans and
// ops, each strictly nested in time; the tokens as instant events carrying
// their experts per layer; routing as counters (tokens per expert, per layer
// and step); kernels, copies and fills on a track per GPU stream and CUDA
// API calls on one per host thread, with Kineto's categories and
// "External id" (the op's id, on the op too) and "correlation" links;
// metadata events naming processes and tracks. Timestamps are µs
// from the run's start with ns fractions ("12.345"). Ops carry Kineto's
// argument names ("Input Dims", "Input type") beside mvprof's estimates, so
// tools that read torch.profiler traces read them too. Written to a
// temporary file and renamed: a failed export leaves nothing behind.

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

class SessionReader;

// The tracks of a run's process (their tid), in display order. GPU work
// goes on a track per (device, stream) and CUDA API calls on one per host
// thread, from kFirstDeviceTrack on.
enum class TraceTrack { Phases = 1, Modules = 2, Ops = 3, Tokens = 4 };
inline constexpr int kFirstDeviceTrack = 100;
const char* traceTrackName(TraceTrack t);

struct ChromeTraceSummary {
    int64_t events = 0; // every event written, metadata included
    int64_t phases = 0, spans = 0, ops = 0, tokens = 0, counters = 0;
    int64_t activities = 0; // kernels, copies, fills and CUDA API calls
};

// `runs` empty: every run of the session.
Result<ChromeTraceSummary> writeChromeTrace(SessionReader& reader, const std::vector<int64_t>& runs,
                                            const std::string& outPath);

} // namespace mvp
