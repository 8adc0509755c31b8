// Trace import throughput and memory: a generated Kineto trace of about
// SIZE_MB (default 1000) on one line, imported into a session. Prints
// events/s, MB/s and the peak resident memory (VmHWM) against the process's
// size before the import; no thresholds.
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
} // namespace

int main(int argc, char** argv) {
    const double sizeMb = argc > 1 ? std::atof(argv[1]) : 1000;
    const auto dir = std::filesystem::temp_directory_path();
    const std::string trace = (dir / "mvprof-bench-import.json").string();
    const std::string session = (dir / "mvprof-bench-import.mvprof").string();
    const auto events = int64_t(sizeMb * 1e6 / 272); // the generator's bytes per event
    if (!test::writeSyntheticTrace(trace, events)) {
        std::fprintf(stderr, "cannot write %s\n", trace.c_str());
        return 1;
    }
    const double fileMb = double(std::filesystem::file_size(trace)) / 1e6;
    const double before = statusMiB("VmRSS");
    TraceImportOptions options;
    options.overwrite = true;
    const auto t0 = std::chrono::steady_clock::now();
    auto done = importTraces({trace}, session, options);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double peak = statusMiB("VmHWM");
    std::filesystem::remove(trace);
    std::filesystem::remove(session);
    if (!done) {
        std::fprintf(stderr, "%s\n", done.error().message.c_str());
        return 1;
    }
    std::printf("import of a %.0f MB Kineto trace, %lld events, one line: %.1f s, %.1f MB/s, "
                "%.0f k events/s; peak RSS %.0f MiB (%.0f MiB before the import)\n",
                fileMb, (long long)events, secs, fileMb / secs, double(events) / secs / 1e3, peak,
                before);
    return 0;
}
