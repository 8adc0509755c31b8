#pragma once
// A sweep's table: each method at each budget against one baseline, run or
// refused (capture/run/Sweep.h runs it, core/report/SweepText.h prints it).

#include "core/analysis/RunData.h"
#include "core/compare/Comparison.h"
#include "core/compare/EvalComparison.h"
#include "core/whatif/Methods.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct SweepPoint {
    Method method = Method::PruneVisual;
    double budget = 0;
    std::string parameter;  // the method's setting that spends the budget ("K 2, R 0.6667")
    std::string error;      // why the point did not run (a budget the model cannot reach)
    std::optional<Comparison> comparison;
    std::optional<EvalComparison> eval; // a sweep over an eval set: in place of `comparison`
    // Layer-averaged image tokens, DART's kept tokens, or KV positions per
    // head, as the run held them (measured).
    std::optional<double> tokensHeld;
    std::optional<double> kvBytesRatio; // KV methods: the what-if's KV bytes ÷ the baseline's
};

struct SweepTable {
    int64_t baselineRun = 0;
    int64_t visualTokens = 0; // the baseline's image tokens
    int decoderLayers = 0;
    bool kv = false;   // budgets are KV fractions (else image tokens)
    bool eval = false; // each point ran over an eval set (SweepPoint::eval)
    std::vector<SweepPoint> points;
};

// What the swept run `whatIf` held and stored, filled into its point.
void fillFromRun(SweepPoint& point, const RunData& base, const RunData& whatIf);

} // namespace mvp
