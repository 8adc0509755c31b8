// Capturing a user's TorchScript model (USER_MODELS.md): the same phases,
// ops, tokens and outputs as the built-in model, with module spans taken from
// the TorchScript interpreter's module hierarchy. Routing and attention stay
// inside the user's code, so the expert and heatmap views have no data.
#include "capture/CapturerImpl.h"
#include "capture/SystemInfo.h"
#include "core/session/LiveRuns.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <ATen/record_function.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace mvp {

Result<CaptureResult> Capturer::runScripted(SessionWriter& writer, bool probes,
                                            const ProgressFn& progress) {
    const auto& o = d->prep.options;
    const auto& cfg = d->prep.config;
    ScriptedModel& model = *d->scripted;
    RunInfo info = newRunInfo(o, probes);
    info.dtype = "float32"; // a TorchScript archive runs in the dtype it was saved in
    {
        // The manifest as the run's config, with what loading the model told us.
        auto cfgJson = nlohmann::json::parse(d->prep.userModel->json);
        cfgJson["parameters"] = model.parameterCount();
        cfgJson["root_type"] = model.rootType();
        info.configJson = cfgJson.dump();
    }
    auto runId = writer.beginRun(info);
    if (!runId) return runId.error();
    const LiveRunAnnouncement announcement(writer.path(), o.model, *runId, info.startedUtc);
    {
        Batch setup;
        setup.run = *runId;
        setup.image = d->storedImage;
        setup.device = d->device;
        setup.patchGrid = PatchGridRow{cfg.vision.gridSide(), cfg.vision.gridSide(),
                                       cfg.vision.patch, cfg.vision.imageSize, 1};
        writer.submit(std::move(setup));
    }
    // TorchScript's profiling executor optimises during the first calls: warm up unrecorded.
    for (int i = 0; i < o.warmup && !(o.cancel && o.cancel->load()); ++i) {
        try {
            c10::InferenceMode inference;
            auto visual = model.project(model.encodeImage(modelPixels(d->prep)));
            std::vector<int> ids{d->prep.userModel->bos};
            ids.insert(ids.end(), d->prep.promptIds.begin(), d->prep.promptIds.end());
            for (int step = 0; step <= o.steps; ++step)
                ids.push_back(int(model.forward(ids, visual, 1).argmax().item<int64_t>()));
        } catch (const std::exception&) {
            break; // the measured run reports the model's error
        }
    }
    Recorder rec(writer, *runId, probes, o.nestedOps);
    if (probes) rec.followScriptHierarchy(model.rootType());
    auto phase = [&](const std::string& name, int step = 0) {
        rec.beginPhase(name, step);
        if (progress)
            progress({name, step, o.steps,
                      name == "decode" ? 0.4 + 0.6 * (step - 1) / std::max(1, o.steps) : 0.0});
    };
    auto cancelled = [&] { return o.cancel && o.cancel->load(); };
    (void)sysinfo::resetPeakRss();

    CaptureResult result;
    result.run = *runId;
    RunResult outcome;
    Batch rows;
    int position = 0;
    try {
        c10::InferenceMode inference;
        rec.startOps();
        phase("preprocess");
        auto pixels = modelPixels(d->prep);
        phase("vision");
        auto features = model.encodeImage(pixels);
        phase("projector");
        auto visual = model.project(features);
        if (visual.dim() != 2)
            throw std::runtime_error("project() must return [visual tokens, width]");
        {
            auto v = visual.to(torch::kFloat).contiguous();
            rows.visionFeatures = VisionFeatureRow{int(v.size(0)), int(v.size(1)), {}};
            rows.visionFeatures->data.assign(v.data_ptr<float>(), v.data_ptr<float>() + v.numel());
        }
        const int patches = int(visual.size(0));
        phase("prefill");
        std::vector<int> ids{d->prep.userModel->bos};
        ids.insert(ids.end(), d->prep.promptIds.begin(), d->prep.promptIds.end());
        auto keep = [&](int step, const torch::Tensor& logits) {
            if (logits.dim() != 1 || logits.size(0) < 2)
                throw std::runtime_error("forward() must return next-token logits [vocab]");
            auto c = logits.to(torch::kFloat).contiguous();
            const int next = int(c.argmax().item<int64_t>());
            rows.stepOutputs.push_back(StepOutputRow{
                step, next,
                std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel())});
            result.outputTokens.push_back(next);
            return next;
        };
        rows.tokens.push_back(TokenRow{position++, "prefill", 0, "text", ids[0], -1});
        for (int p = 0; p < patches; ++p)
            rows.tokens.push_back(TokenRow{position++, "prefill", 0, "visual", -1,
                                           p < cfg.vision.patches() ? p : -1});
        for (int id : d->prep.promptIds)
            rows.tokens.push_back(TokenRow{position++, "prefill", 0, "text", id, -1});
        int next = keep(0, model.forward(ids, visual, 1));
        for (int step = 1; step <= o.steps && !cancelled(); ++step) {
            phase("decode", step);
            rows.tokens.push_back(TokenRow{position++, "decode", step, "text", next, -1});
            ids.push_back(next);
            // The whole sequence again: the profiler sees no KV cache in a user model.
            next = keep(step, model.forward(ids, visual, 1));
        }
        rec.endPhase();
        rec.stopOps();
        outcome.status = cancelled() ? RunStatus::Incomplete : RunStatus::Complete;
        if (cancelled()) outcome.error = "cancelled by the user";
    } catch (const std::exception& e) {
        rec.endPhase();
        rec.stopOps();
        outcome.status = RunStatus::Failed;
        std::string what = e.what();
        outcome.error = what.substr(0, what.find('\n'));
    }
    outcome.wallNs = rec.lastPhaseEndNs();
    outcome.peakRssBytes = sysinfo::peakRssBytes();
    outcome.outputText = tokens::decode(result.outputTokens);
    rows.runMetrics.push_back({"weights.bytes", double(model.weightBytes()), "bytes", "measured",
                               "storage of the TorchScript module's parameters"});
    return finishRun(rec, writer, *runId, outcome, std::move(rows), std::move(result), progress,
                     o.steps, "the user model failed: ", ErrorCode::BadInput);
}

} // namespace mvp
