#pragma once
// W8 on libtorch's own quantized engine (the kernels quantize_dynamic runs):
// weights per output channel as symmetric int8, packed once, and
// `quantized::linear_dynamic` per call (activations quantised on the fly).
// Internal to mvp_capture (torch).

#include <optional>
#include <string>
#include <torch/torch.h>

namespace mvp {

// Makes the first engine this libtorch supports of fbgemm, x86, onednn and
// qnnpack the global one and names it; nullopt when it has none.
std::optional<std::string> selectInt8Engine();

// w [out, in] float → a per-channel qint8 tensor, scale = max|row| / 127.
torch::Tensor quantisePerChannelInt8(const torch::Tensor& w);

// The engine's packed weight (LinearPackedParamsBase) from a qint8 weight and
// an optional float bias.
c10::IValue prepackInt8(const torch::Tensor& qweight, const torch::Tensor& bias);

// y = x · Wᵀ + b through quantized::linear_dynamic; x float [..., in].
torch::Tensor linearDynamicInt8(const torch::Tensor& x, const c10::IValue& packed);

} // namespace mvp
