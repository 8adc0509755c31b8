#include "capture/run/Repetitions.h"

#include <algorithm>

namespace mvp {

namespace {
bool stopped(const AbPlan& p) {
    return p.cancel && p.cancel->load();
}

void addPass(std::vector<RepetitionRow>& rows, Arm arm, int rep,
             const std::vector<PhaseTime>& times, const std::vector<Phase>& control) {
    for (const auto& t : times) {
        const bool isControl =
            std::find(control.begin(), control.end(), t.phase) != control.end();
        rows.push_back(RepetitionRow{arm, rep, t.phase, t.ns, isControl});
    }
}
} // namespace

Result<std::vector<RepetitionRow>> runAbRepetitions(const AbPlan& plan) {
    std::vector<RepetitionRow> rows;
    for (int i = 0; i < std::max(1, plan.warmup) && !stopped(plan); ++i) {
        if (auto a = plan.baseline->timedPass(plan.baselinePass); !a) return a.error();
        if (auto b = plan.whatIf->timedPass(plan.whatIfPass); !b) return b.error();
    }
    for (int rep = 0; rep < plan.reps && !stopped(plan); ++rep) {
        auto a = plan.baseline->timedPass(plan.baselinePass);
        if (!a) return a.error();
        if (plan.progress) plan.progress(2 * rep + 1, 2 * plan.reps);
        auto b = plan.whatIf->timedPass(plan.whatIfPass);
        if (!b) return b.error();
        if (plan.progress) plan.progress(2 * rep + 2, 2 * plan.reps);
        if (stopped(plan)) break; // the pass may have stopped early: not a full pair
        addPass(rows, Arm::Baseline, rep, *a, plan.controlPhases);
        addPass(rows, Arm::WhatIf, rep, *b, plan.controlPhases);
    }
    return rows;
}

std::vector<Phase> controlPhases(const ModelTransforms& t, bool prunesVisualTokens) {
    // The reference pipeline's phases in order, and the first each transform touches.
    if (t.downsampleGrid > 0) return {}; // the image is resized to fewer pixels
    if (t.pruneChannels > 0 || t.visionZip || !t.tomeSchedule.empty())
        return {Phase::Preprocess};                                    // the vision encoder
    if (prunesVisualTokens) return {Phase::Preprocess, Phase::Vision}; // after the projector
    return {Phase::Preprocess, Phase::Vision, Phase::Projector};       // decoder-side
}

} // namespace mvp
