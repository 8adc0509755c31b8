// Unrecorded passes of the whole pipeline, timed by phase: the warm-up before
// every recorded run, and the repetitions of a what-if's A/B comparison. They
// run exactly what a recorded run computes (same visual tokens, prompt and
// greedy decode steps) with no probes and no rows, so that A and B differ in
// nothing but the transform. An eval item's pass may also keep its logits and
// attention; a TorchScript model's attention needs a Recorder's module spans,
// recorded into a scratch session.
#include "capture/models/ScriptedModel.h"
#include "capture/models/Vlm.h"
#include "capture/probe/Recorder.h"
#include "capture/run/Capture.h"
#include "capture/run/CapturerImpl.h"
#include "capture/run/HookSink.h"
#include "capture/run/Pipeline.h"

#include <chrono>
#include <optional>

namespace mvp {

namespace {
// Wall time per phase on a steady clock; a phase entered again (decode's
// steps) accumulates.
class PhaseClock {
public:
    void begin(Phase phase) {
        stop();
        current_ = phase;
        start_ = std::chrono::steady_clock::now();
    }
    std::vector<PhaseTime> finish() {
        stop();
        return std::move(times_);
    }

private:
    void stop() {
        if (!current_) return;
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - start_)
                            .count();
        if (times_.empty() || times_.back().phase != *current_)
            times_.push_back(PhaseTime{*current_, 0});
        times_.back().ns += ns;
        current_.reset();
    }
    std::optional<Phase> current_;
    std::chrono::steady_clock::time_point start_;
    std::vector<PhaseTime> times_;
};

} // namespace

std::vector<int> visiblePatches(const VlmConfig& cfg, const std::vector<int>& keep) {
    std::vector<int> seen = keep;
    if (seen.empty())
        for (int p = 0; p < cfg.vision.patches(); ++p)
            seen.push_back(p);
    return seen;
}

std::vector<PhaseTime> timedReferencePass(VlmModel& model, const PreparedCapture& prep,
                                          const std::vector<int>& seen, std::vector<int>* chosen) {
    PhaseClock clock;
    ReferencePipeline pipeline(model, prep, seen);
    auto tokens = runPipeline(prep, pipeline, [&](Phase phase, int) { clock.begin(phase); });
    auto times = clock.finish();
    model.reset();
    if (chosen) *chosen = std::move(tokens);
    return times;
}

std::vector<PhaseTime> timedScriptedPass(ScriptedModel& model, const PreparedCapture& prep,
                                         std::vector<int>* chosen) {
    PhaseClock clock;
    ScriptedPipeline pipeline(model, prep);
    auto tokens = runPipeline(prep, pipeline, [&](Phase phase, int) { clock.begin(phase); });
    if (chosen) *chosen = std::move(tokens);
    return clock.finish();
}

namespace {

Result<std::vector<PhaseTime>> timedPassOf(Capturer::Impl& d, const RunTransform& transform,
                                           std::vector<int>* chosen) {
    try {
        if (d.scripted) {
            if (!transform.keepPatches.empty())
                return makeError(ErrorCode::BadInput,
                                 "visual-token pruning needs the built-in reference model");
            return timedScriptedPass(*d.scripted, d.prep, chosen);
        }
        const auto seen = visiblePatches(d.prep.config, transform.keepPatches);
        for (int p : seen)
            if (p < 0 || p >= d.prep.config.vision.patches())
                return makeError(ErrorCode::BadInput,
                                 "patch " + std::to_string(p) + " does not exist");
        return timedReferencePass(*d.model, d.prep, seen, chosen);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("a timed pass failed: ") + e.what());
    }
}

} // namespace

Result<std::vector<PhaseTime>> Capturer::timedPass(const RunTransform& transform) {
    return timedPassOf(*d, transform, nullptr);
}

namespace {

// An item's pass keeping its step outputs and, where asked, the attention
// each patch received (a HookSink without a recorder); timed like the others.
std::vector<PhaseTime> observedReferencePass(VlmModel& model, const PreparedCapture& prep,
                                             const std::vector<int>& seen,
                                             const ItemObservation& observe, ItemPass& pass) {
    HookSink sink(nullptr, prep.config);
    ForwardHooks hooks;
    if (observe.attention) {
        sizeSink(sink, prep, seen);
        hooks.attention = [&sink](int layer, const torch::Tensor& p, int q0, const KvCache& c) {
            sink.attention(layer, p, q0, c);
        };
    }
    Batch kept;
    PhaseClock clock;
    ReferencePipeline pipeline(model, prep, seen, hooks, &kept);
    pass.tokens = runPipeline(prep, pipeline, [&](Phase phase, int) {
        clock.begin(phase);
        sink.enterPhase(phase, model.cachedPositions());
    });
    auto times = clock.finish();
    model.reset();
    pass.steps = std::move(kept.stepOutputs);
    pass.visionFeatures = std::move(kept.visionFeatures);
    if (observe.attention)
        pass.patchMetrics = sink.metricRows(HookSink::answerSteps(pass.tokens)).patchMetrics;
    return times;
}

std::vector<PhaseTime> observedScriptedPass(ScriptedModel& model, const PreparedCapture& prep,
                                            ItemPass& pass) {
    Batch kept;
    PhaseClock clock;
    ScriptedPipeline pipeline(model, prep, &kept);
    pass.tokens = runPipeline(prep, pipeline, [&](Phase phase, int) { clock.begin(phase); });
    pass.steps = std::move(kept.stepOutputs);
    pass.visualTokens = kept.visionFeatures ? kept.visionFeatures->rows : 0;
    return clock.finish();
}

} // namespace

std::vector<PhaseTime> attentionScriptedPass(ScriptedModel& model, const PreparedCapture& prep,
                                             ScratchSession& scratch, ItemPass& pass) {
    auto run = scratch.newRun();
    if (!run) throw std::runtime_error(run.error().message);
    Recorder rec(scratch.writer(), *run, /*recordOps=*/true);
    const int gridPatches = patchGridOf(prep).patches();
    std::optional<ScriptRoleObserver> roles;
    followScript(rec, model, *prep.userModel, gridPatches, roles);
    Batch kept;
    PhaseClock clock;
    ScriptedPipeline pipeline(model, prep, &kept, roles ? &*roles : nullptr, gridPatches);
    const RunResult outcome = runRecorded(rec, prep, pipeline, [&](Phase phase, int step) {
        clock.begin(phase);
        rec.beginPhase(phase, step);
    }, pass.tokens);
    auto times = clock.finish();
    if (outcome.status == RunStatus::Failed) throw std::runtime_error(outcome.error);
    pass.steps = std::move(kept.stepOutputs);
    pass.visualTokens = kept.visionFeatures ? kept.visionFeatures->rows : 0;
    if (roles) pass.patchMetrics = roles->attentionMetrics(HookSink::answerSteps(pass.tokens));
    return times;
}

Result<ItemPass> Capturer::itemPass(const std::string& imagePath, const std::string& prompt,
                                    const RunTransform& transform, const ItemObservation& observe) {
    if (auto s = setInput(d->prep, imagePath, prompt); !s) return s.error();
    d->storedImageStale = true;
    ItemPass pass;
    if (!observe.logits && !observe.attention) {
        auto times = timedPassOf(*d, transform, &pass.tokens);
        if (!times) return times.error();
        pass.times = std::move(times.value());
    } else if (d->scripted) {
        if (!transform.keepPatches.empty())
            return makeError(ErrorCode::BadInput,
                             "visual-token pruning needs the built-in reference model");
        try {
            if (observe.attention && !d->scratch) {
                auto scratch = ScratchSession::open();
                if (!scratch) return scratch.error();
                d->scratch = std::move(scratch.value());
            }
            pass.times = observe.attention
                             ? attentionScriptedPass(*d->scripted, d->prep, *d->scratch, pass)
                             : observedScriptedPass(*d->scripted, d->prep, pass);
        } catch (const std::exception& e) {
            return makeError(ErrorCode::Internal, std::string("an item's pass failed: ") + e.what());
        }
    } else {
        const auto seen = visiblePatches(d->prep.config, transform.keepPatches);
        try {
            pass.times = observedReferencePass(*d->model, d->prep, seen, observe, pass);
        } catch (const std::exception& e) {
            return makeError(ErrorCode::Internal, std::string("an item's pass failed: ") + e.what());
        }
        pass.visualTokens = int(seen.size());
    }
    if (!d->scripted && pass.visualTokens == 0)
        pass.visualTokens = int(visiblePatches(d->prep.config, transform.keepPatches).size());
    pass.text = tokens::decode(pass.tokens);
    return pass;
}

} // namespace mvp
