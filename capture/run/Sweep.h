#pragma once
// A sweep: each method at each budget, one what-if apiece against the same
// baseline (interleaved A/B repetitions as for any what-if), and one table of
// them. Budgets follow the papers' conventions (capture/whatif/SweepBudgets.h);
// visual-token and KV methods are swept separately, since their budgets count
// different things. A budget a method cannot reach on this model is a row
// saying why, not a failure.

#include "core/Result.h"
#include "core/analysis/RunData.h"
#include "core/compare/EvalComparison.h"
#include "core/compare/Sweep.h"
#include "core/whatif/Request.h"

#include <functional>
#include <vector>

namespace mvp {

// Runs one what-if and returns its recorded run (capture/run/WhatIf.h).
using SweepRun = std::function<Result<RunData>(const WhatIfRequest&)>;
// Before each point: its index and the number of points.
using SweepProgress = std::function<void(size_t point, size_t points)>;

// The methods a sweep takes (a catalogue row with a Budget), all of one
// kind: an error says which cannot be swept or mixed.
Status checkSweepMethods(const std::vector<Method>& methods);

// Every method at every budget (none given: the default grid); the first
// what-if that fails ends the sweep with its error (the points before it are
// stored in the session).
Result<SweepTable> runSweep(const RunData& base, const std::vector<Method>& methods,
                            std::vector<double> budgets, const SweepRun& run,
                            const SweepProgress& progress = {});

// The same over an eval set (capture/run/EvalWhatIf.h): each point an eval
// what-if, compared with its eval baseline on the same items.
using EvalSweepRun = std::function<Result<EvalComparison>(const WhatIfRequest&)>;
Result<SweepTable> runEvalSweep(const RunData& base, const std::vector<Method>& methods,
                                std::vector<double> budgets, const EvalSweepRun& run,
                                const SweepProgress& progress = {});

} // namespace mvp
