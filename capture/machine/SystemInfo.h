#pragma once
// Facts about the machine a capture runs on. Plain C++ (Linux /proc).

#include "core/session/Records.h"

#include <cstdint>
#include <string>

namespace mvp::sysinfo {

// The BLAS library loaded into this process (libtorch calls whatever the
// system's libblas alternative points to), e.g. "OpenBLAS (/usr/lib/…/libblas.so.3)".
// Names the reference BLAS as such: it is ~30× slower and a common trap.
std::string blasLibrary();
// Caps the threads of an OpenBLAS loaded in the process (its own pool, which
// libtorch's set_num_threads leaves alone and whose idle threads spin on
// the cores a single-threaded loop needs). False where no OpenBLAS is loaded.
bool setBlasThreads(int threads);

// Resets the kernel's peak-RSS counter for this process (Linux ≥ 4.0);
// false where that is not allowed, and peak figures then cover the whole process.
bool resetPeakRss();
// The process's peak resident set size in bytes (VmHWM), 0 if unknown.
int64_t peakRssBytes();
// The process's resident set size now (VmRSS), 0 if unknown.
int64_t currentRssBytes();
// Resets the peak counter (resetPeakRss) as a run begins and returns the
// resident memory at that moment as the run metric "memory.rss_start_bytes"
// (the model loaded and warmed up): peak − start is what the run itself held.
RunMetricRow startRunMemory();
// Memory the kernel says is available for new allocations, in bytes.
int64_t availableMemoryBytes();
int64_t totalMemoryBytes();

// The CPU's model name (/proc/cpuinfo), "unknown CPU" where it has none.
std::string cpuModel();

std::string utcNow(); // ISO 8601, e.g. 2026-11-29T10:43:25Z

} // namespace mvp::sysinfo
