#pragma once
// Token Merging (Bolya et al., ICLR 2023; facebookresearch/ToMe,
// tome/merge.py and tome/patch/timm.py): in every ViT block, after
// attention, bipartite soft matching merges r tokens into their most
// key-similar partners by size-weighted means, and attention adds log(size)
// to each key's logit (proportional attention). Plain C++: the schedule of r
// per block; the model side is in capture/models/transforms/VisualTokenMerge.cpp.

#include "core/Result.h"

#include <cstdint>
#include <vector>

namespace mvp {

// Per block, the tokens merged: ToMe's constant r, clamped as merge.py does
// to half the tokens then held; with a `budget`, the last blocks merge fewer
// so exactly `budget` tokens leave the encoder (an error when r's clamping
// leaves more).
Result<std::vector<int64_t>> tomeSchedule(int64_t tokens, int blocks, int64_t r,
                                          int64_t budget = 0);
// The r that reaches `budget` from `tokens` over `blocks`: ceil((tokens −
// budget) / blocks), with its schedule.
Result<std::vector<int64_t>> tomeScheduleForBudget(int64_t tokens, int blocks, int64_t budget);

} // namespace mvp
