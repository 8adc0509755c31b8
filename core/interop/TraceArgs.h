#pragma once
// An op's arguments as Kineto records them (`Input Dims`, `Input type`,
// `Concrete Inputs`; pytorch/pytorch torch/csrc/autograd/profiler_kineto.cpp)
// turned into the probe's OpArgs, so an imported op's FLOPs and bytes come
// from the same formulas as a capture's (core/ops/Flops.h). Internal.

#include "core/interop/TraceJson.h"
#include "core/ops/Flops.h"

#include <string>
#include <string_view>
#include <vector>

namespace mvp::interop {

struct OpCall {
    OpCost cost;              // FLOPs nullopt: no formula, or the arguments it needs are missing
    bool arithmetic = false;  // the formula counts real arithmetic (not a view's 0)
    bool unevaluated = false; // the op has a formula but not the arguments it needs
    std::string shapes;       // tensor arguments' shapes, "[[16,64],[64,32]]"
    std::string dtype;        // the first tensor's scalar type as a capture names it ("Float")
};

OpCall opCall(std::string_view name, const Json& args);

// The arguments alone (exposed for tests): a tensor per dtype-typed entry of
// `Input Dims`, Int / IntList from `Concrete Inputs` where it gives them,
// anything else Other (its values unknown, so no formula guesses them).
std::vector<OpArg> opArgs(const Json& args);

// Kineto's dtype names are caffe2's ("float", "c10::Half", "long int"); a
// capture stores libtorch's ScalarType names ("Float", "Half", "Long").
// Unknown names pass through; the size is 0 for a name that is no dtype.
std::string_view scalarTypeName(std::string_view kinetoType);
int elementSize(std::string_view kinetoType);

} // namespace mvp::interop
