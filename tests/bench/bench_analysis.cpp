// Analysis speed: a synthetic session with 1 M op events and 200 k routing
// rows (and 100 k spans) is written, then loaded and analysed. Prints the time
// of each step and rows/s; no thresholds.
//
//   bench_analysis [OPS] [ROUTING]
#include "SyntheticSession.h"
#include "core/analysis/Analysis.h"
#include "core/session/SessionReader.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

using namespace mvp;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const int64_t nOps = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    const int64_t nRouting = argc > 2 ? std::atoll(argv[2]) : 200'000;
    const auto path = std::filesystem::temp_directory_path() / "mvprof-bench-analysis.mvprof";
    if (const auto err = bench::writeSyntheticSession(path.string(), nOps, nRouting); !err.empty())
        return std::fprintf(stderr, "%s\n", err.c_str()), 1;
    const auto t0 = Clock::now();
    auto reader = SessionReader::open(path.string());
    if (!reader) return std::fprintf(stderr, "%s\n", reader.error().message.c_str()), 1;
    auto data = loadRunData(**reader, 1);
    if (!data) return std::fprintf(stderr, "%s\n", data.error().message.c_str()), 1;
    const auto t1 = Clock::now();
    const RunAnalysis a = analyseRun(*data, AnalysisOptions{{}, 128});
    const auto t2 = Clock::now();
    const double load = std::chrono::duration<double>(t1 - t0).count();
    const double analyse = std::chrono::duration<double>(t2 - t1).count();
    std::filesystem::remove(path);
    const double rows = double(nOps + nRouting + 100'000);
    std::printf(
        "analysis of %lld ops, %lld routing rows, 100000 spans (%zu MoE layers, %zu findings)\n",
        static_cast<long long>(nOps), static_cast<long long>(nRouting), a.moe.size(),
        a.findings.size());
    std::printf("  load    %.3f s (measured), %.0f rows/s\n", load, rows / load);
    std::printf("  analyse %.3f s (measured), %.0f rows/s\n", analyse, rows / analyse);
    std::printf("  total   %.3f s (measured)\n", load + analyse);
    return 0;
}
