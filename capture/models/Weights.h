#pragma once
// A torch module's parameters to and from a safetensors file
// (core/interop/Safetensors.h), by their libtorch names. Loading is strict:
// the file must hold every parameter, nothing else, each with its shape; a
// float file dtype (F32, F16, BF16, F64) is converted to the parameter's.
//
// Includes torch: only capture's model and run TUs include it.

#include "core/Result.h"

#include <map>
#include <string>
#include <torch/torch.h>

namespace mvp {

// Copies the file's tensors into `module`'s parameters and returns the file's
// SHA-256. `model` names the model in errors ("ref:tiny"); a non-empty
// `expectedSha256` must match the file's. Errors are BadInput (exit 2) and
// name the tensor, with both shapes where they differ; on any error no
// parameter has changed.
Result<std::string> loadWeights(torch::nn::Module& module, const std::string& path,
                                const std::string& model, const std::string& expectedSha256 = {});

// Writes `module`'s parameters (float32, as they are now) in its own order.
Status saveWeights(const torch::nn::Module& module, const std::string& path,
                   const std::map<std::string, std::string>& metadata = {});

} // namespace mvp
