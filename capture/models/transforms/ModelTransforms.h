#pragma once
// The what-if transforms that rewrite the model's weights and routing in
// place. Internal to mvp_capture (torch).

#include "capture/models/VlmLayers.h"
#include "capture/models/transforms/Int8Engine.h"

#include <functional>

namespace mvp {

struct QuantSummary {
    int layers = 0, calibratedLayers = 0;
    int64_t fp32Bytes = 0, quantBytes = 0; // of the quantised layers' weights, as held
    int64_t formatBytes = 0;       // the same in one copy of the format (W8 may hold two packs)
    double mseRtn = 0, mseAwq = 0; // summed over calibrated layers
    double meanAlpha = 0;          // over calibrated layers
    std::vector<QuantisedModule> modules; // by owning probe module
    std::string
        engine; // libtorch's quantized engine that runs W8 ("onednn", …); empty: dequantised
    std::string engineNote; // how it was chosen
    // W4: the layers on libtorch's int4 kernel (Int4Kernel.h), its name, and
    // why the others (or all, where libtorch has none) stay dequantised.
    int int4Layers = 0;
    std::string int4Kernel, int4Why;
    // W8 off the CPU: the layers on libtorch's int8 matmul (Int8Kernel.h), its
    // name, and why the others (or all) stay dequantised.
    int int8MatmulLayers = 0;
    std::string int8Matmul, int8MatmulWhy;
};

// Quantises every decoder linear (attention, dense FFN, experts; not the
// router, embedding or LM head). `calibrate` runs the model on the baseline's
// inputs while the layers record their inputs. W8 given the run's `int8`
// workload runs on libtorch's quantized engine where it has one (per-channel
// int8, AWQ scaling folded in before quantisation; the engine by a trial on
// that workload), and off the CPU on libtorch's int8 matmul where it has one
// (per-channel int8 codes, AWQ scaling folded in); W4 on libtorch's int4
// matmul where it has one and the layer's shape suits it; else the
// group-wise codes, dequantised per call.
QuantSummary quantiseDecoder(VlmModel::Impl& m, int bits, int group, int gridPoints,
                             const std::function<void()>& calibrate,
                             const std::optional<Int8Workload>& int8 = std::nullopt);

// Freezes experts (decoder layer → experts): the router skips them and their
// weights are released. Returns the weight bytes released.
int64_t freezeExperts(VlmModel::Impl& m, const std::map<int, std::vector<int>>& frozen);

struct ExpertPruningSummary {
    std::map<int, std::vector<int>> kept; // MoE layer → experts kept, ascending
    std::map<int, double> relativeError; // ‖y_r − y‖ / ‖y‖ on the calibration inputs, per layer
    int64_t releasedBytes = 0;
};

// Static expert pruning (Expert_Sparsity's layer-wise pruning): each MoE
// layer keeps the `keep` experts whose output on the inputs `calibrate`
// makes it see (the baseline's, teacher-forced) is closest to the full
// layer's, trying every subset; the others are frozen and released.
ExpertPruningSummary pruneExperts(VlmModel::Impl& m, int keep,
                                  const std::function<void()>& calibrate);

struct ChannelSummary {
    int64_t removed = 0, kept = 0; // hidden channels over all vision MLPs
    // Smallest, over the blocks, of (least sensitive kept − most sensitive
    // removed) within the block: ≥ 0 when each block removed its least sensitive.
    double sensitivityMargin = 0;
};

// Removes the least sensitive `fraction` of each vision MLP's hidden channels;
// sensitivity of channel c = Σ |W · ∂L/∂W| over fc1's row c (and bias) and
// fc2's column c, L = `logLikelihood()` (a scalar with autograd history).
ChannelSummary pruneVisionChannels(VlmModel::Impl& m, double fraction,
                                   const std::function<torch::Tensor()>& logLikelihood);

} // namespace mvp
