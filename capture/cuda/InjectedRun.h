#pragma once
// What the CUDA injection library (Injection.cpp) traced in one process,
// written as one run of a session of its own: kernels, copies, fills and
// CUDA API calls with their times, streams, threads and correlation ids;
// no phases, modules or ops (nothing in an unmodified program marks them).
// Plain C++ (no CUPTI header), so it is tested without a GPU.

#include "capture/cuda/CuptiTracer.h"
#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp::cuda {

// The environment variable naming the session (`mvprof-cli launch
// --cuda-inject` sets it) and the library's own, for tests and tools.
inline constexpr const char* kInjectSessionVariable = "MVPROF_INJECT_SESSION";

// One file per process: "%p" in `pattern` becomes the pid; a pattern without
// it gets ".<pid>" before its ".mvprof" (or at its end).
std::string injectedSessionPath(const std::string& pattern, int64_t pid);

struct InjectedProcess {
    std::vector<std::string> command; // argv, for the run's model name and config
    int64_t pid = 0;
};

// Writes `traced` as a complete run of a new session at `path` (written to
// a .partial file, renamed when complete; an existing file is an error).
// Times become ns from the first record; the run's metrics say how many
// records CUPTI dropped.
Result<int64_t> writeInjectedRun(const std::string& path, TracedActivities traced,
                                 const InjectedProcess& process);

} // namespace mvp::cuda
