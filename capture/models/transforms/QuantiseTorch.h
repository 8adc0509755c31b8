#pragma once
// The torch side of weight quantisation (see Quantise.h). Internal to mvp_capture.

#include "capture/models/VlmLayers.h"

namespace mvp {

struct AwqChoice {
    QuantisedWeight weight;
    double alpha = 0, mseRtn = 0, mseAwq = 0; // MSEs are 0 without calibration rows
};

// The codes the search quantises to: mvp's group-wise format (dequantised
// per call), per-channel symmetric int8 for libtorch's quantized engine
// (qint8), or the same as plain tensors for an int8 matmul (Int8Kernel.h).
enum class QuantFormat { Groups, Int8PerChannel, Int8Symmetric };

// Quantises w [out, in] choosing the AWQ exponent on x [n, in] (undefined or
// empty: no activations, so plain round-to-nearest). Int8PerChannel ignores
// bits and group and leaves the choice in weight.int8; Int8Symmetric in
// weight.int8Matmul.
AwqChoice awqQuantise(const torch::Tensor& w, const torch::Tensor& x, int bits, int group,
                      int gridPoints, QuantFormat format = QuantFormat::Groups);

} // namespace mvp
