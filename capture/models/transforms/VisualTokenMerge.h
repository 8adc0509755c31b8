#pragma once
// Visual tokens merged inside the vision encoder before the projector
// (VisionZip, capture/whatif/VisionZip.h), on the model's tensors.
//
// Internal to mvp_capture; includes torch.

#include "capture/whatif/VisionZip.h"

#include <torch/torch.h>

namespace mvp {

// VisionZip over the encoder's output x [N, dim], given the attention
// `probs` [heads, N, N] and `keys` [heads, N, headDim] of the block that
// produced it: the dominant tokens as they are, then per target its own
// feature plus the mean of the tokens merged into it (VisionZip's
// "contextual" tokens; a target nothing joins stays itself). Returns
// [dominant + contextual, dim]; `selection` receives the choice.
torch::Tensor visionZipFeatures(const torch::Tensor& x, const torch::Tensor& probs,
                                const torch::Tensor& keys, const VisionZipSplit& split,
                                VisionZipSelection& selection);

// ToMe's state through the encoder: each token's size (the patches merged
// into it) and the patch it stands for (its own, for a token that absorbed
// others: ToMe keeps the destination's place).
struct ToMeState {
    std::vector<int64_t> r; // tokens merged in each block
    torch::Tensor size;     // float [N, 1]
    torch::Tensor patchOf;  // int64 [N]
};
// merge.py's bipartite_soft_matching + merge_wavg on x [N, dim] with the
// block's keys averaged over heads `metric` [N, hd]: tokens alternate into
// sets A (even) and B (odd); each A token's best B partner by cosine; the r
// A tokens with the best matches (stable, ties to the earlier) merge into
// their partners by size-weighted mean; returns [unmerged A in that order,
// then B] and updates `state`.
torch::Tensor tomeMerge(const torch::Tensor& x, const torch::Tensor& metric, int64_t r,
                        ToMeState& state);

} // namespace mvp
