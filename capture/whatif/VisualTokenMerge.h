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

} // namespace mvp
