#pragma once
// A what-if over an eval set (docs/eval.md): the baseline's configuration and
// the what-if's run over every item in one process, each model loaded once,
// interleaved item by item (baseline, then what-if), unrecorded passes. Two
// eval runs are written to the session — the baseline's and the what-if's —
// with per item its output, match, phase times, what was kept and, for the
// what-if, its fidelity to the baseline's outputs on that item. Rows are
// written item by item: an interrupted run leaves the items done, its run
// marked incomplete. Plain C++ header.

#include "capture/run/WhatIf.h"
#include "core/analysis/RunData.h"
#include "core/eval/EvalSet.h"
#include "core/whatif/Request.h"

#include <functional>
#include <string>

namespace mvp {

struct EvalWhatIfRuns {
    RunData baseline, whatIf; // as read back from the session
};

using EvalItemProgress = std::function<void(int done, int total)>;

struct EvalWhatIfOptions {
    EvalItemProgress progress;
    // Per item and arm, where the model's attention is observable (the
    // built-in model; a TorchScript model through its attention roles), an
    // extra untimed pass that observes it: the item's
    // answer_attention heatmap (EvalItemRow::heatmap). The timed passes
    // never observe attention.
    bool itemHeatmaps = true;
};

// Runs `request` against `baseline` (loaded from the session at `path`, which
// no reader holds) over `set`. Per-item planning: where the plan chooses
// patches from the baseline's attention (--prune-visual), each item's
// choice comes from that item's own baseline pass. VisionZip and ToMe,
// which choose tokens inside the encoder per image, are refused.
// baseline.options.cancel stops between items.
Result<EvalWhatIfRuns> runEvalWhatIf(const std::string& path, const WhatIfBaseline& baseline,
                                     const WhatIfRequest& request, const EvalSet& set,
                                     const EvalWhatIfOptions& eval = {});

} // namespace mvp
