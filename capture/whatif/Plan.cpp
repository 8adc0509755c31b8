#include "capture/whatif/Plan.h"

#include "capture/whatif/PlanParts.h"
#include "core/image/Image.h"
#include "core/session/SessionReader.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace mvp {

namespace planning {

std::string runName(const RunInfo& r) {
    return "run " + std::to_string(r.id);
}

std::string familyFlag(const WhatIfRequest& r, Family family) {
    const auto m = r.inFamily(family);
    return m ? methodFlag(*m) : std::string();
}

} // namespace planning

namespace {
using planning::runName;

bool isUserModel(const RunInfo& run) {
    return run.model.rfind("file:", 0) == 0;
}

// The same pixels as the baseline: the original file if it is still there
// and unchanged in size, else the copy stored in the session.
Result<CaptureOptions> withImage(SessionReader& reader, const RunInfo& base, CaptureOptions o) {
    auto image = reader.image(base.id);
    if (!image) return image.error();
    if (!*image) return makeError(ErrorCode::BadInput, runName(base) + " has no stored image");
    auto original = loadImage(base.imagePath);
    if (!original || original->width != (*image)->origWidth ||
        original->height != (*image)->origHeight)
        o.imageData = (*image)->png;
    return o;
}
} // namespace

Status checkBaseline(const RunInfo& base, const WhatIfRequest& r) {
    if (base.status != RunStatus::Complete)
        return makeError(ErrorCode::BadInput, runName(base) + " is " + toString(base.status) +
                                                  ": a what-if needs a complete baseline");
    if (base.model.rfind("python:", 0) == 0)
        return makeError(ErrorCode::BadInput,
                         runName(base) +
                             " was profiled from Python (mvprof.profile): its what-ifs run in "
                             "the script, with mvprof.whatif (capture/python/mvprof/README.md)");
    if (isUserModel(base))
        for (const auto& [method, value] : r.methods)
            if (const auto why = planning::userModelRefusal(method))
                return makeError(ErrorCode::BadInput, runName(base) + " is a user model: " + *why);
    if (!base.probes)
        return makeError(ErrorCode::BadInput, runName(base) +
                                                  " was captured with --no-probes: it has no "
                                                  "attention or routing to plan a what-if from");
    return Ok{};
}

Result<CaptureOptions> baselineOptions(SessionReader& reader, const RunInfo& base) {
    CaptureOptions o;
    optionsOfRun(base, o);
    readCaptureSettings(base.configJson, o);
    const auto cfg = nlohmann::json::parse(base.configJson, nullptr, false);
    if (isUserModel(base)) {
        // The same manifest and archive; a user model has no preset to override.
        o.modelFile = base.model.substr(std::string_view("file:").size());
        return withImage(reader, base, std::move(o));
    }
    if (!cfg.is_object())
        return makeError(ErrorCode::NotASession, runName(base) + " has no readable model config");
    o.overrides.seed = cfg.value("seed", uint64_t(0));
    o.overrides.routingSkew = cfg.value("routing_skew", 1.0);
    if (const auto w = cfg.find("weights"); w != cfg.end() && w->is_object()) {
        // The same file, which must not have changed since.
        o.overrides.weights = w->value("path", std::string());
        o.overrides.weightsSha256 = w->value("sha256", std::string());
    }
    auto preset = presetConfig(o.model);
    if (!preset) return preset.error();
    const int layers = cfg.contains("llm") ? cfg["llm"].value("layers", 0) : 0;
    if (layers > 0 && layers < preset->llm.layers) o.overrides.layers = layers;
    const int maxSeq = cfg.contains("llm") ? cfg["llm"].value("max_seq", 0) : 0;
    if (maxSeq > 0 && maxSeq != preset->llm.maxSeq) o.overrides.maxSeq = maxSeq;
    auto attn = reader.attnMapLayers(base.id);
    if (!attn) return attn.error();
    o.attnLayers = *attn;
    return withImage(reader, base, std::move(o));
}

Result<WhatIfPlan> planWhatIf(const WhatIfRequest& r, const RunData& base,
                              const VlmConfig& config) {
    if (auto ok = checkRequest(r); !ok) return ok.error();
    WhatIfPlan plan;
    planning::Parts parts;
    const planning::Context context{r, base, config};
    for (const auto& [method, value] : r.methods)
        if (auto s = planning::plannerOf(method)(context, plan, parts); !s) return s.error();
    for (const auto& s : base.stepOutputs)
        plan.model.baselineTokens.push_back(s.token);
    if ((plan.model.quantBits || plan.model.pruneChannels > 0 || plan.model.keepExperts) &&
        plan.model.baselineTokens.empty())
        return makeError(ErrorCode::BadInput,
                         runName(base.run) +
                             " stored no generated tokens: capture a new baseline to calibrate "
                             "quantisation or channel pruning");
    plan.run.label.clear();
    parts.into(plan.run);
    plan.run.baselineRun = base.run.id;
    return plan;
}

} // namespace mvp
