#pragma once
// Diagnoses of a run: each analysis turns its numbers into zero or more
// findings with evidence, a concrete suggestion and the view to look at.

#include "core/analysis/Analysis.h"

#include <vector>

namespace mvp {

// Sorted most severe first, then by id. Every number in a finding's text is
// also in its evidence, labelled measured, estimated or predicted.
std::vector<Finding> findingsFor(const RunData& data, const RunAnalysis& analysis);

} // namespace mvp
