#pragma once
// A what-if's A/B repetitions (docs/diagnostics.md §9): the baseline's
// configuration and the transformed one run in the same process, warmed up,
// then interleaved A B A B … as unrecorded timed passes, so that machine
// drift falls on both alike and every pair gives one speed-up sample.
// Plain C++: only Capturer's interface.

#include "capture/run/Capture.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace mvp {

struct AbPlan {
    Capturer* baseline = nullptr; // may be the same Capturer as whatIf when the
    Capturer* whatIf = nullptr;   // transform leaves the model alone (token pruning)
    RunTransform baselinePass, whatIfPass; // what each pass feeds the decoder
    int reps = 5;
    int warmup = 1; // unrecorded passes of each arm before the first pair (at least 1)
    std::vector<Phase> controlPhases; // phases the transform cannot change
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int pass, int passes)> progress; // after each timed pass
};

// The pairs that completed (a cancel keeps the finished ones), as rows for
// the what-if's run. An error only when a pass itself fails.
Result<std::vector<RepetitionRow>> runAbRepetitions(const AbPlan& plan);

// The phases a what-if cannot change: those before the first one its
// transforms touch (downstream of any change, routing and tokens may move).
// preprocess is always among them.
std::vector<Phase> controlPhases(const ModelTransforms& t, bool prunesVisualTokens);

} // namespace mvp
