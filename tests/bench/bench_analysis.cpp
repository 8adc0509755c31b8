// Analysis speed: a synthetic session with 1 M op events and 200 k routing
// rows (and 100 k spans) is written, then loaded and analysed. Prints the time
// of each step and rows/s; no thresholds.
//
//   bench_analysis [OPS] [ROUTING]
#include "core/analysis/Analysis.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

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
    {
        auto w = SessionWriter::open(path.string(), SessionWriter::Mode::Overwrite);
        if (!w) return std::fprintf(stderr, "%s\n", w.error().message.c_str()), 1;
        RunInfo info;
        info.label = "bench";
        info.configJson = R"({"llm":{"experts":8,"top_k":2,"dim":512,"heads":8}})";
        auto run = (*w)->beginRun(info);
        Batch setup;
        setup.run = *run;
        constexpr int kLayers = 8, kExperts = 8;
        int64_t id = 0;
        for (int l = 0; l < kLayers; ++l) {
            const int64_t layer = ++id;
            setup.modules.push_back({layer, "llm.layer." + std::to_string(l), "DecoderLayer", std::nullopt, 0});
            setup.modules.push_back({++id, "llm.layer." + std::to_string(l) + ".moe.gate", "Router", layer, 0});
            for (int e = 0; e < kExperts; ++e)
                setup.modules.push_back({++id, "llm.layer." + std::to_string(l) + ".moe.expert." + std::to_string(e), "Expert", layer, 0});
        }
        setup.phases.push_back({"prefill", 0, 0, nOps * 100});
        setup.device = DeviceRow{"bench", 1e11, 1e10, "datasheet", 1 << 30, 1 << 30};
        (*w)->submit(std::move(setup));
        const int64_t nSpans = 100'000;
        for (int64_t first = 0; first < nOps; first += 8192) {
            Batch b;
            b.run = *run;
            for (int64_t i = first; i < std::min(nOps, first + 8192); ++i) {
                if (i < nSpans) {
                    const int64_t module = 1 + i % id;
                    b.spans.push_back({i + 1, module, std::nullopt, "prefill", 0, i * 100, i * 100 + 90, std::nullopt, 1000, 100});
                }
                b.ops.push_back({i + 1, 1 + i % nSpans, std::nullopt, i % 3 ? "aten::matmul" : "aten::add", "prefill", 0,
                                 i * 100, i * 100 + 50, "[[64,64],[64,64]]", "Float", 524288, 49152});
            }
            (*w)->submit(std::move(b));
        }
        Batch r;
        r.run = *run;
        for (int64_t i = 0; i < nRouting; ++i) {
            const int token = int(i / 2 / kLayers), layer = int(i / 2 % kLayers), rank = int(i % 2);
            r.routing.push_back({layer, "prefill", 0, token, token < 576 ? "visual" : "text", rank,
                                 int((token * 7 + rank * 3 + layer) % kExperts), 0.5});
        }
        (*w)->submit(std::move(r));
        (*w)->endRun(*run, RunResult{});
        (void)(*w)->close();
    }
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
    std::printf("analysis of %lld ops, %lld routing rows, 100000 spans (%zu MoE layers, %zu findings)\n",
                static_cast<long long>(nOps), static_cast<long long>(nRouting), a.moe.size(), a.findings.size());
    std::printf("  load    %.3f s (measured), %.0f rows/s\n", load, rows / load);
    std::printf("  analyse %.3f s (measured), %.0f rows/s\n", analyse, rows / analyse);
    std::printf("  total   %.3f s (measured)\n", load + analyse);
    return 0;
}
