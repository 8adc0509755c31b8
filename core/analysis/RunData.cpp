#include "core/analysis/RunData.h"

#include "core/session/RowChecks.h"
#include "core/session/SessionReader.h"

#include <nlohmann/json.hpp>

namespace mvp {

const RunMetricRow* findMetric(const RunData& run, const std::string& name) {
    for (const auto& m : run.runMetrics)
        if (m.name == name) return &m;
    return nullptr;
}

namespace {
Error inconsistent(const RunData& d, const std::string& what) {
    return makeError(ErrorCode::NotASession,
                     "run " + std::to_string(d.run.id) + ": " + what +
                         ": the session is damaged (copy it again from its source, or capture "
                         "again)");
}

// What one table says against another: experts the config does not have,
// patches the grid does not hold. Rows the analyses index by are never
// trusted past these (each table's own ranges are checked as it is read).
Status checkAcrossTables(const RunData& d) {
    if (d.experts > 0)
        for (const auto& r : d.routing)
            if (r.expert >= d.experts)
                return inconsistent(d, "routing (layer " + std::to_string(r.layer) + ", token " +
                                           std::to_string(r.token) + "): expert " +
                                           std::to_string(r.expert) + " is outside 0.." +
                                           std::to_string(d.experts - 1) + " (the model has " +
                                           std::to_string(d.experts) + " experts)");
    const int64_t cells = d.grid ? int64_t(d.grid->gridH) * d.grid->gridW : 0;
    auto patchOk = [&](int p) { return cells == 0 || p < cells; };
    for (const auto& t : d.tokens)
        if (!patchOk(t.patch))
            return inconsistent(d, "token (position " + std::to_string(t.position) + "): patch " +
                                       std::to_string(t.patch) + " is outside the " +
                                       std::to_string(cells) + " patches of its grid");
    for (const auto* metric :
         {&d.attention, &d.attentionPrefill, &d.attentionDecode, &d.answerAttention})
        for (const auto& m : *metric)
            if (!patchOk(m.patch))
                return inconsistent(d, "patch_values " + m.metric + ": patch " +
                                           std::to_string(m.patch) + " is outside the " +
                                           std::to_string(cells) + " patches of its grid");
    return Ok{};
}
// GPU time per span from the run's device activity (kernels, copies, fills).
Status loadDeviceTime(SessionReader& reader, int64_t runId, RunData& d) {
    auto activities = reader.activities(runId);
    if (!activities) return activities.error();
    for (const auto& a : *activities) {
        if (!onDevice(a.kind)) continue;
        d.hasDeviceActivity = true;
        if (a.span) d.deviceNsBySpan[*a.span] += a.endNs - a.startNs;
    }
    return Ok{};
}

// Which weights a built-in preset ran with (config "weights", "seed").
void readWeights(const nlohmann::json& cfg, RunData& d) {
    const auto w = cfg.find("weights");
    if (w != cfg.end() && w->is_object()) {
        const auto text = [&](const char* key) {
            const auto it = w->find(key);
            return it != w->end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        d.weightsFile = text("file");
        d.weightsSha256 = text("sha256");
    } else if (const auto seed = cfg.find("seed");
               seed != cfg.end() && seed->is_number_unsigned()) {
        d.weightsSeed = seed->get<uint64_t>();
    }
}
} // namespace

Result<RunData> loadRunData(SessionReader& reader, int64_t runId) {
    RunData d;
    auto run = reader.run(runId);
    if (!run) return run.error();
    d.run = *run;
#define MVP_LOAD(field, call)                                                                      \
    {                                                                                              \
        auto r = call;                                                                             \
        if (!r) return r.error();                                                                  \
        d.field = std::move(r.value());                                                            \
    }
    MVP_LOAD(modules, reader.modules(runId))
    MVP_LOAD(phases, reader.phases(runId))
    MVP_LOAD(spans, reader.spans(runId))
    MVP_LOAD(opTotals, reader.opTotals(runId))
    MVP_LOAD(leafFlops, reader.leafFlops(runId))
    MVP_LOAD(opCount, reader.opCount(runId))
    MVP_LOAD(tokens, reader.tokens(runId))
    MVP_LOAD(routing, reader.routing(runId))
    MVP_LOAD(attention, reader.patchMetrics(runId, "attention"))
    MVP_LOAD(attentionPrefill, reader.patchMetrics(runId, "attention.prefill"))
    MVP_LOAD(attentionDecode, reader.patchMetrics(runId, "attention.decode"))
    MVP_LOAD(answerAttention, reader.patchMetrics(runId, "answer_attention"))
    MVP_LOAD(tokensKept, reader.patchMetrics(runId, "tokens.kept"))
    MVP_LOAD(grid, reader.patchGrid(runId))
    MVP_LOAD(device, reader.device(runId))
    MVP_LOAD(stepOutputs, reader.stepOutputs(runId))
    MVP_LOAD(visionFeatures, reader.visionFeatures(runId))
    MVP_LOAD(runMetrics, reader.runMetrics(runId))
    MVP_LOAD(repetitions, reader.repetitions(runId))
    MVP_LOAD(evalSet, reader.evalSet(runId))
    MVP_LOAD(evalItems, reader.evalItems(runId))
#undef MVP_LOAD
    if (auto s = loadDeviceTime(reader, runId, d); !s) return s.error();
    auto layers = reader.attnMapLayers(runId);
    if (!layers) return layers.error();
    for (int l : *layers) {
        auto maps = reader.attnMaps(runId, l);
        if (!maps) return maps.error();
        d.attnMaps[l] = std::move(maps.value());
    }
    auto image = reader.image(runId);
    if (!image) return image.error();
    if (*image) {
        d.imageWidth = (*image)->origWidth;
        d.imageHeight = (*image)->origHeight;
    }
    // The config is JSON written by the capture; a foreign or damaged one only
    // loses these extras (a value of the wrong type or out of range reads as 0).
    const auto cfg = nlohmann::json::parse(d.run.configJson, nullptr, false);
    auto number = [](const nlohmann::json& o, const char* key, int64_t hi) -> int64_t {
        const auto it = o.find(key);
        if (it == o.end() || !it->is_number_integer()) return 0;
        const auto v = it->get<int64_t>();
        return v >= 0 && v <= hi ? v : 0;
    };
    if (cfg.is_object() && cfg.contains("llm") && cfg["llm"].is_object()) {
        const auto& l = cfg["llm"];
        d.experts = int(number(l, "experts", rowcheck::kMaxExperts));
        d.topK = int(number(l, "top_k", rowcheck::kMaxTopK));
        d.llmDim = int(number(l, "dim", 1 << 20));
        d.llmHeads = int(number(l, "heads", 1 << 12));
        d.parameters = number(cfg, "parameters", int64_t(1) << 50);
        readWeights(cfg, d);
    }
    const auto format = cfg.is_object() ? cfg.find("format") : cfg.end();
    if (format != cfg.end() && format->is_string() &&
        (format->get_ref<const std::string&>().rfind("chrome-trace", 0) == 0 ||
         *format == "nsight-sqlite")) {
        d.importFormat = format->get<std::string>();
        if (const auto src = cfg.find("source"); src != cfg.end() && src->is_string())
            d.importedFrom = src->get<std::string>();
    }
    if (format != cfg.end() && format->is_string() &&
        (*format == "mvprof-model" || *format == "mvprof-python")) {
        // A user model: a TorchScript manifest, or what the Python package saw of an eager one.
        d.parameters = number(cfg, "parameters", int64_t(1) << 50);
        d.userModel = true;
    }
    if (auto ok = checkAcrossTables(d); !ok) return ok.error();
    return d;
}

} // namespace mvp
