#include "capture/whatif/Int8Engine.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <algorithm>
#include <chrono>

namespace mvp {

namespace {
// The quantized ops are registered with the dispatcher, not exposed as C++
// functions: call them boxed, as TorchScript does.
c10::OperatorHandle op(const char* name) {
    return c10::Dispatcher::singleton().findSchemaOrThrow(name, "");
}
} // namespace

namespace {
// Median wall time of `f` over `n` calls after one warm-up call, in ns.
template <typename F> double medianNs(int n, F&& f) {
    f();
    std::vector<double> t;
    for (int i = 0; i < n; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        t.push_back(double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now() - start)
                               .count()));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
} // namespace

const char* engineName(at::QEngine e) {
    switch (e) {
    case at::QEngine::FBGEMM:
        return "fbgemm";
    case at::QEngine::X86:
        return "x86";
    case at::QEngine::ONEDNN:
        return "onednn";
    case at::QEngine::QNNPACK:
        return "qnnpack";
    default:
        return "none";
    }
}

std::optional<Int8EngineChoice> chooseInt8Engines(int64_t in, int64_t out, const Int8Workload& w) {
    c10::InferenceMode inference;
    at::RecordFunctionGuard unrecorded(false); // the trial is not the model's work
    const auto dense = torch::randn({out, in}) * 0.02;
    const auto weight = quantisePerChannelInt8(dense);
    const auto prefill = torch::randn({std::max<int64_t>(1, w.prefillRows), in});
    const auto one = torch::randn({1, in});
    const double fp32Prefill = medianNs(3, [&] { (void)torch::nn::functional::linear(prefill, dense); });
    const double fp32One = medianNs(7, [&] { (void)torch::nn::functional::linear(one, dense); });
    Int8EngineChoice c;
    double bestLarge = 0, bestSmall = 0;
    std::string trials;
    for (const at::QEngine engine : at::globalContext().supportedQEngines()) {
        if (engine == at::QEngine::NoQEngine) continue;
        const auto packed = prepackInt8(weight, torch::Tensor(), engine);
        const double p = medianNs(3, [&] { (void)linearDynamicInt8(prefill, packed); });
        const double d = medianNs(7, [&] { (void)linearDynamicInt8(one, packed); });
        trials += std::string(trials.empty() ? "" : "; ") + engineName(engine) + " " +
                  std::to_string(int64_t(p / 1e3)) + " µs on the prefill's rows, " +
                  std::to_string(int64_t(d / 1e3)) + " µs on one row";
        if (c.large == at::QEngine::NoQEngine || p < bestLarge) c.large = engine, bestLarge = p;
        if (c.small == at::QEngine::NoQEngine || d < bestSmall) c.small = engine, bestSmall = d;
    }
    if (c.large == at::QEngine::NoQEngine) return std::nullopt;
    c.prefillRatio = fp32Prefill > 0 ? bestLarge / fp32Prefill : 1.0;
    c.decodeRatio = fp32One > 0 ? bestSmall / fp32One : 1.0;
    trials += "; float32 " + std::to_string(int64_t(fp32Prefill / 1e3)) + " and " +
              std::to_string(int64_t(fp32One / 1e3)) + " µs";
    c.note = std::string(c.split() ? "prefill calls on " : "every call on ") +
             engineName(c.large) +
             (c.split() ? std::string(", calls of ≤ ") + std::to_string(kSmallCallRows) +
                              " rows on " + engineName(c.small) +
                              " (each weight packed for both, its bytes counted twice)"
                        : std::string()) +
             ", by a trial on a " + std::to_string(out) + "×" + std::to_string(in) + " layer (" +
             trials + ")";
    return c;
}

torch::Tensor quantisePerChannelInt8(const torch::Tensor& w) {
    auto f = w.to(torch::kFloat).contiguous();
    auto scale = (f.abs().amax(1) / 127.0).clamp_min(1e-8).to(torch::kDouble);
    auto zero = torch::zeros({f.size(0)}, torch::kLong);
    return at::quantize_per_channel(f, scale, zero, 0, at::kQInt8);
}

c10::IValue prepackInt8(const torch::Tensor& qweight, const torch::Tensor& bias,
                        at::QEngine engine) {
    static const c10::OperatorHandle prepack = op("quantized::linear_prepack");
    at::globalContext().setQEngine(engine); // prepack packs for the global engine
    std::vector<c10::IValue> stack{qweight, bias.defined() ? c10::IValue(bias.to(torch::kFloat).contiguous())
                                                    : c10::IValue()};
    prepack.callBoxed(&stack);
    return stack.at(0);
}

torch::Tensor linearDynamicInt8(const torch::Tensor& x, const c10::IValue& packed) {
    static const c10::OperatorHandle linear = op("quantized::linear_dynamic");
    const auto in = x.size(-1);
    auto flat = x.to(torch::kFloat).reshape({-1, in}).contiguous();
    std::vector<c10::IValue> stack{flat, packed, false};
    linear.callBoxed(&stack);
    auto y = stack.at(0).toTensor();
    std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
    shape.back() = y.size(-1);
    return y.reshape(shape).to(x.scalar_type());
}

} // namespace mvp
