#pragma once
// The downsample baseline (VTC-Bench, arXiv 2510.07143, docs/whatif-methods.md
// §0): the image resized so the encoder emits a given number of tokens, its
// learned position table interpolated to the smaller grid. Plain C++: the
// grid and the patches the tokens stand for; the model side is in Vlm.cpp.

#include "core/Result.h"

#include <vector>

namespace mvp {

// The square grid closest to `tokens` (side round(√tokens)), smaller than
// the encoder's own `grid`.
Result<int> downsampleGrid(int grid, int tokens);

// For each token of the g × g grid (row-major), the patch of the full
// grid × grid image at its centre: row floor((r + ½)·grid / g), likewise the
// column — where its heatmap cell and token rows point.
std::vector<int> downsampleRepresentatives(int grid, int g);

} // namespace mvp
