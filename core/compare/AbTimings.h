#pragma once
// A what-if's A/B repetitions as distributions (docs/diagnostics.md §9): per phase
// and in total, each arm's median with its interval and the paired speed-up
// (baseline / what-if, > 1 faster) with its own. A speed-up whose interval
// holds 1.0 is "within noise"; a control phase (one the transforms cannot
// change) whose interval excludes 1.0 says the machine was unsteady.

#include "core/compare/Intervals.h"
#include "core/session/Records.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct AbPhase {
    std::optional<Phase> phase;  // nullopt: the total, every phase of the pass summed
    Interval baseline, whatIf;   // nanoseconds (measured)
    Interval speedup;            // per-pair baseline / what-if (derived)
    bool control = false;        // the what-if's transforms cannot change it
    bool withinNoise() const { return speedup.containsOne(); }
    // The phase's name, or "total".
    std::string name() const { return phase ? phaseName(*phase) : "total"; }
};

struct AbTimings {
    int reps = 0;                      // complete pairs
    std::vector<AbPhase> phases;       // in pipeline order
    AbPhase total;
    std::vector<Phase> unsteady; // control phases whose speed-up excludes 1.0
};

// Nullopt without a complete pair. Only repetitions both arms completed count.
std::optional<AbTimings> abTimings(const std::vector<RepetitionRow>& rows);

} // namespace mvp
