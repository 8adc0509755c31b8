#pragma once
// Attention-head redundancy (docs/diagnostics.md §3): for one layer's per-head maps,
// 1 − the mean pairwise cosine between the flattened maps, and the most similar pairs.

#include "core/session/Records.h"

#include <vector>

namespace mvp {

struct HeadPair {
    int a = 0, b = 0;
    double cosine = 0;
};

struct HeadRedundancy {
    int layer = 0;
    int heads = 0;
    double redundancy = 0;          // 1 − mean cos over pairs i < j; in [0, 1], 0 = duplicates
    std::vector<HeadPair> topPairs; // the (up to) 3 most similar pairs, most similar first
    double topHeadShare = 0;        // share of heads that appear in those pairs
    bool valid = false;             // false with fewer than two usable heads
};

double cosine(const std::vector<float>& a, const std::vector<float>& b);

// `maps`: the heads of one layer (same shape). Maps with mismatched shapes are ignored.
HeadRedundancy headRedundancy(int layer, const std::vector<AttnMapRow>& maps);

} // namespace mvp
