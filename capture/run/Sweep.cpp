#include "capture/run/Sweep.h"

#include "capture/whatif/SweepBudgets.h"
#include "core/Format.h"

#include <algorithm>

namespace mvp {

namespace {
bool sweptByKvFraction(Method m) {
    return methodSpec(m).budget == Budget::KvFraction;
}
} // namespace

Status checkSweepMethods(const std::vector<Method>& methods) {
    if (methods.empty()) return makeError(ErrorCode::BadInput, "a sweep needs methods");
    for (Method m : methods)
        if (methodSpec(m).budget == Budget::None)
            return makeError(ErrorCode::BadInput, std::string(methodSpec(m).key) +
                                                      " is not swept by a budget");
    const bool kv = std::any_of(methods.begin(), methods.end(), sweptByKvFraction);
    if (kv && !std::all_of(methods.begin(), methods.end(), sweptByKvFraction))
        return makeError(ErrorCode::BadInput,
                         "sweep the visual-token methods and the KV methods separately: their "
                         "budgets count different things (image tokens, a fraction of the KV "
                         "cache)");
    return Ok{};
}

namespace {
// Runs one point's request and fills the point.
using PointRun = std::function<Status(const WhatIfRequest&, SweepPoint&)>;

Result<SweepTable> sweepPoints(const RunData& base, const std::vector<Method>& methods,
                               std::vector<double> budgets, const PointRun& run,
                               const SweepProgress& progress) {
    if (auto ok = checkSweepMethods(methods); !ok) return ok.error();
    const ModelShape shape = modelShapeOf(base);
    SweepTable table;
    table.baselineRun = base.run.id;
    table.visualTokens = shape.visual;
    table.decoderLayers = shape.layers;
    table.kv = sweptByKvFraction(methods.front());
    if (budgets.empty())
        budgets = defaultBudgets(methodSpec(methods.front()).budget, shape);
    const size_t total = methods.size() * budgets.size();
    for (Method method : methods)
        for (const double budget : budgets) {
            if (progress) progress(table.points.size(), total);
            SweepPoint p;
            p.method = method;
            p.budget = budget;
            auto request = requestForBudget(method, budget, shape);
            if (!request) {
                p.error = request.error().message;
                table.points.push_back(std::move(p));
                continue;
            }
            p.parameter = request->parameter;
            if (auto s = run(request->request, p); !s)
                return makeError(s.error().code, std::string(methodSpec(method).key) + " at " +
                                                     fmt("%g", budget) + ": " +
                                                     s.error().message +
                                                     " (the points before it are stored)");
            table.points.push_back(std::move(p));
        }
    return table;
}
} // namespace

Result<SweepTable> runSweep(const RunData& base, const std::vector<Method>& methods,
                            std::vector<double> budgets, const SweepRun& run,
                            const SweepProgress& progress) {
    const PointRun point = [&](const WhatIfRequest& r, SweepPoint& p) -> Status {
        auto w = run(r);
        if (!w) return w.error();
        fillFromRun(p, base, *w);
        p.comparison = compareRuns(base, *w);
        return Ok{};
    };
    return sweepPoints(base, methods, std::move(budgets), point, progress);
}

Result<SweepTable> runEvalSweep(const RunData& base, const std::vector<Method>& methods,
                                std::vector<double> budgets, const EvalSweepRun& run,
                                const SweepProgress& progress) {
    const PointRun point = [&](const WhatIfRequest& r, SweepPoint& p) -> Status {
        auto c = run(r);
        if (!c) return c.error();
        p.eval = std::move(c.value());
        return Ok{};
    };
    auto table = sweepPoints(base, methods, std::move(budgets), point, progress);
    if (table) table->eval = true;
    return table;
}

} // namespace mvp
