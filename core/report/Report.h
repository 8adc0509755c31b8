#pragma once
// The session report: what `mvprof-cli report` prints. Built once from a
// SessionReader through the analysis API, then formatted as text, JSON
// (documented in docs/report.md) or Markdown.

#include "core/Result.h"
#include "core/analysis/Analysis.h"
#include "core/compare/EvalComparison.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

class SessionReader;

struct ReportOptions {
    std::optional<int64_t> run; // only this run; all runs when empty
    AnalysisOptions analysis;
};

struct SessionReport {
    std::string path;
    int schemaVersion = 0;
    int window = 0; // the token window used for per-window statistics (0: whole run)
    std::vector<RunAnalysis> runs;
    // Eval runs (docs/eval.md), by run id: the set and summary of each, and
    // for an eval what-if its comparison with its eval baseline.
    struct Eval {
        EvalSetRow set;
        EvalSummary summary;
        std::optional<EvalComparison> comparison;
    };
    std::map<int64_t, Eval> evals;
    const Eval* evalOf(int64_t run) const {
        const auto it = evals.find(run);
        return it == evals.end() ? nullptr : &it->second;
    }
};

Result<SessionReport> buildReport(SessionReader& reader, const ReportOptions& options = {});
std::string formatText(const SessionReport& report);
std::string formatJson(const SessionReport& report);
std::string formatMarkdown(const SessionReport& report);

// Parses "--window" values: "all" (0) or "tokens:N".
Result<int> parseWindow(const std::string& text);

} // namespace mvp
