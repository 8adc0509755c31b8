#pragma once
// A sweep's table (core/compare/Sweep.h) as the CLI prints it: text for a
// terminal, JSON for tools and the GUI's Compare Methods
// (views/SweepModels.h reads it back).

#include "core/compare/Sweep.h"

#include <string>

namespace mvp {

std::string formatSweepText(const SweepTable& table);
std::string formatSweepJson(const SweepTable& table); // one object, indented
// The JSON object as one line (the jsonl progress stream's "table").
std::string sweepJsonLine(const SweepTable& table);

} // namespace mvp
