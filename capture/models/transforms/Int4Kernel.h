#pragma once
// W4 on libtorch's own int4 matmul where the build has one: libtorch 2.x's
// aten::_weight_int4pack_mm (CUDA, and CPU up to 2.5) and, on CPU from 2.6,
// aten::_weight_int4pack_mm_for_cpu — the tinygemm kernels torchao and
// gpt-fast run. Both are looked up in the dispatcher at run time, so this
// compiles against libtorch 1.13, which has neither (and W4 there stays on
// the dequantising path, its latency predicted).
//
// The kernel computes with w = (q − 8)·scale + zero per group of the input
// dimension, activations in bfloat16; mvp's group codes (TensorQuant.h) are
// q·scale + low, so zero = low + 8·scale: the same weights, re-laid out.
// Internal to mvp_capture (torch).

#include "capture/models/transforms/TensorQuant.h"

#include <optional>
#include <string>
#include <torch/torch.h>

namespace mvp {

struct Int4KernelOps; // the dispatcher's handles, found once per device kind

// One layer's weight in the kernel's layout.
struct Int4Weight {
    torch::Tensor packed;        // the kernel's tiled int4 codes
    torch::Tensor scaleAndZeros; // [in / group, out, 2] bfloat16: scale, zero
    int64_t group = 0;
    const Int4KernelOps* ops = nullptr;
    int64_t bytes() const;
};

// What the kernel's pack and matmul are given for `codes`, before the pack
// tiles them: int32 codes [out, in] in [0, 15] and bfloat16 (scale, zero)
// [in / group, out, 2], so that w = (code − 8)·scale + zero in each group.
struct Int4KernelInputs {
    torch::Tensor codes, scaleAndZeros;
};
Int4KernelInputs int4KernelInputs(const GroupCodes& codes);

// Why the kernel cannot take these codes (bits, group, widths); empty when it can.
std::string int4ShapeProblem(const GroupCodes& codes);

// The int4 matmul's name on `device` ("aten::_weight_int4pack_mm_for_cpu"),
// or nullopt with `why` naming what is missing (the libtorch version).
std::optional<std::string> int4KernelName(c10::Device device, std::string& why);

// `codes` (4-bit, one group size along the input dimension) packed for the
// kernel on their device. Nullopt, with `why`, where the kernel is missing,
// the shape does not suit it (group 32/64/128/256 dividing the input, output
// a multiple of 8, input a multiple of 32), or its output on a probe input
// disagrees with the dequantised weights by more than bfloat16's rounding
// explains (a layout this code does not know): the caller keeps the codes.
std::optional<Int4Weight> packInt4(const GroupCodes& codes, std::string& why);

// x [..., in] · wᵀ through the kernel, in x's dtype (computed in bfloat16).
torch::Tensor int4Linear(const torch::Tensor& x, const Int4Weight& w);

} // namespace mvp
