#pragma once
// VisionZip (Yang et al., CVPR 2025; dvlab-research/VisionZip,
// visionzip/clip_encoder.py) on plain numbers: which visual tokens stay
// "dominant" and how the rest merge into "contextual" tokens, so a test can
// work every case by hand. Plain C++; the model applies it in
// capture/models/transforms/VisualTokenMerge.cpp.
//
// VisionZip ranks patches by the CLS token's attention in the layer whose
// output feeds the projector, summed over heads. The reference encoder has
// no CLS token, so a patch's score is the attention it receives averaged
// over every query (summed over heads) — the stated fallback.

#include "core/Result.h"

#include <cstdint>
#include <vector>

namespace mvp {

// Tokens sent = dominant + contextual; VisionZip's LLaVA-1.5 settings are
// 54 + 10 (64), 108 + 20 (128), 162 + 30 (192): contextual = round(budget ·
// 10 / 64), at least 1, the rest dominant.
struct VisionZipSplit {
    int64_t dominant = 0, contextual = 0;
};
Result<VisionZipSplit> visionZipSplit(int64_t tokens, int64_t budget);

struct VisionZipSelection {
    std::vector<int64_t> dominant; // the top `dominant` scores (ties: the earlier), ascending
    std::vector<int64_t> targets;  // of the rest (ascending), every step-th: step = max(1, R / C)
    std::vector<int64_t> merged;   // the rest minus the targets, ascending
    std::vector<int64_t> into;     // per merged token, the index (into targets) it joins
    // The tokens sent, in VisionZip's order: the dominant, then one per target.
    std::vector<int64_t> sent() const;
};

// `scores` [N] rank the dominant tokens; `keys` [N][d] (the layer's keys,
// mean over heads) give each merged token its target: the largest cosine
// (ties: the first target), as `similarity.argmax`.
Result<VisionZipSelection> visionZipSelect(const std::vector<double>& scores,
                                           const std::vector<std::vector<double>>& keys,
                                           const VisionZipSplit& split);

} // namespace mvp
