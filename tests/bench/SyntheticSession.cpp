#include "SyntheticSession.h"

#include "core/session/SessionWriter.h"

#include <algorithm>

namespace mvp::bench {

std::string writeSyntheticSession(const std::string& path, int64_t nOps, int64_t nRouting,
                                  int64_t nSpans) {
    auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
    if (!w) return w.error().message;
    RunInfo info;
    info.label = "bench";
    info.model = "synthetic";
    info.configJson = R"({"llm":{"experts":8,"top_k":2,"dim":512,"heads":8}})";
    info.writerHost = "bench";
    auto run = (*w)->beginRun(info);
    if (!run) return run.error().message;
    Batch setup;
    setup.run = *run;
    constexpr int kLayers = 8, kExperts = 8;
    int64_t id = 0;
    for (int l = 0; l < kLayers; ++l) {
        const int64_t layer = ++id;
        setup.modules.push_back(
            {layer, "llm.layer." + std::to_string(l), "DecoderLayer", std::nullopt, 0});
        setup.modules.push_back({++id, "llm.layer." + std::to_string(l) + ".moe.gate", "Router",
                                 layer, 0, ModuleRole::Router, l});
        for (int e = 0; e < kExperts; ++e)
            setup.modules.push_back(
                {++id, "llm.layer." + std::to_string(l) + ".moe.expert." + std::to_string(e),
                 "Expert", layer, 0, ModuleRole::Expert, l, e});
    }
    setup.phases.push_back({Phase::Prefill, 0, 0, std::max(nOps, nSpans) * 100});
    setup.device = DeviceRow{"bench", 1e11, 1e10, "datasheet", 1 << 30, 1 << 30};
    (*w)->submit(std::move(setup));
    for (int64_t first = 0; first < std::max(nOps, nSpans); first += 8192) {
        Batch b;
        b.run = *run;
        for (int64_t i = first; i < std::min(std::max(nOps, nSpans), first + 8192); ++i) {
            if (i < nSpans)
                b.spans.push_back({i + 1, 1 + i % id, std::nullopt, Phase::Prefill, 0, i * 100,
                                   i * 100 + 90, std::nullopt, 1000, 100});
            if (i < nOps)
                b.ops.push_back({i + 1, 1 + i % std::max<int64_t>(nSpans, 1), std::nullopt,
                                 i % 3 ? "aten::matmul" : "aten::add", Phase::Prefill, 0, i * 100,
                                 i * 100 + 50, "[[64,64],[64,64]]", "Float", 524288, 49152});
        }
        (*w)->submit(std::move(b));
    }
    Batch r;
    r.run = *run;
    for (int64_t i = 0; i < nRouting; ++i) {
        const int token = int(i / 2 / kLayers), layer = int(i / 2 % kLayers), rank = int(i % 2);
        r.routing.push_back({layer, Phase::Prefill, 0, token,
                             token < 576 ? Modality::Visual : Modality::Text, rank,
                             int((token * 7 + rank * 3 + layer) % kExperts), 0.5});
    }
    (*w)->submit(std::move(r));
    RunResult done;
    done.wallNs = std::max(nOps, nSpans) * 100;
    if (auto s = (*w)->endRun(*run, done); !s) return s.error().message;
    if (auto s = (*w)->close(); !s) return s.error().message;
    return {};
}

} // namespace mvp::bench
