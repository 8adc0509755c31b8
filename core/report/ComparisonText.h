#pragma once
// A comparison of two runs (core/compare/Comparison.h) as the CLI prints it:
// text for a terminal, JSON for tools (docs/report.md).

#include "core/compare/Comparison.h"

#include <string>

namespace mvp {

std::string formatComparisonText(const Comparison& c);
std::string formatComparisonJson(const Comparison& c);

} // namespace mvp
