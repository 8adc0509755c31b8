#include "capture/whatif/Int8Engine.h"

#include <ATen/core/dispatch/Dispatcher.h>

namespace mvp {

namespace {
// The quantized ops are registered with the dispatcher, not exposed as C++
// functions: call them boxed, as TorchScript does.
c10::OperatorHandle op(const char* name) {
    return c10::Dispatcher::singleton().findSchemaOrThrow(name, "");
}
} // namespace

std::optional<std::string> selectInt8Engine() {
    const auto supported = at::globalContext().supportedQEngines();
    const std::pair<at::QEngine, const char*> preferred[] = {
        {at::QEngine::FBGEMM, "fbgemm"},
        {at::QEngine::X86, "x86"},
        {at::QEngine::ONEDNN, "onednn"},
        {at::QEngine::QNNPACK, "qnnpack"},
    };
    for (const auto& [engine, name] : preferred)
        if (std::find(supported.begin(), supported.end(), engine) != supported.end()) {
            at::globalContext().setQEngine(engine);
            return std::string(name);
        }
    return std::nullopt;
}

torch::Tensor quantisePerChannelInt8(const torch::Tensor& w) {
    auto f = w.to(torch::kFloat).contiguous();
    auto scale = (f.abs().amax(1) / 127.0).clamp_min(1e-8).to(torch::kDouble);
    auto zero = torch::zeros({f.size(0)}, torch::kLong);
    return at::quantize_per_channel(f, scale, zero, 0, at::kQInt8);
}

c10::IValue prepackInt8(const torch::Tensor& qweight, const torch::Tensor& bias) {
    static const c10::OperatorHandle prepack = op("quantized::linear_prepack");
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
