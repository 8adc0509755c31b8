// Capturing a user's TorchScript model (USER_MODELS.md): the same phases,
// ops, tokens and outputs as the built-in model, with module spans taken from
// the TorchScript interpreter's module hierarchy. With a role manifest, the
// router and attention modules it names give routing rows and the attention
// heatmap (ScriptRoles.h).
#include "capture/CapturerImpl.h"
#include "capture/ScriptRoles.h"
#include "capture/SystemInfo.h"
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

// The sequence as the model sees it: ids[0, first) · visual tokens · ids[first, …).
std::vector<TokenRow> prefillTokens(const std::vector<int>& ids, int first, int patches,
                                    int gridPatches) {
    std::vector<TokenRow> rows;
    int position = 0;
    for (int i = 0; i < first; ++i)
        rows.push_back(TokenRow{position++, Phase::Prefill, 0, Modality::Text, ids[size_t(i)], -1});
    for (int p = 0; p < patches; ++p)
        rows.push_back(TokenRow{position++, Phase::Prefill, 0, Modality::Visual, -1,
                                p < gridPatches ? p : -1});
    for (size_t i = size_t(first); i < ids.size(); ++i)
        rows.push_back(TokenRow{position++, Phase::Prefill, 0, Modality::Text, ids[i], -1});
    return rows;
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

std::vector<int> promptSequence(const PreparedCapture& prep) {
    std::vector<int> ids{prep.userModel->bos};
    ids.insert(ids.end(), prep.promptIds.begin(), prep.promptIds.end());
    return ids;
}

// TorchScript's profiling executor optimises during the first calls: warm up unrecorded.
void warmUp(ScriptedModel& model, const PreparedCapture& prep, int visualAt) {
    const auto& o = prep.options;
    for (int i = 0; i < o.warmup && !(o.cancel && o.cancel->load()); ++i) {
        try {
            (void)timedScriptedPass(model, prep, visualAt);
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

// One recorded run of the phases: preprocess, vision, projector, prefill and
// the decode steps, each forward pass over the whole sequence.
struct ScriptedPasses {
    ScriptedModel& model;
    const PreparedCapture& prep;
    Recorder& rec;
    ScriptRoleObserver* roles; // nullptr without a role manifest
    const ProgressFn& progress;
    int visualAt = 1, gridPatches = 0;
    Batch rows;
    std::vector<int> outputTokens;

    bool cancelled() const { return prep.options.cancel && prep.options.cancel->load(); }

    void phase(Phase p, int step = 0) {
        rec.beginPhase(p, step);
        const int steps = prep.options.steps;
        if (progress)
            progress({CaptureProgress::Stage::Phase, p, step, steps,
                      p == Phase::Decode ? 0.4 + 0.6 * (step - 1) / std::max(1, steps) : 0.0});
    }

    // One forward pass; positions from `firstNew` on are new in it.
    int forward(int step, const std::vector<int>& ids, const torch::Tensor& visual, int firstNew,
                int sequence) {
        if (roles) roles->beginPass(rec.phase(), rec.step(), firstNew, sequence);
        const auto logits = model.forward(ids, visual, visualAt);
        if (logits.dim() != 1 || logits.size(0) < 2)
            throw std::runtime_error("forward() must return next-token logits [vocab]");
        auto c = logits.to(torch::kFloat).contiguous();
        const int next = int(c.argmax().item<int64_t>());
        rows.stepOutputs.push_back(StepOutputRow{
            step, next, std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel())});
        outputTokens.push_back(next);
        return next;
    }

    void run() {
        c10::InferenceMode inference;
        phase(Phase::Preprocess);
        auto pixels = modelPixels(prep);
        phase(Phase::Vision);
        auto features = model.encodeImage(pixels);
        phase(Phase::Projector);
        auto visual = model.project(features);
        if (visual.dim() != 2)
            throw std::runtime_error("project() must return [visual tokens, width]");
        auto v = visual.to(torch::kFloat).contiguous();
        rows.visionFeatures = VisionFeatureRow{int(v.size(0)), int(v.size(1)), {}};
        rows.visionFeatures->data.assign(v.data_ptr<float>(), v.data_ptr<float>() + v.numel());
        phase(Phase::Prefill);
        std::vector<int> ids = promptSequence(prep);
        rows.tokens = prefillTokens(ids, visualAt, int(visual.size(0)), gridPatches);
        int position = int(rows.tokens.size());
        int next = forward(0, ids, visual, 0, position);
        for (int step = 1; step <= prep.options.steps && !cancelled(); ++step) {
            phase(Phase::Decode, step);
            rows.tokens.push_back(
                TokenRow{position++, Phase::Decode, step, Modality::Text, next, -1});
            ids.push_back(next);
            // The whole sequence again: the profiler sees no KV cache in a user model.
            next = forward(step, ids, visual, position - 1, position);
        }
    }
};

} // namespace

Result<CaptureResult> Capturer::runScripted(SessionWriter& writer, bool probes,
                                            const ProgressFn& progress,
                                            const RunTransform& transform) {
    const auto& o = d->prep.options;
    const auto& cfg = d->prep.config;
    ScriptedModel& model = *d->scripted;
    const UserModelManifest& manifest = *d->prep.userModel;
    const int visualAt = manifest.visualFirst;
    if (visualAt > 1 + int(d->prep.promptIds.size()))
        return makeError(ErrorCode::BadInput,
                         "\"visual_tokens.first\" is " + std::to_string(visualAt) +
                             ", beyond BOS and the prompt's " +
                             std::to_string(d->prep.promptIds.size()) + " bytes");
    RunInfo info = newRunInfo(o, probes);
    info.label = transform.label;
    info.transform = transform.transform;
    info.baselineRun = transform.baselineRun;
    info.dtype = "float32"; // a TorchScript archive runs in the dtype it was saved in
    info.configJson = withCaptureSettings(configJson(manifest, model), o);
    auto runId = writer.beginRun(info);
    if (!runId) return runId.error();
    const LiveRunAnnouncement announcement(writer.path(), o.model, *runId, info.startedUtc);
    {
        Batch setup;
        setup.run = *runId;
        setup.image = d->storedImage;
        setup.device = d->device;
        setup.patchGrid = PatchGridRow{manifest.gridH.value_or(cfg.vision.gridSide()),
                                       manifest.gridW.value_or(cfg.vision.gridSide()),
                                       cfg.vision.patch, cfg.vision.imageSize, visualAt};
        writer.submit(std::move(setup));
    }
    warmUp(model, d->prep, visualAt);

    Recorder rec(writer, *runId, probes, o.nestedOps);
    const int gridPatches =
        manifest.gridH && manifest.gridW ? *manifest.gridH * *manifest.gridW : cfg.vision.patches();
    std::optional<ScriptRoleObserver> roles;
    if (probes) {
        rec.followScriptHierarchy(model.rootType());
        rec.setChildResolver([&](const std::string& parent, const std::string& instance) {
            return model.childPath(parent, instance);
        });
        if (!manifest.roles.empty()) {
            roles.emplace(manifest, routerTopK(manifest, model), visualAt, gridPatches);
            rec.setModuleRoles([&](ModuleRow& m) { roles->assign(m); });
            rec.setObserver(&*roles);
        }
    }
    const RunMetricRow startMemory = sysinfo::startRunMemory();
    ScriptedPasses passes{model,       d->prep, rec, roles ? &*roles : nullptr, progress, visualAt,
                          gridPatches, {},      {}};
    RunResult outcome;
    try {
        rec.startOps();
        passes.run();
        outcome.status = passes.cancelled() ? RunStatus::Incomplete : RunStatus::Complete;
        if (passes.cancelled()) outcome.error = "cancelled by the user";
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        std::string what = e.what();
        outcome.error = what.substr(0, what.find('\n'));
    }
    rec.endPhase();
    rec.stopOps();
    outcome.wallNs = rec.lastPhaseEndNs();
    outcome.peakRssBytes = sysinfo::peakRssBytes();
    outcome.outputText = tokens::decode(passes.outputTokens);
    Batch rows = std::move(passes.rows);
    rows.runMetrics = transform.metrics;
    rows.runMetrics.push_back(startMemory);
    rows.runMetrics.push_back(rec.probeWorkMetric());
    rows.runMetrics.push_back({"weights.bytes", double(model.weightBytes()), "bytes", "measured",
                               "storage of the TorchScript module's parameters"});
    for (auto& m : rec.energyMetrics())
        rows.runMetrics.push_back(std::move(m));
    if (roles) {
        rows.routing = roles->takeRouting();
        rows.patchMetrics = roles->attentionMetrics();
        for (auto& m : observedMetrics(*roles))
            rows.runMetrics.push_back(std::move(m));
    }
    CaptureResult result;
    result.run = *runId;
    result.outputTokens = std::move(passes.outputTokens);
    return finishRun(rec, writer, *runId, outcome, std::move(rows), std::move(result), progress,
                     o.steps, "the user model failed: ", ErrorCode::BadInput);
}

} // namespace mvp
