// Capturing a user's TorchScript model (docs/user-models.md): the same phases,
// ops, tokens and outputs as the built-in model, with module spans taken from
// the TorchScript interpreter's module hierarchy. With a role manifest, the
// router and attention modules it names give routing rows and the attention
// heatmap (ScriptRoles.h).
#include "capture/machine/SystemInfo.h"
#include "capture/probe/GpuTrace.h"
#include "capture/run/CapturerImpl.h"
#include "capture/run/HookSink.h"
#include "capture/run/Pipeline.h"
#include "capture/run/ScriptRoles.h"
#include "core/session/LiveRuns.h"
#include "core/session/ModuleRoles.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <ATen/record_function.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <unistd.h>

namespace mvp {

namespace {

// Experts per token: the manifest's, else the first router's attribute, else
// 0 (a top-k inside the router tells).
int routerTopK(const UserModelManifest& m, const ScriptedModel& model) {
    if (m.topK) return *m.topK;
    for (const auto& r : m.roles) {
        if (r.role != ModuleRole::Router) continue;
        const std::regex re(r.pattern);
        for (const auto& path : model.modulePaths())
            if (std::regex_search(path, re))
                if (auto k = model.intAttribute(
                        path, {"top_k", "num_experts_per_tok", "num_activated_experts", "k"}))
                    return *k;
    }
    return 0;
}

// The manifest as the run's config, with what loading the model told us:
// parameters, the root type, and for the expert views the experts per MoE
// layer (the expert modules the roles name) and top-k.
std::string configJson(const UserModelManifest& manifest, const ScriptedModel& model) {
    auto cfg = nlohmann::json::parse(manifest.json);
    cfg["parameters"] = model.parameterCount();
    cfg["root_type"] = model.rootType();
    if (manifest.roles.empty()) return cfg.dump();
    int experts = 0;
    for (const auto& r : manifest.roles) {
        if (r.role != ModuleRole::Expert) continue;
        const std::regex re(r.pattern);
        for (const auto& path : model.modulePaths())
            if (std::regex_search(path, re)) {
                ModuleRow m{0, path, "", std::nullopt, 0, ModuleRole::Expert};
                assignIndices(m);
                if (m.expert) experts = std::max(experts, *m.expert + 1);
            }
    }
    cfg["llm"] = {{"experts", experts}, {"top_k", routerTopK(manifest, model)}};
    return cfg.dump();
}

// TorchScript's profiling executor optimises during the first calls: warm up unrecorded.
void warmUp(ScriptedModel& model, const PreparedCapture& prep) {
    const auto& o = prep.options;
    for (int i = 0; i < o.warmup && !(o.cancel && o.cancel->load()); ++i) {
        try {
            (void)timedScriptedPass(model, prep);
        } catch (const std::exception&) {
            return; // the measured run reports the model's error
        }
    }
}

// What the roles let the capture observe, for the report's notes.
std::vector<RunMetricRow> observedMetrics(const ScriptRoleObserver& roles) {
    return {{"roles.routing_observed", roles.sawRouting() ? 1.0 : 0.0, "", "measured",
             roles.sawRouting()               ? "routing read from the router modules"
             : roles.routingProblem().empty() ? "no module with the router role ran"
                                              : roles.routingProblem()},
            {"roles.attention_observed", roles.sawAttention() ? 1.0 : 0.0, "", "measured",
             roles.sawAttention()
                 ? "attention probabilities read from softmax calls in attention modules"
                 : "no softmax over the sequence ran inside an attention module (fused "
                   "attention kernels hide the probabilities)"}};
}

} // namespace

void followScript(Recorder& rec, ScriptedModel& model, const UserModelManifest& manifest,
                  int gridPatches, std::optional<ScriptRoleObserver>& roles) {
    rec.followScriptHierarchy(model.rootType());
    rec.setChildResolver([&model](const std::string& parent, const std::string& instance) {
        return model.childPath(parent, instance);
    });
    if (manifest.roles.empty()) return;
    roles.emplace(manifest, routerTopK(manifest, model), manifest.visualFirst, gridPatches);
    rec.setModuleRoles([&roles](ModuleRow& m) { roles->assign(m); });
    rec.setObserver(&*roles);
}

RunInfo Capturer::runInfo(bool probes, const RunTransform& transform) const {
    const auto& o = d->prep.options;
    RunInfo info = newRunInfo(o, probes);
    info.label = transform.label;
    info.transform = transform.transform;
    info.baselineRun = transform.baselineRun;
    if (d->scripted) {
        info.dtype = "float32"; // a TorchScript archive runs in the dtype it was saved in
        info.configJson = withCaptureSettings(configJson(*d->prep.userModel, *d->scripted), o);
    } else {
        info.configJson = withCaptureSettings(d->prep.config.toJson(), o);
    }
    return info;
}

Result<CaptureResult> Capturer::runScripted(SessionWriter& writer, bool probes,
                                            const ProgressFn& progress,
                                            const RunTransform& transform) {
    const auto& o = d->prep.options;
    ScriptedModel& model = *d->scripted;
    const UserModelManifest& manifest = *d->prep.userModel;
    const int visualAt = manifest.visualFirst;
    if (visualAt > 1 + int(d->prep.promptIds.size()))
        return makeError(ErrorCode::BadInput,
                         "\"visual_tokens.first\" is " + std::to_string(visualAt) +
                             ", beyond BOS and the prompt's " +
                             std::to_string(d->prep.promptIds.size()) + " bytes");
    const RunInfo info = runInfo(probes, transform);
    auto runId = writer.beginRun(info);
    if (!runId) return runId.error();
    const LiveRunAnnouncement announcement(writer.path(), o.model, *runId, info.startedUtc);
    writer.submit(setupRows(*runId, d->prep, d->storedImage, d->device, {}, visualAt));
    warmUp(model, d->prep);

    Recorder rec(writer, *runId, probes, o.nestedOps);
    const int gridPatches = patchGridOf(d->prep).patches();
    std::optional<ScriptRoleObserver> roles;
    if (probes) followScript(rec, model, manifest, gridPatches, roles);
    const RunMetricRow startMemory = sysinfo::startRunMemory();
    Batch rows;
    ScriptedPipeline pipeline(model, d->prep, &rows, roles ? &*roles : nullptr, gridPatches);
    CaptureResult result;
    result.run = *runId;
    // On a GPU: energy, kernels and copies attributed to modules, span device times, memory.
    std::optional<GpuObservation> gpu;
    if (model.device().is_cuda())
        gpu.emplace(rec, model.device().index(), o.traceGpu, o.deviceTiming);
    const RunResult outcome = runRecorded(
        rec, d->prep, pipeline, recordedPhases(rec, progress, o.steps), result.outputTokens);
    rows.runMetrics = transform.metrics;
    rows.runMetrics.push_back({"weights.bytes", double(model.weightBytes()), "bytes", "measured",
                               "storage of the TorchScript module's parameters"});
    addRecorderMetrics(rows, rec, startMemory);
    if (gpu) gpu->finish(rec, rows); // tracing off before any counter replay
    if (gpu && o.hwCounters && probes && outcome.status == RunStatus::Complete) {
        const CounterReplay replay = [&](SessionWriter& scratch, int64_t run,
                                         cuda::RangeSink& ranges) {
            replayWithRanges(model, d->prep, scratch, run, ranges);
        };
        for (auto& m : countHardware(model.device().index(), replay, rec))
            rows.runMetrics.push_back(std::move(m));
    }
    if (roles) {
        rows.routing = roles->takeRouting();
        rows.patchMetrics = roles->attentionMetrics(HookSink::answerSteps(result.outputTokens));
        for (auto& m : observedMetrics(*roles))
            rows.runMetrics.push_back(std::move(m));
    }
    return finishRun(rec, writer, *runId, outcome, std::move(rows), std::move(result), progress,
                     o.steps, "the user model failed: ", ErrorCode::BadInput);
}

} // namespace mvp
