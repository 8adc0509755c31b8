#pragma once
// FLOPs and bytes of one ATen op, estimated from its argument shapes.
// Plain C++ so that the formulas are tested without running a model.
//
// Counts (n = elements of the op's output):
//   mm, matmul, bmm, addmm, baddbmm, linear   2·M·N·K per batch (exact; bias adds not counted)
//   conv1d/2d, convolution, _convolution      2·B·Cout·Hout·Wout·(Cin/groups)·kh·kw
//   add, sub, mul, div, neg, rsqrt, pow, exp, mean, sum, …   1 per output element
//   softmax, _softmax, log_softmax            5 per element (max, subtract, exp, sum, divide)
//   layer_norm, native_layer_norm, rms-style  5 per element (mean, centre, variance, scale, shift)
//   gelu 8, silu 4 per element (the erf/exp polynomial and the multiplies)
// Anything else returns nullopt: "not counted", never a guess. Bytes are the
// tensor inputs' bytes plus the output's (shape derived for counted ops, else
// the first input's size).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mvp {

// One argument of an op call as seen by the probe.
struct OpArg {
    enum Kind { Tensor, IntList, Int, Other } kind = Other;
    std::vector<int64_t> values; // the shape for Tensor, the values for IntList / Int
    int elemSize = 4;            // bytes per element for Tensor
};

struct OpCost {
    std::optional<int64_t> flops; // nullopt: no formula for this op
    int64_t bytes = 0;
};

OpCost estimateOpCost(std::string_view opName, const std::vector<OpArg>& args);

} // namespace mvp
