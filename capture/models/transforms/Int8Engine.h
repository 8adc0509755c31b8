#pragma once
// W8 on libtorch's own quantized engine (the kernels quantize_dynamic runs):
// weights per output channel as symmetric int8, packed once, and
// `quantized::linear_dynamic` per call (activations quantised on the fly).
// Internal to mvp_capture (torch).

#include <optional>
#include <string>
#include <torch/torch.h>
#include <utility>
#include <vector>

namespace mvp {

// The rows a quantised layer sees in one run: the prefill's once, then one
// per decode step.
struct Int8Workload {
    int64_t prefillRows = 1;
    int decodeSteps = 0;
};

// Calls of at most this many rows are "small" (decode steps, GEMV-like).
inline constexpr int64_t kSmallCallRows = 8;

// One layer shape's trial: float32 and the chosen engines' int8 time on the
// prefill's rows and on one row (ns, measured; medians of a few calls).
struct ShapeTrial {
    int64_t out = 0, in = 0;
    double fp32Prefill = 0, fp32One = 0, int8Prefill = 0, int8One = 0;
};

struct Int8EngineChoice {
    at::QEngine large = at::QEngine::NoQEngine; // for calls of more rows (prefill)
    at::QEngine small = at::QEngine::NoQEngine; // for small calls (decode)
    std::string note;                           // the engines and the trial's times
    std::vector<ShapeTrial> shapes;             // per layer shape, for the latency prediction
    bool split() const { return large != small; }
    const ShapeTrial* trialOf(int64_t out, int64_t in) const;
};

// Engines differ by far with the rows per call (here onednn is ~8× faster
// than float32 on a 600-row prefill but slower on a 1-row GEMV, qnnpack the
// reverse), so they are chosen by a measured trial: every distinct [out, in]
// layer shape (`shapes`, with how many layers have it) runs on each engine
// this libtorch supports, on the prefill's rows (at most 128 of them, the
// time scaled to all) and on one row, in passes over a copy of the weights
// per layer (up to a memory budget) so that, as in the model, a call does
// not find its weights in cache; the engine with the least total
// prefill time becomes the prefill's, the one with the least decode time the
// decode steps'. Where they differ, each weight is packed for both (and its
// bytes counted twice). Nullopt when libtorch has no quantized engine.
std::optional<Int8EngineChoice>
chooseInt8Engines(const std::vector<std::pair<std::pair<int64_t, int64_t>, int>>& shapes,
                  const Int8Workload& w);
const char* engineName(at::QEngine e);

// w [out, in] float → a per-channel qint8 tensor, scale = max|row| / 127.
torch::Tensor quantisePerChannelInt8(const torch::Tensor& w);

// `engine`'s packed weight (LinearPackedParamsBase) from a qint8 weight and
// an optional float bias; the global engine is left as `engine`.
c10::IValue prepackInt8(const torch::Tensor& qweight, const torch::Tensor& bias,
                        at::QEngine engine);

// y = x · Wᵀ + b through quantized::linear_dynamic; x float [..., in].
torch::Tensor linearDynamicInt8(const torch::Tensor& x, const c10::IValue& packed);

} // namespace mvp
