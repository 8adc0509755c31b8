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

const ShapeTrial* Int8EngineChoice::trialOf(int64_t out, int64_t in) const {
    for (const auto& t : shapes)
        if (t.out == out && t.in == in) return &t;
    return nullptr;
}

namespace {
constexpr int64_t kTrialRows = 128; // prefill rows timed; the time is scaled to all of them

struct EngineTimes {
    std::vector<double> prefill, one; // per shape, ns (prefill scaled to its rows)
    double prefillTotal = 0, oneTotal = 0;
};

EngineTimes timeEngine(at::QEngine engine, const std::vector<torch::Tensor>& weights,
                       const std::vector<int>& counts, const torch::Tensor& rowsIn, double scale) {
    EngineTimes t;
    for (size_t i = 0; i < weights.size(); ++i) {
        const auto packed = prepackInt8(weights[i], torch::Tensor(), engine);
        const auto x = rowsIn.narrow(1, 0, weights[i].size(1)).contiguous();
        const auto one = x.narrow(0, 0, 1).contiguous();
        t.prefill.push_back(scale * medianNs(2, [&] { (void)linearDynamicInt8(x, packed); }));
        t.one.push_back(medianNs(5, [&] { (void)linearDynamicInt8(one, packed); }));
        t.prefillTotal += counts[i] * t.prefill.back();
        t.oneTotal += counts[i] * t.one.back();
    }
    return t;
}
} // namespace

std::optional<Int8EngineChoice>
chooseInt8Engines(const std::vector<std::pair<std::pair<int64_t, int64_t>, int>>& shapes,
                  const Int8Workload& w) {
    if (shapes.empty()) return std::nullopt;
    c10::InferenceMode inference;
    at::RecordFunctionGuard unrecorded(false); // the trial is not the model's work
    int64_t widest = 0;
    for (const auto& [shape, count] : shapes)
        widest = std::max(widest, shape.second);
    const int64_t rows = std::clamp<int64_t>(w.prefillRows, 1, kTrialRows);
    const double scale = double(std::max<int64_t>(1, w.prefillRows)) / double(rows);
    const auto input = torch::randn({rows, widest});
    std::vector<torch::Tensor> dense, weights;
    std::vector<int> counts;
    Int8EngineChoice c;
    for (const auto& [shape, count] : shapes) {
        dense.push_back(torch::randn({shape.first, shape.second}) * 0.02);
        weights.push_back(quantisePerChannelInt8(dense.back()));
        counts.push_back(count);
        ShapeTrial t;
        t.out = shape.first;
        t.in = shape.second;
        const auto x = input.narrow(1, 0, t.in).contiguous();
        const auto one = x.narrow(0, 0, 1).contiguous();
        t.fp32Prefill =
            scale * medianNs(2, [&] { (void)torch::nn::functional::linear(x, dense.back()); });
        t.fp32One = medianNs(5, [&] { (void)torch::nn::functional::linear(one, dense.back()); });
        c.shapes.push_back(t);
    }
    std::optional<EngineTimes> large, small;
    std::string trials;
    for (const at::QEngine engine : at::globalContext().supportedQEngines()) {
        if (engine == at::QEngine::NoQEngine) continue;
        EngineTimes t = timeEngine(engine, weights, counts, input, scale);
        trials += std::string(trials.empty() ? "" : "; ") + engineName(engine) + " " +
                  std::to_string(int64_t(t.prefillTotal / 1e3)) + " µs per prefill, " +
                  std::to_string(int64_t(t.oneTotal / 1e3)) + " µs per decode step";
        if (!large || t.prefillTotal < large->prefillTotal) c.large = engine, large = t;
        if (!small || t.oneTotal < small->oneTotal) c.small = engine, small = t;
    }
    if (!large) return std::nullopt;
    double fp32Prefill = 0, fp32One = 0;
    for (size_t i = 0; i < c.shapes.size(); ++i) {
        c.shapes[i].int8Prefill = large->prefill[i];
        c.shapes[i].int8One = small->one[i];
        fp32Prefill += counts[i] * c.shapes[i].fp32Prefill;
        fp32One += counts[i] * c.shapes[i].fp32One;
    }
    trials += "; float32 " + std::to_string(int64_t(fp32Prefill / 1e3)) + " and " +
              std::to_string(int64_t(fp32One / 1e3)) + " µs";
    c.note = std::string(c.split() ? "prefill calls on " : "every call on ") +
             engineName(c.large) +
             (c.split() ? std::string(", calls of ≤ ") + std::to_string(kSmallCallRows) +
                              " rows on " + engineName(c.small) +
                              " (each weight packed for both, its bytes counted twice)"
                        : std::string()) +
             ", by a trial of the model's " + std::to_string(c.shapes.size()) +
             " layer shapes (" + trials + ")";
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
