#pragma once
// Planning a what-if from its request and its baseline, before anything runs:
// which baseline settings to copy, which patches to keep, which experts to
// freeze, the transforms for the model and the run's label and description.
// Plain C++ (no torch): the what-if runner, the CLI and tests call it; each
// method's part is its row in MethodPlans.cpp. Errors say what to change;
// nothing here writes.

#include "capture/config/CaptureOptions.h"
#include "capture/config/Config.h"
#include "capture/whatif/Transforms.h"
#include "core/Result.h"
#include "core/analysis/RunData.h"
#include "core/whatif/Request.h"

namespace mvp {

class SessionReader;

struct WhatIfPlan {
    ModelTransforms model; // what rewrites the model's weights, KV cache or experts
    RunTransform run;      // the patches kept, the label and description, the baseline
};

// A baseline this request can run against: complete, probed, not a Python
// run, and a built-in model for the methods that act inside it.
Status checkBaseline(const RunInfo& base, const WhatIfRequest& request);

// The baseline's capture options as the session recorded them (model,
// prompt, steps, device, dtype, threads, warm-up, nested ops, seed, skew,
// layers, attention layers, GPU observation) and the same pixels (the file
// if unchanged, else the stored copy).
Result<CaptureOptions> baselineOptions(SessionReader& reader, const RunInfo& base);

// The plan for `request` on the baseline's rows and its model's config.
Result<WhatIfPlan> planWhatIf(const WhatIfRequest& request, const RunData& base,
                              const VlmConfig& config);

} // namespace mvp
