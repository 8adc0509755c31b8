#pragma once
// FLOPs and bytes of one ATen op, estimated from its argument shapes.
// Plain C++ so that the formulas are tested without running a model.
//
// FLOPs (n = elements of the op's output):
//   mm, matmul, bmm, addmm, baddbmm, addbmm, mv, addmv, dot, linear
//                                             2·M·N·K per batch (exact; bias adds not counted)
//   conv1d/2d/3d, convolution, _convolution   2·B·Cout·∏out·(Cin/groups)·∏kernel
//   _native_multi_head_attention              its projections, QKᵀ and PV (2·M·N·K each)
//   scaled_dot_product_attention and its
//   _scaled_dot_product_* kernels             QKᵀ and PV, 4·B·H·L·S·E (no causal discount)
//   add, sub, mul, div, neg, rsqrt, pow, exp, sqrt, mean, sum, relu, clamp … (and in-place forms)
//                                             1 per output element (broadcast shape)
//   sigmoid, tanh 4; silu 4; gelu 8           per element (the exp/erf polynomial and multiplies)
//   softmax, _softmax, log_softmax            5 per element (max, subtract, exp, sum, divide)
//   layer_norm, native_layer_norm             5 per element (mean, centre, variance, scale, shift)
//   batch_norm, native_batch_norm             2 per element (inference: scale and shift)
//   max_pool2d, avg_pool2d                    kernel window per output element
//   adaptive_avg_pool2d                       1 per input element
// Anything else returns nullopt: "no formula", never a guess. The probe
// counts FLOPs at the innermost op that has a formula (Recorder.cpp), so a
// composite (linear → addmm, einsum → bmm) is counted once, where the
// arithmetic happens.
//
// Bytes = bytes read from tensor arguments + bytes written to the output:
//   views and metadata (view, reshape of a contiguous tensor, narrow, select,
//   slice, transpose, permute, expand, squeeze, detach, …)   0
//   copies (copy_, clone, contiguous/reshape of a strided tensor, cat, to)
//                                              what they read + what they write
//   embedding, index_select                    the rows gathered (read) + written, plus the index
//   fills (zero_, fill_, zeros_like, …)         what they write
//   everything else                            Σ tensor inputs + the output (its shape from the
//                                              formula, else the first tensor input's)

#include "core/ops/Dims.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mvp {

// One argument of an op call as seen by the probe.
struct OpArg {
    enum Kind { Tensor, IntList, Int, TensorList, Other } kind = Other;
    Dims values;      // the shape for Tensor, the values for IntList / Int; for Other, a word that
                      // tells values apart (a double's bits, a string's hash), read by no formula
    int elemSize = 4; // bytes per element for Tensor
    bool contiguous = true;        // for Tensor: laid out densely in row-major order
    uint16_t typeCode = 0;         // for Tensor: scalar type and device, to tell calls apart
    std::vector<OpArg> items = {}; // the tensors of a TensorList
};

// What an op does with memory, from its name alone (the probe caches it).
enum class OpClass {
    Arithmetic, // has a FLOP formula
    View,       // moves no data: views and metadata
    Copy,       // copies or fills without arithmetic (0 FLOPs)
    Other,      // anything else: FLOPs unknown unless nested ops count them
};
OpClass classifyOp(std::string_view opName);

// An op's class and which FLOP formula applies, from its name alone:
// resolved once per op (the probe caches it), so estimating a call compares
// no strings on the common path.
struct OpTraits {
    enum class Formula : uint8_t {
        None,
        Matmul,
        Conv,
        Sdpa,
        NativeMha,
        Pool,
        AdaptivePool,
        PerElement,
        IndexAdd
    };
    OpClass cls = OpClass::Other;
    Formula formula = Formula::None;
    int perElementFlops = 0; // for PerElement and IndexAdd
};
OpTraits opTraits(std::string_view opName);

struct OpCost {
    std::optional<int64_t> flops; // nullopt: no formula for this op
    int64_t bytes = 0;
};

OpCost estimateOpCost(std::string_view opName, const std::vector<OpArg>& args);
// The same with the op's traits already resolved (the probe caches them per op).
OpCost estimateOpCost(std::string_view opName, const OpTraits& traits,
                      const std::vector<OpArg>& args);

// What the calls nested in one call added up to, collected as they finish
// (the probe's op frames, an imported trace's call tree).
struct ChildCalls {
    int64_t flops = 0;          // Σ FLOPs of the nested calls
    bool arithmetic = false;    // a nested call counted arithmetic
    int count = 0, unknown = 0; // nested calls, and those with unknown FLOPs
};

// One finished call's FLOPs by the rule docs/format.md states: innermost wins. An
// op whose nested calls did arithmetic is their sum (a linear is its addmm);
// an op with a formula and no such calls is a leaf, counted with its own
// formula; an op made only of views and copies is their (zero) sum; else unknown.
struct CallFlops {
    int64_t flops = 0;
    bool known = false;
    bool leaf = false; // its own formula counted real arithmetic: a row of the leaf table
};
// `ownFlops`: the op's formula, if it has one; `arithmetic`: that formula counts
// real arithmetic (not a view's or copy's 0).
CallFlops callFlops(const ChildCalls& nested, const std::optional<int64_t>& ownFlops,
                    bool arithmetic);
// Hands a finished call up to the calls of its parent.
void addNestedCall(ChildCalls& parent, const CallFlops& call, bool arithmetic,
                   const ChildCalls& nested);

} // namespace mvp
