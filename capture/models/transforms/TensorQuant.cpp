#include "capture/models/transforms/TensorQuant.h"

#include <algorithm>
#include <stdexcept>

namespace mvp {

int64_t GroupCodes::bytes() const {
    return packed.numel() * int64_t(packed.element_size()) +
           scale.numel() * int64_t(scale.element_size()) +
           low.numel() * int64_t(low.element_size());
}

GroupCodes quantiseGroups(const torch::Tensor& x, int bits, int group) {
    if (bits != 4 && bits != 8) throw std::invalid_argument("quantisation supports 4 or 8 bits");
    if (group <= 0 || group % 2)
        throw std::invalid_argument("the quantisation group must be even and positive");
    GroupCodes c;
    c.n = x.size(-1);
    // A row shorter than a group is one group (no padding to store).
    group = int(std::min<int64_t>(group, c.n + c.n % 2));
    c.bits = bits;
    c.group = group;
    auto prefix = x.sizes().vec();
    prefix.pop_back();
    const int64_t groups = (c.n + group - 1) / group, padded = groups * group;
    auto flat = x.reshape({-1, c.n}).to(torch::kFloat);
    if (padded != c.n) flat = torch::constant_pad_nd(flat, {0, padded - c.n}, 0.0);
    auto g = flat.view({flat.size(0), groups, group});
    const double levels = double((1 << bits) - 1);
    // The stored (float16) scale and minimum are the ones codes are computed
    // with, so dequantisation meets the format's bound: |error| ≤ scale / 2.
    auto lo = std::get<0>(g.min(-1, true));
    auto hi = std::get<0>(g.max(-1, true));
    auto scale = ((hi - lo) / levels).clamp_min(1e-4).to(torch::kHalf);
    auto low = lo.to(torch::kHalf);
    auto codes = ((g - low.to(torch::kFloat)) / scale.to(torch::kFloat))
                     .round()
                     .clamp(0, levels)
                     .to(torch::kUInt8);
    codes = codes.view({flat.size(0), padded});
    if (bits == 4) {
        auto pairs = codes.view({flat.size(0), padded / 2, 2});
        codes = pairs.select(2, 0).bitwise_or(pairs.select(2, 1).bitwise_left_shift(4));
    }
    auto shaped = [&](torch::Tensor t, int64_t last) {
        auto s = prefix;
        s.push_back(last);
        return t.reshape(s).contiguous();
    };
    c.packed = shaped(codes, codes.size(1));
    c.scale = shaped(scale, groups);
    c.low = shaped(low, groups);
    return c;
}

torch::Tensor dequantiseGroups(const GroupCodes& c) {
    auto prefix = c.packed.sizes().vec();
    prefix.pop_back();
    const int64_t groups = c.scale.size(-1), padded = groups * c.group;
    auto codes = c.packed.reshape({-1, c.packed.size(-1)});
    if (c.bits == 4) {
        auto lowNibble = codes.bitwise_and(0x0F);
        auto highNibble = codes.bitwise_right_shift(4);
        codes = torch::stack({lowNibble, highNibble}, 2).view({codes.size(0), padded});
    }
    auto g = codes.to(torch::kFloat).view({codes.size(0), groups, c.group});
    auto values = g * c.scale.reshape({-1, groups, 1}).to(torch::kFloat) +
                  c.low.reshape({-1, groups, 1}).to(torch::kFloat);
    auto out = values.view({codes.size(0), padded}).narrow(1, 0, c.n);
    prefix.push_back(c.n);
    return out.reshape(prefix);
}

} // namespace mvp
