#include "app/cli/WhatIfArms.h"

#include "capture/run/Repetitions.h"

#include <algorithm>

namespace mvp::cli {

// The baseline's model is released before the recorded what-if runs, so its
// memory does not count in the what-if's peak.
Result<BothArms> runBothArms(const PreparedCapture& baselinePrep, Capturer& whatIf,
                             const RunTransform& t, const ModelTransforms& mt, int reps,
                             const ProgressFn& progress) {
    const bool resamples = !t.keepPatches.empty() || mt.kv.has_value();
    BothArms out;
    if (reps == 0 && !resamples) return out;
    std::unique_ptr<Capturer> separate;
    if (mt.touchesModel()) {
        auto c = Capturer::create(baselinePrep);
        if (!c) return c.error();
        separate = std::move(c.value());
    }
    Capturer& baseline = separate ? *separate : whatIf;
    RunTransform whatIfPass;
    whatIfPass.keepPatches = t.keepPatches;
    if (resamples) {
        auto a = baseline.observeVisualTokens();
        if (!a) return a.error();
        auto b = whatIf.observeVisualTokens(whatIfPass);
        if (!b) return b.error();
        out.resampling = resamplingMetrics(resamplingLoss(*a, *b));
    }
    if (reps == 0) return out;
    AbPlan plan;
    plan.baseline = &baseline;
    plan.whatIf = &whatIf;
    plan.whatIfPass = whatIfPass;
    plan.reps = reps;
    plan.warmup = baselinePrep.options.warmup;
    plan.controlPhases = controlPhases(mt, !t.keepPatches.empty());
    plan.cancel = baselinePrep.options.cancel;
    if (progress)
        plan.progress = [&](int pass, int passes) {
            progress({CaptureProgress::Stage::Repetitions, Phase::Preprocess, pass, passes,
                      0.8 * pass / std::max(1, passes)});
        };
    auto rows = runAbRepetitions(plan);
    if (!rows) return rows.error();
    out.repetitions = std::move(rows.value());
    return out;
}
} // namespace mvp::cli
