#pragma once
// Ops found in libtorch's dispatcher by name at run time and called boxed, as
// TorchScript calls them: kernels one libtorch has and another lacks (the
// int4 and int8 matmuls of 2.x) then cost no build dependency on a version.
// Internal to mvp_capture (torch).

#include "core/ErrorText.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <optional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace mvp {

// The overload "" of `name` ("aten::_int_mm"), if this libtorch registers it.
// (findSchema gives c10::optional in libtorch 1.13, std::optional in 2.x.)
inline std::optional<c10::OperatorHandle> findBoxedOp(const std::string& name) {
    const auto handle = c10::Dispatcher::singleton().findSchema({name, ""});
    if (!handle) return std::nullopt;
    return *handle;
}

// Calls `op` on `stack`; its first result, a tensor.
inline torch::Tensor callBoxedOp(const c10::OperatorHandle& op, std::vector<c10::IValue> stack) {
    op.callBoxed(stack);
    return stack.at(0).toTensor();
}

} // namespace mvp
