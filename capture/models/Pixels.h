#pragma once
// An image as a model's input: [1, 3, H, W] float32, each channel scaled to
// [0, 1] and normalised. The built-in model uses CLIP's mean and std, as
// LLaVA-class encoders do; the capture and the training tool both call this,
// so a checkpoint sees at run time exactly the pixels it was trained on.
// Includes torch.

#include "core/image/Image.h"

#include <torch/torch.h>

namespace mvp {

inline constexpr float kClipMean[3] = {0.48145466f, 0.4578275f, 0.40821073f};
inline constexpr float kClipStd[3] = {0.26862954f, 0.26130258f, 0.27577711f};

torch::Tensor toPixels(const RgbImage& img, const float* meanRgb = kClipMean,
                       const float* stdRgb = kClipStd);

} // namespace mvp
