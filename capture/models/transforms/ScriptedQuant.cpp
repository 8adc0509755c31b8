#include "capture/models/transforms/ScriptedQuant.h"

#include "capture/models/transforms/TensorQuant.h"

#include <regex>

namespace mvp {

namespace {
// A module has a role when its path or one of its prefixes matches the role's pattern.
bool within(std::string prefix, const std::vector<std::regex>& role) {
    for (;;) {
        for (const auto& re : role)
            if (std::regex_search(prefix, re)) return true;
        const auto dot = prefix.rfind('.');
        if (dot == std::string::npos) return false;
        prefix.resize(dot);
    }
}

bool isLinear(const torch::jit::Module& m) {
    const auto name = m.type()->name();
    return name && name->name() == "Linear" && m.hasattr("weight") && m.attr("weight").isTensor() &&
           m.attr("weight").toTensor().dim() == 2;
}
} // namespace

Result<QuantSummary> quantiseScriptedLlm(ScriptedModel& model, const UserModelManifest& manifest,
                                         int bits, int group) {
    std::vector<std::regex> llm, router;
    for (const auto& r : manifest.roles) {
        if (r.role == ModuleRole::Llm) llm.emplace_back(r.pattern);
        if (r.role == ModuleRole::Router) router.emplace_back(r.pattern);
    }
    if (llm.empty())
        return makeError(ErrorCode::BadInput,
                         "weight quantisation of a user model needs the manifest's \"roles\" to "
                         "name its \"llm\" (docs/user-models.md)");
    torch::NoGradGuard noGrad;
    QuantSummary s;
    for (const auto& item : model.module().named_modules()) {
        const torch::jit::Module& m = item.value;
        // Routers stay in float32, as in the built-in model: their top-k decides the experts.
        if (item.name.empty() || !isLinear(m) || !within(item.name, llm) ||
            within(item.name, router))
            continue;
        auto w = m.attr("weight").toTensor();
        const auto codes = quantiseGroups(w.to(torch::kFloat), bits, group);
        const int64_t fp32 = w.numel() * int64_t(w.element_size());
        w.copy_(dequantiseGroups(codes).to(w.scalar_type()));
        s.layers += 1;
        s.fp32Bytes += fp32;
        s.quantBytes += codes.bytes();
        s.modules.push_back(
            {item.name, fp32, codes.bytes(), std::nullopt}); // no kernel: dequantised
    }
    if (s.layers == 0)
        return makeError(ErrorCode::BadInput, manifest.path +
                                                  ": no Linear module inside the \"llm\" role's "
                                                  "modules: nothing to quantise");
    return s;
}

} // namespace mvp
