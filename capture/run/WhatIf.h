#pragma once
// Running a what-if: its baseline read from the session, the plan, the
// model built and transformed, the A/B repetitions of both configurations
// and the resampling loss of the visual tokens measured in this process, the
// run recorded and read back. The CLI's `whatif` and its sweeps call this;
// tests call it without the CLI.

#include "capture/run/Capture.h"
#include "capture/whatif/Plan.h"
#include "core/analysis/RunData.h"
#include "core/whatif/Request.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

// What every what-if of a session starts from, read once; the reader is
// closed before anything is written.
struct WhatIfBaseline {
    RunInfo info;
    RunData data;
    CaptureOptions options; // the baseline's, to run again
};
// The run `run` names, or the session's first complete run without a
// transform; checked against `request` (checkBaseline).
Result<WhatIfBaseline> loadWhatIfBaseline(const std::string& path, std::optional<int64_t> run,
                                          const WhatIfRequest& request);

// Both configurations measured in one process before the recorded run.
struct BothArms {
    std::vector<RepetitionRow> repetitions;
    std::vector<RunMetricRow> resampling; // where the visual tokens or the KV cache change
};
// The baseline's configuration (a second, untransformed model when the
// transforms rewrite it) against the what-if's in `whatIf`: `reps` A/B pairs
// and, where the visual tokens or the KV cache change, the resampling loss.
// The baseline's model is released before returning, so its memory does not
// count in the what-if's peak.
Result<BothArms> runBothArms(const PreparedCapture& baselinePrep, Capturer& whatIf,
                             const RunTransform& t, const ModelTransforms& mt, int reps,
                             const ProgressFn& progress);

// A what-if's recorded run and its rows as read back (with its repetitions
// and, where it quantised, the latency predicted from both profiles).
struct RecordedWhatIf {
    CaptureResult result;
    RunData data;
};
// One what-if of `request` against the loaded baseline, recorded in `path`
// (which no reader holds): planned, built, transformed, measured A/B with
// `reps` repetitions (0: none). `progress` hears the transforms' calibration
// (Stage::Transforming), the repetitions and the recorded run's phases.
Result<RecordedWhatIf> runWhatIf(const std::string& path, const WhatIfBaseline& baseline,
                                 const WhatIfRequest& request, int reps,
                                 const ProgressFn& progress = {});

} // namespace mvp
