#pragma once
// A sweep's budgets (docs/whatif-methods.md §0): the default grid, and the
// request that spends a budget with a method on the baseline's model — the
// tokens sent for pruning, VisionZip, ToMe and downsampling, the
// layer-averaged count for FastV and PyramidDrop, the tokens kept after
// DART's cut, the fraction of the prefill each KV head keeps for the KV
// methods (what each counts: its catalogue row's Budget). Plain C++; the
// sweep itself runs in capture/run/Sweep.h.

#include "core/Result.h"
#include "core/analysis/RunData.h"
#include "core/whatif/Request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

// What a budget mapping needs to know of the baseline's model.
struct ModelShape {
    int layers = 0;        // decoder layers
    int visionBlocks = 0;  // vision encoder blocks
    int64_t visual = 0;    // image tokens the decoder received in the prefill
    int64_t prefill = 0;   // prefill positions
    int64_t headDim = 0;   // the decoder's attention head size
    int floatBytes = 4;    // the KV cache's float type
};
// From the baseline's config and tokens.
ModelShape modelShapeOf(const RunData& base);

// The budgets swept when none are given: the papers' 192/128/64 of 576
// image tokens scaled to the model's, or 0.4/0.2/0.1 of the KV cache.
std::vector<double> defaultBudgets(Budget kind, const ModelShape& shape);

// A request for `method` spending `budget`, and its parameter in words
// ("K 2, R 0.6667"); an error says why the model cannot reach the budget.
struct BudgetRequest {
    WhatIfRequest request;
    std::string parameter;
};
Result<BudgetRequest> requestForBudget(Method method, double budget, const ModelShape& shape);

} // namespace mvp
