#pragma once
// W8 on libtorch's own quantized engine (the kernels quantize_dynamic runs):
// weights per output channel as symmetric int8, packed once, and
// `quantized::linear_dynamic` per call (activations quantised on the fly).
// Internal to mvp_capture (torch).

#include <optional>
#include <string>
#include <torch/torch.h>

namespace mvp {

// The rows a quantised layer sees in one run: the prefill's once, then one
// per decode step.
struct Int8Workload {
    int64_t prefillRows = 1;
    int decodeSteps = 0;
};

// Calls of at most this many rows are "small" (decode steps, GEMV-like).
inline constexpr int64_t kSmallCallRows = 8;

struct Int8EngineChoice {
    at::QEngine large = at::QEngine::NoQEngine; // for calls of more rows (prefill)
    at::QEngine small = at::QEngine::NoQEngine; // for small calls (decode)
    std::string note;                           // the engines and the trial's times
    // int8 ÷ float32 time of the trial layer on the prefill's rows and on
    // one row (measured): the latency prediction's kernel ratios.
    double prefillRatio = 1, decodeRatio = 1;
    bool split() const { return large != small; }
};

// Engines differ by far with the rows per call (here onednn is ~8× faster
// than float32 on a 600-row prefill but slower on a 1-row GEMV, qnnpack the
// reverse), so they are chosen by a measured trial: each engine this libtorch
// supports runs an [out, in] layer on the prefill's rows and on one row
// (medians of a few calls); the fastest at each becomes that call size's
// engine. Where they differ, each weight is packed for both (and its bytes
// counted twice). Nullopt when libtorch has no quantized engine.
std::optional<Int8EngineChoice> chooseInt8Engines(int64_t in, int64_t out, const Int8Workload& w);
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
