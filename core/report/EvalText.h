#pragma once
// An eval what-if's comparison (core/compare/EvalComparison.h) as the CLI
// prints it and the report embeds it: text, JSON and Markdown
// (docs/report.md). Every figure says how it was obtained.

#include "core/compare/EvalComparison.h"

#include <string>

namespace mvp {

std::string formatEvalText(const EvalComparison& c, const std::string& set);
std::string formatEvalJson(const EvalComparison& c, const std::string& set);
std::string formatEvalMarkdown(const EvalComparison& c, const std::string& set);
// One eval run on its own (an eval baseline): its set, accuracy and latency.
std::string evalSummaryJson(const EvalSummary& s, const std::string& set);

} // namespace mvp
