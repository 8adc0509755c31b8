// Trace import throughput and memory: generated Kineto traces of about
// SIZE_MB (default 1000) on one line — a CUDA run's mix of ops, launches and
// kernels, and cpu_ops alone — each imported into a session. Prints events/s,
// MB/s and the peak resident memory (VmHWM) against the process's size
// before the import; no thresholds. The time is the import's alone (the
// file is written before the clock starts).
//
//   bench_import [SIZE_MB]
#include "SyntheticTrace.h"
#include "core/interop/TraceImport.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace mvp;

namespace {
// A /proc/self/status field in KiB (VmRSS, VmHWM).
double statusMiB(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::strtod(line.c_str() + key.size(), nullptr) / 1024;
    return 0;
}

struct Imported {
    bool ok = false;
    double fileMb = 0, secs = 0, peakMiB = 0, beforeMiB = 0;
    int64_t events = 0;
};

// Writes a trace of `mix`, imports it, removes both files.
Imported importOne(double sizeMb, test::SyntheticMix mix, double bytesPerEvent) {
    Imported out;
    const auto dir = std::filesystem::temp_directory_path();
    const std::string trace = (dir / "mvprof-bench-import.json").string();
    const std::string session = (dir / "mvprof-bench-import.mvprof").string();
    out.events = int64_t(sizeMb * 1e6 / bytesPerEvent);
    if (!test::writeSyntheticTrace(trace, out.events, mix)) {
        std::fprintf(stderr, "cannot write %s\n", trace.c_str());
        return out;
    }
    out.fileMb = double(std::filesystem::file_size(trace)) / 1e6;
    out.beforeMiB = statusMiB("VmRSS");
    TraceImportOptions options;
    options.overwrite = true;
    const auto t0 = std::chrono::steady_clock::now();
    auto done = importTraces({trace}, session, options);
    out.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.peakMiB = statusMiB("VmHWM");
    std::filesystem::remove(trace);
    std::filesystem::remove(session);
    if (!done) {
        std::fprintf(stderr, "%s\n", done.error().message.c_str());
        return out;
    }
    out.events = done->front().events;
    out.ok = true;
    return out;
}

void print(const char* what, const Imported& r) {
    std::printf("import of a %.0f MB Kineto trace (%s), %lld events, one line: %.1f s, "
                "%.1f MB/s, %.0f k events/s; peak RSS %.0f MiB (%.0f MiB before the import) "
                "(measured)\n",
                r.fileMb, what, (long long)r.events, r.secs, r.fileMb / r.secs,
                double(r.events) / r.secs / 1e3, r.peakMiB, r.beforeMiB);
}

// Each import in a child process of its own: its peak is its own (malloc
// keeps what an earlier import freed, so a reset peak would start there).
bool importInChild(double sizeMb, test::SyntheticMix mix, double bytesPerEvent, const char* what) {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        const Imported r = importOne(sizeMb, mix, bytesPerEvent);
        if (r.ok) print(what, r);
        std::fflush(stdout);
        _exit(r.ok ? 0 : 1);
    }
    int status = 0;
    return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}
} // namespace

int main(int argc, char** argv) {
    const double sizeMb = argc > 1 ? std::atof(argv[1]) : 1000;
    const bool gpu = importInChild(sizeMb, test::SyntheticMix::GpuMix, 237,
                                   "ops, CUDA launches and kernels; sorted by the importer");
    const bool cpu =
        importInChild(sizeMb, test::SyntheticMix::CpuOps, 272, "cpu_ops on one thread, in order");
    return gpu && cpu ? 0 : 1;
}
