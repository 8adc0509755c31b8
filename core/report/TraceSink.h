#pragma once
// What the trace exports write, whatever the format: a run's events as the
// Chrome-trace model has them (processes = runs, tracks by tid, slices,
// instants, counters, metadata). ChromeTrace.cpp walks a session into a
// sink; the JSON and the Perfetto protobuf writers are sinks. Internal.

#include "core/Result.h"
#include "core/report/ChromeTrace.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

class SessionReader;

class TraceSink {
public:
    virtual ~TraceSink() = default;
    // process_name, process_sort_index (tid empty); thread_name, thread_sort_index.
    virtual void meta(int64_t pid, std::optional<int> tid, const char* name,
                      const nlohmann::json& args) = 0;
    // Per track, slices come by start, an enclosing one before what it encloses.
    virtual void slice(int64_t pid, int tid, const std::string& name, const char* cat,
                       int64_t startNs, int64_t endNs, const nlohmann::json& args) = 0;
    virtual void instant(int64_t pid, int tid, const std::string& name, int64_t ns,
                         const nlohmann::json& args) = 0;
    // One sample per key of `args` (a number each).
    virtual void counter(int64_t pid, const std::string& name, int64_t ns,
                         const nlohmann::json& args) = 0;
    virtual int64_t events() const = 0;
    // Around the runs: a file's head and tail; after each run.
    virtual void begin() {}
    virtual void endRun() {}
    virtual void end() {}

    void meta(int64_t pid, TraceTrack tid, const char* name, const nlohmann::json& args) {
        meta(pid, std::optional<int>(int(tid)), name, args);
    }
    void slice(int64_t pid, TraceTrack tid, const std::string& name, const char* cat,
               int64_t startNs, int64_t endNs, const nlohmann::json& args) {
        slice(pid, int(tid), name, cat, startNs, endNs, args);
    }
};

// The runs to write: `runs`, each checked, or every run of the session.
Result<std::vector<int64_t>> chosenRuns(SessionReader& reader, const std::vector<int64_t>& runs);
// Writes `runs` (all when empty) through the sink `make` builds on
// OUT.partial, renamed to `outPath` once complete: a failure leaves nothing.
Result<ChromeTraceSummary>
writeTraceFile(SessionReader& reader, const std::vector<int64_t>& runs, const std::string& outPath,
               const std::function<std::unique_ptr<TraceSink>(std::ofstream&)>& make);
// One run's events into `sink`, counted into `sum`.
Status writeRunEvents(TraceSink& sink, SessionReader& reader, int64_t run, ChromeTraceSummary& sum);

} // namespace mvp
