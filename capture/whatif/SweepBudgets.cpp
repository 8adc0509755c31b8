#include "capture/whatif/SweepBudgets.h"

#include "capture/whatif/Downsample.h"
#include "capture/whatif/PlanParts.h"
#include "capture/whatif/ToMe.h"
#include "capture/whatif/TokenDrop.h"
#include "capture/whatif/Transforms.h"
#include "capture/whatif/VisionZip.h"
#include "core/Format.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace mvp {

namespace {
// The paper grid for LLaVA-1.5's 576 tokens (docs/whatif-methods.md §0).
constexpr double kPaperGrid[] = {192, 128, 64};
constexpr double kPaperTokens = 576;
// KV budgets as fractions of the prefill: EffiVLM-Bench's default 0.4, then
// halving (mvprof's choice of grid).
constexpr double kKvGrid[] = {0.4, 0.2, 0.1};

// FastV's and DART's cut: the paper's layer 2, or after the first of two layers.
int decoderCut(const ModelShape& m) {
    return std::min(2, std::max(1, m.layers - 1));
}

using Mapping = Result<BudgetRequest> (*)(Method, double, const ModelShape&);

BudgetRequest asking(Method method, double value, std::string parameter) {
    BudgetRequest b;
    b.request.methods[method] = value;
    b.parameter = std::move(parameter);
    return b;
}

} // namespace

namespace planning {

Result<BudgetRequest> budgetKvFraction(Method method, double budget, const ModelShape& m) {
    if (!(budget > 0 && budget < 1))
        return makeError(ErrorCode::BadInput,
                         "a KV budget is a fraction of the prefill in (0, 1), not " +
                             fmt("%g", budget));
    KvMethod kv;
    kv.kind = method == Method::StreamingLlm ? KvMethodKind::StreamingLLM
              : method == Method::H2O        ? KvMethodKind::H2O
                                             : KvMethodKind::SnapKV;
    kv.budget = budget;
    if (auto ok = checkKvMethod(kv, m.prefill, m.headDim, m.floatBytes); !ok) return ok.error();
    auto b = asking(method, 1, "fraction " + fmt("%.3g", budget));
    b.request.options.kvBudget = budget;
    return b;
}

Result<BudgetRequest> budgetDownsample(Method method, double budget, const ModelShape& m) {
    const int grid = int(std::lround(std::sqrt(double(m.visual))));
    auto g = downsampleGrid(grid, int(std::lround(budget)));
    if (!g) return g.error();
    return asking(method, *g * *g, std::to_string(*g) + " × " + std::to_string(*g) + " grid");
}

Result<BudgetRequest> budgetToMe(Method method, double budget, const ModelShape& m) {
    const int64_t tokens = std::llround(budget);
    auto schedule = tomeScheduleForBudget(m.visual, m.visionBlocks, tokens);
    if (!schedule) return schedule.error();
    auto b = asking(method, double(tokens), "r " + std::to_string(schedule->front()) + " per block");
    b.request.options.tomeTokensSent = true;
    return b;
}

Result<BudgetRequest> budgetVisionZip(Method method, double budget, const ModelShape& m) {
    const auto tokens = int64_t(std::llround(budget));
    auto split = visionZipSplit(m.visual, tokens);
    if (!split) return split.error();
    return asking(method, double(tokens), std::to_string(split->dominant) + " dom + " +
                                              std::to_string(split->contextual) + " ctx");
}

Result<BudgetRequest> budgetPruning(Method method, double budget, const ModelShape& m) {
    auto keep = keepFractionForBudget(m.visual, budget);
    if (!keep) return keep.error();
    return asking(method, *keep, "keep " + fmt("%.4g", *keep));
}

// DART's own count: the image tokens kept after its cut.
Result<BudgetRequest> budgetDart(Method method, double budget, const ModelShape& m) {
    const int k = decoderCut(m);
    auto plan = planDart(m.layers, m.visual, k, std::llround(budget));
    if (!plan) return plan.error();
    auto b = asking(method, double(std::llround(budget)),
                    "layer " + std::to_string(k) + ", " + std::to_string(plan->perPivot) +
                        " per pivot");
    b.request.options.decoderLayer = k;
    return b;
}

Result<BudgetRequest> budgetFastV(Method method, double budget, const ModelShape& m) {
    const int k = decoderCut(m);
    auto ratio = fastVRatioForBudget(m.layers, m.visual, k, budget);
    if (!ratio) return ratio.error();
    auto b = asking(method, *ratio, "K " + std::to_string(k) + ", R " + fmt("%.4g", *ratio));
    b.request.options.decoderLayer = k;
    return b;
}

Result<BudgetRequest> budgetPyramidDrop(Method method, double budget, const ModelShape& m) {
    auto lambda = pyramidDropLambdaForBudget(m.layers, m.visual, budget);
    if (!lambda) return lambda.error();
    return asking(method, *lambda, "λ " + fmt("%.4g", *lambda));
}

} // namespace planning

ModelShape modelShapeOf(const RunData& base) {
    ModelShape m;
    const auto cfg = nlohmann::json::parse(base.run.configJson, nullptr, false);
    if (cfg.is_object() && cfg.contains("vision") && cfg["vision"].is_object())
        m.visionBlocks = cfg["vision"].value("layers", 0);
    if (cfg.is_object() && cfg.contains("llm") && cfg["llm"].is_object()) {
        m.layers = cfg["llm"].value("layers", 0);
        m.headDim = cfg["llm"].value("dim", 0) / std::max(1, cfg["llm"].value("heads", 1));
    }
    m.prefill = std::count_if(base.tokens.begin(), base.tokens.end(),
                              [](const TokenRow& t) { return t.phase == Phase::Prefill; });
    m.floatBytes = base.run.dtype == "float32" ? 4 : 2;
    m.visual = std::count_if(base.tokens.begin(), base.tokens.end(), [](const TokenRow& t) {
        return t.phase == Phase::Prefill && t.modality == Modality::Visual;
    });
    return m;
}

std::vector<double> defaultBudgets(Budget kind, const ModelShape& shape) {
    if (kind == Budget::KvFraction) return {std::begin(kKvGrid), std::end(kKvGrid)};
    std::vector<double> budgets;
    for (const double b : kPaperGrid)
        budgets.push_back(std::round(b * double(shape.visual) / kPaperTokens));
    return budgets;
}

Result<BudgetRequest> requestForBudget(Method method, double budget, const ModelShape& shape) {
    const auto mapping = planning::budgetMappingOf(method);
    if (!mapping)
        return makeError(ErrorCode::BadInput,
                         std::string(methodSpec(method).key) + " is not swept by a budget");
    return mapping(method, budget, shape);
}

} // namespace mvp
