#include "core/whatif/Request.h"

#include "core/Format.h"

#include <cmath>

namespace mvp {

double WhatIfRequest::value(Method m) const {
    const auto it = methods.find(m);
    return it == methods.end() ? 0 : it->second;
}

std::optional<Method> WhatIfRequest::inFamily(Family family) const {
    for (const auto& [m, value] : methods)
        if (methodSpec(m).family == family) return m;
    return std::nullopt;
}

namespace {
const char* familyJob(Family f) {
    switch (f) {
    case Family::DecoderDrop:
        return "drop visual tokens inside the decoder";
    case Family::EncoderTokens:
        return "choose the visual tokens the encoder sends";
    case Family::Quant:
        return "quantise the weights";
    case Family::KvCache:
        return "manage the KV cache";
    case Family::None:
        break;
    }
    return "";
}
} // namespace

Status checkRequest(const WhatIfRequest& r) {
    auto bad = [](const std::string& why) { return makeError(ErrorCode::BadInput, why); };
    std::map<Family, const MethodSpec*> seen;
    for (const auto& [m, value] : r.methods) {
        const MethodSpec& s = methodSpec(m);
        const bool counted = s.kind == ValueKind::Count;
        if ((s.kind == ValueKind::Fraction || counted) && !s.range.contains(value))
            return bad(std::string(s.option) + ": must be " +
                       (counted ? "a whole number, " : "a number in ") + s.range.text() +
                       ", not " + fmt("%g", value));
        if (counted && value != std::floor(value))
            return bad(std::string(s.option) + ": must be a whole number, not " +
                       fmt("%g", value));
        if (s.family == Family::None) continue;
        if (const auto it = seen.find(s.family); it != seen.end())
            return bad(methodFlag(it->second->method) + " and " + methodFlag(s.method) + " both " +
                       familyJob(s.family) + ": choose one");
        seen[s.family] = &s;
    }
    return Ok{};
}

namespace {
std::string number(double v) {
    return fmt("%g", v);
}
bool hasAny(const WhatIfRequest& r, std::initializer_list<Method> methods) {
    for (Method m : methods)
        if (r.has(m)) return true;
    return false;
}
} // namespace

std::vector<std::string> requestArguments(const WhatIfRequest& r) {
    std::vector<std::string> a;
    for (const auto& [m, value] : r.methods) {
        const MethodSpec& s = methodSpec(m);
        a.emplace_back(s.option);
        if (s.kind == ValueKind::Word) a.emplace_back(s.word);
        if (s.kind == ValueKind::Fraction || s.kind == ValueKind::Count)
            a.push_back(number(value));
    }
    const MethodOptions& o = r.options;
    const MethodOptions defaults;
    auto add = [&](bool when, const char* option, const std::string& value) {
        if (!when) return;
        a.emplace_back(option);
        a.push_back(value);
    };
    const bool prunes = r.has(Method::PruneVisual);
    add(prunes && o.saliency != defaults.saliency, "--saliency", toString(o.saliency));
    add(prunes && o.saliencyLayer, "--saliency-layer", number(o.saliencyLayer.value_or(0)));
    add(hasAny(r, {Method::FastV, Method::Dart}) && o.decoderLayer, "--fastv-layer",
        number(o.decoderLayer.value_or(0)));
    add(hasAny(r, {Method::W4, Method::W8}) && o.quantGroup != defaults.quantGroup, "--group",
        number(o.quantGroup));
    add(r.has(Method::KvInt4) && o.kvThreshold != defaults.kvThreshold, "--kv-threshold",
        number(o.kvThreshold));
    add(r.has(Method::FreezeCold) && o.freezeWindow != defaults.freezeWindow, "--freeze-window",
        number(o.freezeWindow));
    add(r.has(Method::FreezeCold) && o.freezeMin != defaults.freezeMin, "--freeze-min",
        number(o.freezeMin));
    // A budgeted KV method says its budget even at the default: the run's label shows it.
    add(hasAny(r, {Method::StreamingLlm, Method::H2O, Method::SnapKv}), "--kv-budget",
        number(o.kvBudget));
    add(r.has(Method::Kivi) && o.kiviBits != defaults.kiviBits, "--kivi-bits", number(o.kiviBits));
    add(r.has(Method::Kivi) && o.kiviGroup != defaults.kiviGroup, "--kivi-group",
        number(o.kiviGroup));
    return a;
}

} // namespace mvp
