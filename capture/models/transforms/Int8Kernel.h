#pragma once
// W8 on libtorch's own int8 matmul where the model runs off the CPU (a GPU):
// libtorch's quantized engines (Int8Engine.h) are CPU-only, but libtorch 2.x
// offers two int8 matmuls in its dispatcher, tried in this order:
//   aten::_weight_int8pack_mm(x, codes, scales) — weight-only int8: one
//     kernel, x in the model's dtype, w = codes · scale per output channel;
//   aten::_int_mm(xq, codesᵀ) — int8 × int8 → int32 (cuBLASLt on CUDA):
//     the activations quantised per row on the fly (symmetric, |x|max/127),
//     the rows padded to more than 16 (the CUDA kernel's minimum).
// Both are looked up at run time (libtorch 1.13 has neither and keeps the
// dequantising path), and each layer's product is checked against its
// dequantised weights on a probe input before it is used.
// Internal to mvp_capture (torch).

#include <functional>
#include <optional>
#include <string>
#include <torch/torch.h>

namespace mvp {

struct Int8MatmulOps; // the dispatcher's handles, found once per device kind

// One layer's weight as symmetric per-output-channel int8: w ≈ codes · scale.
struct Int8Weight {
    torch::Tensor codes; // int8 [out, in], in [−127, 127]
    torch::Tensor scale; // [out]: float32, or the dtype the weight-only kernel computes in
    const Int8MatmulOps* ops = nullptr; // the kernel that runs it; null: dequantised per call
    int64_t bytes() const;
};

// w [out, in] (any float dtype, any device) → codes and float32 scales on its
// device, scale = max|row| / 127.
Int8Weight quantiseInt8Symmetric(const torch::Tensor& w);
torch::Tensor dequantiseInt8(const Int8Weight& w); // float32 [out, in]

// The int8 matmul libtorch offers on `device` for activations in `dtype` (its
// op name), or nullopt with `why` naming what is missing. Tried once per
// device kind and dtype on a small probe.
std::optional<std::string> int8MatmulName(c10::Device device, torch::ScalarType dtype,
                                          std::string& why);

// Why the kernel cannot take a weight of this shape; empty when it can.
std::string int8ShapeProblem(const Int8Weight& w);

// Hands `w` to the int8 matmul of its device (w.ops; the weight-only kernel
// computing in `computeIn`, the model's dtype), after checking the kernel's
// product on a probe input against the dequantised weights (within 3 %).
// False, with `why`, where there is no kernel, the shape does not suit it,
// or the product disagrees: the layer then stays dequantised per call.
bool attachInt8Matmul(Int8Weight& w, torch::ScalarType computeIn, std::string& why);

// x [..., in] · wᵀ in x's dtype: through w.ops where set, else on the
// dequantised weights.
torch::Tensor int8Linear(const torch::Tensor& x, const Int8Weight& w);

// The _int_mm path's arithmetic around its int8 × int8 → int32 product,
// `intMatmul(xq [rows, in] int8, codesᵀ [in, out]) → int32 [rows, out]`:
// per-row activation codes, rows padded to at least `minRows`, the product
// rescaled by the rows' and the channels' scales. Exposed so that it can be
// checked against an exact integer product where libtorch has no _int_mm.
using IntMatmul = std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>;
torch::Tensor rowQuantisedLinear(const torch::Tensor& x, const Int8Weight& w,
                                 const IntMatmul& intMatmul, int64_t minRows);

} // namespace mvp
