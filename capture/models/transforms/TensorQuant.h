#pragma once
// Group-wise asymmetric uniform quantisation of torch tensors, shared by the
// weight quantisation and the INT4 KV cache. Internal to mvp_capture.

#include <torch/torch.h>

namespace mvp {

// Codes of x [..., n] quantised along the last dimension in groups of
// `group` values (the last group padded with zeros when n is not a multiple).
// Each group keeps a float16 scale and minimum: x ≈ code · scale + low, with
// codes in [0, 2^bits − 1], two 4-bit codes per byte.
struct GroupCodes {
    torch::Tensor packed;     // uint8 [..., padded·bits/8]
    torch::Tensor scale, low; // float16 [..., groups]
    int bits = 8, group = 128;
    int64_t n = 0; // values per row before padding

    int64_t bytes() const;
};

GroupCodes quantiseGroups(const torch::Tensor& x, int bits, int group);
torch::Tensor dequantiseGroups(const GroupCodes& c); // float32 [..., n]

} // namespace mvp
