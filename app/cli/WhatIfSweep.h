#pragma once
// `mvprof-cli whatif S --sweep METHODS --budgets B…`: each method at each
// budget, one what-if apiece against the same baseline (interleaved A/B
// repetitions as for any what-if), and one table of them. Visual-token
// budgets follow the papers' conventions (docs/whatif-methods.md §0): the tokens
// sent for pre-LLM pruning and VisionZip, the layer-averaged count for in-LLM FastV and
// PyramidDrop; KV budgets are the fraction of the prefill each KV head keeps
// (EffiVLM-Bench's). The two families are swept separately. A budget a
// method cannot reach on this model is a row saying why, not a failure.

#include "capture/whatif/Plan.h"
#include "core/analysis/Analysis.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace mvp::cli {

struct SweepArgs {
    std::vector<std::string> methods; // prune, visionzip, fastv, pdrop; or streaming, h2o, snapkv
    std::vector<double> budgets;      // empty: 192, 128, 64 of 576 scaled; KV: 0.4, 0.2, 0.1
};
void addSweepOptions(CLI::App& app, SweepArgs& a);

// Runs one what-if and returns its recorded run.
using SweepRun = std::function<Result<RunData>(const WhatIfRequest&)>;
// The sweep's table (text or json) on stdout; the CLI's exit status. With
// `jsonl`, a progress line before each point instead, then {"event":
// "sweep", "table": the json table} and {"event": "done", "run": the last run}.
int runSweep(const RunData& base, const SweepArgs& sweep, const SweepRun& run,
             const std::string& format, bool jsonl = false);

} // namespace mvp::cli
