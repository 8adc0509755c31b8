#include "capture/models/Pixels.h"

namespace mvp {

torch::Tensor toPixels(const RgbImage& img, const float* meanRgb, const float* stdRgb) {
    auto t = torch::from_blob(const_cast<uint8_t*>(img.rgb.data()), {img.height, img.width, 3},
                              torch::kUInt8)
                 .permute({2, 0, 1})
                 .to(torch::kFloat)
                 .div(255.0);
    auto mean = torch::tensor({meanRgb[0], meanRgb[1], meanRgb[2]}).view({3, 1, 1});
    auto std = torch::tensor({stdRgb[0], stdRgb[1], stdRgb[2]}).view({3, 1, 1});
    return ((t - mean) / std).unsqueeze(0).contiguous();
}

} // namespace mvp
