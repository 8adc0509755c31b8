#pragma once
// The what-if planner's internals shared by Plan.cpp, MethodPlans.cpp and
// PlanMethods.cpp: the label and description built part by part, what a
// method's planner sees, and the planners themselves. Plain C++.

#include "capture/whatif/Plan.h"
#include "capture/whatif/SweepBudgets.h"

#include <string>
#include <vector>

namespace mvp::planning {

// The plan's label ("prune-visual 0.4 + w8") and description, part by part.
struct Parts {
    std::vector<std::string> names, details;
    void add(std::string name, std::string detail) {
        names.push_back(std::move(name));
        details.push_back(std::move(detail));
    }
    void into(RunTransform& t) const {
        for (size_t i = 0; i < names.size(); ++i) {
            t.label += (i ? " + " : "") + names[i];
            t.transform += (i ? "; " : "") + names[i] + " (" + details[i] + ")";
        }
    }
};

// What a method's planner sees: the whole request (to refuse combinations
// that cannot work), the baseline's rows and its model's config.
struct Context {
    const WhatIfRequest& request;
    const RunData& base;
    const VlmConfig& config;
};
using Planner = Status (*)(const Context& c, WhatIfPlan& plan, Parts& parts);

// "run 3", for messages.
std::string runName(const RunInfo& r);
// The flag of the family's method the request asks for ("--fastv"), or "".
std::string familyFlag(const WhatIfRequest& r, Family family);

// The published methods (PlanMethods.cpp).
Status planTokenDrop(const Context& c, WhatIfPlan& plan, Parts& parts); // FastV, PyramidDrop, DART
Status planVisionZip(const Context& c, WhatIfPlan& plan, Parts& parts);
Status planTome(const Context& c, WhatIfPlan& plan, Parts& parts);
Status planDownsample(const Context& c, WhatIfPlan& plan, Parts& parts);
Status planKvMethod(const Context& c, WhatIfPlan& plan, Parts& parts); // StreamingLLM … KIVI

// A sweep budget spent on a method (SweepBudgets.cpp).
using BudgetMapping = Result<BudgetRequest> (*)(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetPruning(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetFastV(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetPyramidDrop(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetDart(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetVisionZip(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetToMe(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetDownsample(Method m, double budget, const ModelShape& shape);
Result<BudgetRequest> budgetKvFraction(Method m, double budget, const ModelShape& shape);

// Each method's row (MethodPlans.cpp): its planner, its budget mapping
// (nullptr: not swept), and why a TorchScript model cannot run it (nullopt:
// it can).
Planner plannerOf(Method m);
BudgetMapping budgetMappingOf(Method m);
std::optional<std::string> userModelRefusal(Method m);

} // namespace mvp::planning
