#pragma once
// Imports torch.profiler traces — Kineto's Chrome-trace JSON (object form,
// either timestamp style) and the legacy profiler's bare array, plain or
// gzip — into a new session, one run per file; and Nsight Systems' SQLite
// exports, one run per profiled process (told apart by SQLite's header). Streamed: memory holds the
// events in compact form (~80 bytes each), never the file's text. What the
// session gets is in docs/format.md ("Imported runs").

#include "core/Result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mvp {

struct ImportedTrace {
    std::string file; // its name; for an Nsight export with "(pid N)"
    int64_t run = 0;
    int64_t events = 0; // trace events read
    int64_t ops = 0, spans = 0, modules = 0;
    int64_t activities = 0; // kernels, copies, fills and CUDA API calls
    int64_t linked = 0;     // GPU work attributed to its op
    int64_t skipped = 0;    // events left out (their kinds are in the run's import.skipped note)
};

struct TraceImportOptions {
    bool overwrite = false; // replace `out` if it exists
    // Bytes read of the file being imported, and its size on disk; false cancels.
    std::function<bool(const std::string& file, int64_t read, int64_t size)> progress;
};

// Writes `out` (through `out`.partial, renamed at the end: a failure leaves
// nothing). Every file is checked by parsing it to the end before anything
// is renamed; the first bad one is the error, naming it and what is wrong.
Result<std::vector<ImportedTrace>> importTraces(const std::vector<std::string>& files,
                                                const std::string& out,
                                                const TraceImportOptions& options = {});

// True for names File → Open hands to the importer: .json, .json.gz,
// .pt.trace.json, .sqlite (an Nsight Systems export).
bool looksLikeTraceFile(const std::string& path);

} // namespace mvp
