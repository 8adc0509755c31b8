#pragma once
// What `mvprof-cli whatif` measures on both setups in its own process: the
// A/B repetitions (capture/run/Repetitions.h) and the resampling loss of
// the visual tokens (core/analysis/Kv.h).

#include "capture/run/Capture.h"

#include <vector>

namespace mvp::cli {

struct BothArms {
    std::vector<RepetitionRow> repetitions;
    std::vector<RunMetricRow> resampling; // where the visual tokens or the KV cache change
};

// The baseline's configuration (a second, untransformed model when the
// transforms rewrite it) against the what-if's in `whatIf`: `reps` A/B pairs
// and, where the visual tokens or the KV cache change, the resampling loss.
Result<BothArms> runBothArms(const PreparedCapture& baselinePrep, Capturer& whatIf,
                             const RunTransform& t, const ModelTransforms& mt, int reps,
                             const ProgressFn& progress);

} // namespace mvp::cli
