#pragma once
// Planning a what-if from its request and its baseline, before anything runs:
// which baseline settings to copy, which patches to keep, which experts to
// freeze, the transforms for the model and the run's label and description.
// Plain C++ (no torch): the CLI and tests call it, the GUI reaches it through
// the CLI. Errors say what to change; nothing here writes.

#include "capture/config/CaptureOptions.h"
#include "capture/whatif/Transforms.h"
#include "core/Result.h"
#include "core/analysis/Analysis.h"

#include <optional>
#include <string>

namespace mvp {

class SessionReader;

// What ranks the visual patches kept by --prune-visual.
enum class SaliencySource { Attention, Saliency, FeatureNorm };
std::optional<SaliencySource> saliencySourceFromString(const std::string& s);
// "streaming", "h2o", "snapkv", "kivi".
std::optional<KvMethodKind> kvMethodFromString(const std::string& s);

// A what-if as asked for, each value already range-checked by its front end.
struct WhatIfRequest {
    std::optional<double> keepVisual; // (0, 1]
    SaliencySource saliency = SaliencySource::Attention;
    std::optional<int> saliencyLayer; // rank by one decoder layer's values; none: all layers
    int quantBits = 0;                // 0, 4 or 8
    int quantGroup = 128;
    std::optional<double> kvThreshold; // INT4 KV cache, merging keys above this cosine
    bool freezeCold = false;
    int freezeWindow = 128, freezeMin = 3;
    double pruneChannels = 0; // (0, 1) when asked for
    std::optional<double> fastvRatio; // FastV's R: drop that fraction of the image tokens …
    std::optional<int> fastvLayer; // … before decoder layer K; none: the paper's 2 (1 for 2 layers)
    std::optional<double> pdropLambda; // PyramidDrop's λ
    std::optional<int> dart;           // DART's token cap (its max_num_trunction)
    bool skipExperts = false;          // Expert_Sparsity's dynamic skipping
    int keepExperts = 0;               // Expert_Sparsity's static pruning: experts kept per layer
    std::optional<int> visionZip;      // VisionZip: visual tokens sent
    std::optional<int> downsample;     // the downsample baseline: visual tokens sent
    std::optional<int> tome;           // ToMe: tokens merged per vision block …
    std::optional<int> tomeTokens;     // … or the tokens it sends (a sweep's budget)
    std::optional<KvMethodKind> kvMethod; // a published KV-cache method …
    double kvBudget = 0.4;                // … keeping this fraction of the prefill per KV head
    int kiviBits = 2, kiviGroup = 32;     // KIVI's code width and group (residual 32)

    bool empty() const {
        return !keepVisual && !quantBits && !kvThreshold && !freezeCold && pruneChannels <= 0 &&
               !fastvRatio && !pdropLambda && !dart && !skipExperts && keepExperts <= 0 &&
               !kvMethod && !visionZip && !downsample && !tome && !tomeTokens;
    }
};

struct WhatIfPlan {
    ModelTransforms model; // what rewrites the model's weights, KV cache or experts
    RunTransform run;      // the patches kept, the label and description, the baseline
};

// A baseline this request can run against: complete, probed, not a Python
// run, and a built-in model for the transforms that rewrite its layers.
Status checkBaseline(const RunInfo& base, const WhatIfRequest& request);

// The baseline's capture options as the session recorded them (model,
// prompt, steps, device, dtype, threads, warm-up, nested ops, seed, skew,
// layers, attention layers) and the same pixels (the file if unchanged, else
// the stored copy).
Result<CaptureOptions> baselineOptions(SessionReader& reader, const RunInfo& base);

// The plan for `request` on the baseline's rows and its model's config.
Result<WhatIfPlan> planWhatIf(const WhatIfRequest& request, const RunData& base,
                              const VlmConfig& config);

} // namespace mvp
