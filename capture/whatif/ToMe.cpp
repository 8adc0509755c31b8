#include "capture/whatif/ToMe.h"

#include <algorithm>
#include <string>

namespace mvp {

Result<std::vector<int64_t>> tomeSchedule(int64_t tokens, int blocks, int64_t r, int64_t budget) {
    if (r < 1 || blocks < 1)
        return makeError(ErrorCode::BadInput, "ToMe merges r ≥ 1 tokens per block");
    std::vector<int64_t> out;
    int64_t t = tokens;
    for (int b = 0; b < blocks; ++b) {
        int64_t merge = std::min(r, t / 2); // merge.py: r = min(r, (t − protected) // 2)
        if (budget > 0) merge = std::min(merge, t - budget);
        out.push_back(std::max<int64_t>(0, merge));
        t -= out.back();
    }
    if (budget > 0 && t != budget)
        return makeError(ErrorCode::BadInput,
                         "ToMe with r " + std::to_string(r) + " over " + std::to_string(blocks) +
                             " blocks leaves " + std::to_string(t) + " of " +
                             std::to_string(tokens) + " tokens, not " + std::to_string(budget) +
                             " (each block merges at most half of what it holds)");
    return out;
}

Result<std::vector<int64_t>> tomeScheduleForBudget(int64_t tokens, int blocks, int64_t budget) {
    if (budget < 1 || budget >= tokens || blocks < 1)
        return makeError(ErrorCode::BadInput, "ToMe sends from 1 to " + std::to_string(tokens - 1) +
                                                  " tokens, not " + std::to_string(budget));
    const int64_t r = (tokens - budget + blocks - 1) / blocks;
    return tomeSchedule(tokens, blocks, r, budget);
}

} // namespace mvp
