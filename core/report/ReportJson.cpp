// The JSON report. Its shape is a contract (docs/report.md): add keys, never
// rename or remove them without bumping "report_version".
#include "core/report/Report.h"
#include "core/report/EvalText.h"

#include <nlohmann/json.hpp>
#include <set>

namespace mvp {

namespace {
using nlohmann::json;

// A built-in preset's weights: {"file", "sha256"}, {"seed"} when random,
// null for user models and imports.
json weightsJson(const RunAnalysis& a) {
    if (!a.weightsFile.empty()) return {{"file", a.weightsFile}, {"sha256", a.weightsSha256}};
    if (a.weightsSeed) return {{"seed", *a.weightsSeed}};
    return nullptr;
}

json balanceJson(const BalanceStats& s) {
    return {{"tokens", s.tokens},
            {"experts", s.experts},
            {"load", s.load},
            {"z", s.z},
            {"mean", s.mean},
            {"cv", s.cv},
            {"balancedness", s.balancedness},
            {"jain", s.jain},
            {"maxvio", s.maxvio},
            {"dead_fraction", s.deadFraction},
            {"entropy_bits", s.entropyBits},
            {"entropy_norm", s.entropyNorm}};
}

json layerJson(const LayerMoeReport& l) {
    json j = balanceJson(l.total);
    j["layer"] = l.layer;
    j["top_k"] = l.topK;
    j["routed_tokens"] = l.tokenCount;
    j["hot_top1_share"] = l.hotTop1Share;
    j["by_modality"] = {{"visual", balanceJson(l.visual)}, {"text", balanceJson(l.text)}};
    j["by_phase"] = {{"prefill", balanceJson(l.prefill)}, {"decode", balanceJson(l.decode)}};
    j["experts"] = json::array();
    for (const auto& e : l.experts) {
        json x{{"id", e.id}, {"tokens", e.tokens}, {"z", e.z}, {"state", toString(e.state)}};
        if (e.state == ExpertState::Overloaded) {
            x["target_tokens_predicted"] = e.targetTokens;
            x["receivers"] = e.receivers;
        }
        j["experts"].push_back(x);
    }
    j["cold_experts"] = l.cold;
    j["windows"] = json::array();
    for (const auto& w : l.windows) {
        json x = balanceJson(w.stats);
        x["first_token"] = w.first;
        x["last_token"] = w.last;
        j["windows"].push_back(x);
    }
    return j;
}

json rooflineJson(const RooflinePoint& p) {
    // Counted points carry the GPU counters' FLOPs, DRAM bytes and kernel time.
    return {{"name", p.name},
            {p.counted ? "flops_measured" : "flops_estimated", p.flops},
            {p.counted ? "dram_bytes_measured" : "bytes_estimated", p.bytes},
            {"ms_measured", double(p.ns) / 1e6},
            {"intensity", p.intensity},
            {"achieved_flops_measured", p.achievedFlops},
            {"attainable_flops_predicted", p.attainableFlops},
            {"bound", toString(p.bound)},
            {"mismatch", p.mismatch}};
}

json ceilingJson(const DeviceCeiling& d) {
    return {{"name", d.name},
            {"peak_flops", d.peakFlops},
            {"peak_bytes_per_s", d.peakBytesPerS},
            {"ridge", d.ridge()},
            {"source", d.source}};
}

// Adds its part of the run's JSON.
void phasesJson(json& run, const RunAnalysis& a) {
    run["phases"] = json::array();
    const auto joules = [](const std::map<Phase, double>& byPhase, Phase phase) {
        const auto it = byPhase.find(phase);
        return it == byPhase.end() ? json(nullptr) : json(it->second);
    };
    for (const auto& p : a.phases.phases) {
        run["phases"].push_back({{"phase", phaseName(p.phase)},
                                 {"count", p.count},
                                 {"ms_measured", double(p.totalNs) / 1e6},
                                 {"share", p.share},
                                 {"flops_estimated", p.flops},
                                 {"bytes_estimated", p.bytes},
                                 {"flops_coverage", p.flopsCoverage()},
                                 {"energy_j_measured", joules(a.energyByPhase, p.phase)},
                                 {"gpu_energy_j_measured", joules(a.gpuEnergyByPhase, p.phase)}});
    }
    run["phase_coverage"] = a.phases.coverage;
    run["flops_by_op"] = json::array();
    for (const auto& l : a.leafFlops)
        run["flops_by_op"].push_back({{"phase", phaseName(l.phase)},
                                      {"op", l.name},
                                      {"calls", l.calls},
                                      {"flops_estimated", l.flops}});
}

// Adds its part of the run's JSON.
void modulesJson(json& run, const RunAnalysis& a) {
    run["modules"] = json::array();
    for (const auto& n : a.modules.nodes)
        run["modules"].push_back(
            {{"path", n.module.path},
             {"kind", n.module.kind},
             {"params", n.module.params},
             {"calls", n.calls},
             {"total_ms_measured", double(n.totalNs) / 1e6},
             {"self_ms_measured", double(n.selfNs) / 1e6},
             {"share", n.share},
             {"flops_estimated", n.flopsKnown ? json(n.flops) : json()},
             {"bytes_estimated", n.bytes},
             {"device_ms_measured", n.deviceNs ? json(double(*n.deviceNs) / 1e6) : json()}});
    // Where device_ms_measured comes from: GPU activity (kernels, copies and
    // fills), CUDA events around the spans, or nowhere.
    const DeviceTimeSource source = a.modules.deviceTime;
    run["module_device_time"] = source == DeviceTimeSource::Activity ? json("gpu_activity")
                                : source == DeviceTimeSource::Events ? json("cuda_events")
                                                                     : json();
}

// Adds its part of the run's JSON.
void moeJson(json& run, const RunAnalysis& a) {
    json moe{{"layers", json::array()}, {"gate_vs_expert", json::array()}};
    for (const auto& l : a.moe)
        moe["layers"].push_back(layerJson(l));
    for (const auto& g : a.gateExpert)
        moe["gate_vs_expert"].push_back({{"layer", g.layer},
                                         {"phase", phaseName(g.phase)},
                                         {"step", g.step},
                                         {"gate_ms_measured", double(g.gateNs) / 1e6},
                                         {"expert_ms_measured", double(g.expertNs) / 1e6},
                                         {"moe_ms_measured", double(g.layerNs) / 1e6},
                                         {"active_experts", g.activeExperts}});
    run["moe"] = moe;
}

// Adds its part of the run's JSON.
void headsJson(json& run, const RunAnalysis& a) {
    run["heads"] = json::array();
    for (const auto& h : a.heads) {
        json pairs = json::array();
        for (const auto& p : h.topPairs)
            pairs.push_back({{"a", p.a}, {"b", p.b}, {"cosine", p.cosine}});
        std::set<int> topHeads;
        for (const auto& p : h.topPairs)
            topHeads.insert({p.a, p.b});
        run["heads"].push_back({{"layer", h.layer},
                                {"heads", h.heads},
                                {"redundancy", h.valid ? json(h.redundancy) : json()},
                                {"top_pairs", pairs},
                                {"top_heads", topHeads},
                                {"top_head_share", h.topHeadShare}});
    }
}

// Adds its part of the run's JSON.
void rooflineRunJson(json& run, const RunAnalysis& a) {
    json roof{{"host", a.host ? ceilingJson(*a.host) : json()},
              {"references", json::array()},
              {"modules", json::array()},
              {"ops", json::array()},
              {"cross_modal_attention", json::array()}};
    for (const auto& d : a.references)
        roof["references"].push_back(ceilingJson(d));
    for (const auto& p : a.moduleRoofline)
        roof["modules"].push_back(rooflineJson(p));
    for (const auto& p : a.opRoofline)
        roof["ops"].push_back(rooflineJson(p));
    for (const auto& c : a.crossModal)
        roof["cross_modal_attention"].push_back({{"layer", c.layer},
                                                 {"ms_measured", double(c.ns) / 1e6},
                                                 {"required_bytes_per_s_predicted", c.bytesPerS}});
    run["roofline"] = roof;
}

// Adds its part of the run's JSON.
void kvJson(json& run, const RunAnalysis& a) {
    json resampling = json::array();
    for (const auto& r : a.kv.resampling)
        resampling.push_back(
            {{"layer", r.layer},
             {"dcos_measured", {{"mean", r.loss.deltaCos.mean}, {"p95", r.loss.deltaCos.p95}}},
             {"l2_drift_measured", {{"mean", r.loss.relL2.mean}, {"p95", r.loss.relL2.p95}}},
             {"kl_measured", {{"mean", r.loss.deltaKl.mean}, {"p95", r.loss.deltaKl.p95}}},
             {"attention_lost_measured", r.lostMass}});
    run["kv"] = {{"regions", a.kv.regions},
                 {"share_ratio", a.kv.shareRatio},
                 {"sequence_length", a.kv.sequenceLength},
                 {"resampling_loss", a.kv.resampling.empty()
                                         ? json("needs a what-if that changes the visual tokens "
                                                "or the KV cache")
                                         : resampling}};
}

// Adds its part of the run's JSON.
void batchJson(json& run, const RunAnalysis& a) {
    json batch{{"valid", a.batch.valid}, {"buckets", json::array()}};
    if (a.batch.valid) {
        batch["scale"] = a.batch.scale;
        // On a GPU: its memory less what tensors held as the run began.
        batch[a.batch.onGpu ? "free_gpu_bytes_derived" : "free_bytes_measured"] = a.batch.freeBytes;
        batch["max_batch"] = a.batch.maxBatch;
        for (const auto& b : a.batch.buckets)
            batch["buckets"].push_back({{"short_side", b.shortSide},
                                        {"text_tokens", b.textTokens},
                                        {"entropy_bits", b.entropyBits},
                                        {"sample_bytes_predicted", b.sampleBytes},
                                        {"batch_predicted", b.batch}});
    } else {
        batch["why"] = a.batch.why;
    }
    run["batch_advice"] = batch;
}

// Adds its part of the run's JSON.
void heatmapsJson(json& run, const RunAnalysis& a) {
    run["heatmaps"] = json::array();
    for (const auto& [name, g] : a.heatmaps)
        run["heatmaps"].push_back({{"metric", name}, {"rows", g.rows}, {"cols", g.cols}});
}

json runJson(const RunAnalysis& a) {
    const auto& i = a.run;
    json run{{"id", i.id},
             {"label", i.label},
             {"model", i.model},
             {"status", toString(i.status)},
             {"device", i.device},
             {"dtype", i.dtype},
             {"blas", i.blas},
             {"threads", i.threads},
             {"prompt", i.prompt},
             {"image", i.imagePath},
             {"steps", i.steps},
             {"output", i.outputText},
             {"probes", i.probes},
             {"parameters", a.parameters},
             {"weights", weightsJson(a)},
             {"wall_ms_measured", double(a.modules.wallNs) / 1e6},
             {"peak_rss_bytes_measured", i.peakRssBytes},
             {"energy_j_per_inference_measured",
              a.energyJ ? nlohmann::json(*a.energyJ) : nlohmann::json(nullptr)},
             {"energy_note", a.energyNote},
             {"gpu_energy_j_per_inference_measured",
              a.gpuEnergyJ ? nlohmann::json(*a.gpuEnergyJ) : nlohmann::json(nullptr)},
             {"gpu_energy_note", a.gpuEnergyNote},
             {"gpu_peak_allocated_bytes_measured",
              a.gpuPeakBytes ? nlohmann::json(*a.gpuPeakBytes) : nlohmann::json(nullptr)},
             {"gpu_memory_start_bytes_measured",
              a.gpuStartBytes ? nlohmann::json(*a.gpuStartBytes) : nlohmann::json(nullptr)},
             {"gpu_memory_note", a.gpuMemoryNote},
             {"ops_recorded", a.ops},
             {"notes", a.notes}};
    if (!a.importedFrom.empty()) {
        run["imported_from"] = a.importedFrom;
        run["peak_rss_bytes_measured"] = nullptr; // a trace does not record it
    }
    json ops = json::array();
    for (const auto& t : a.topOps)
        ops.push_back({{"name", t.name},
                       {"calls", t.calls},
                       {"ms_measured", double(t.ns) / 1e6},
                       {"gflop_estimated", double(t.flops) / 1e9},
                       {"flops_known_share", t.ns > 0 ? double(t.knownNs) / double(t.ns) : 0.0},
                       {"mb_estimated", double(t.bytes) / 1e6}});
    run["top_ops"] = std::move(ops);
    phasesJson(run, a);
    modulesJson(run, a);
    moeJson(run, a);
    headsJson(run, a);
    rooflineRunJson(run, a);
    kvJson(run, a);
    batchJson(run, a);
    heatmapsJson(run, a);
    return run;
}

json findingJson(const Finding& f, int64_t run) {
    json ev = json::array();
    for (const auto& e : f.evidence)
        ev.push_back({{"name", e.name}, {"value", e.value}, {"label", toString(e.provenance)}});
    return {{"run", run},
            {"id", f.id},
            {"severity", toString(f.severity)},
            {"title", f.title},
            {"detail", f.detail},
            {"suggestion", f.suggestion},
            {"evidence", ev},
            {"view", toString(f.target.view)},
            {"selection", selectionText(f.target)}};
}
} // namespace

std::string formatJson(const SessionReport& rep) {
    json j;
    j["report_version"] = 1;
    j["session"] = rep.path;
    j["schema_version"] = rep.schemaVersion;
    j["window_tokens"] = rep.window;
    j["units"] = {{"time", "ms"},
                  {"memory", "bytes"},
                  {"flops", "FLOP"},
                  {"bandwidth", "bytes/s"},
                  {"labels",
                   "keys ending _measured, _estimated or _predicted say how a figure was obtained; "
                   "routing and attention statistics are measured"}};
    j["runs"] = json::array();
    j["findings"] = json::array();
    for (const auto& r : rep.runs) {
        json run = runJson(r);
        if (const auto* e = rep.evalOf(r.run.id)) {
            run["eval"] = json::parse(e->comparison ? formatEvalJson(*e->comparison, e->set.path)
                                                    : evalSummaryJson(e->summary, e->set.path));
            run["eval"]["set_sha256"] = e->set.sha256;
        }
        j["runs"].push_back(std::move(run));
        for (const auto& f : r.findings)
            j["findings"].push_back(findingJson(f, r.run.id));
    }
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

} // namespace mvp
