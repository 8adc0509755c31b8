#pragma once
// Helpers of the what-if tests that drive the CLI (test_whatif_transforms,
// test_whatif_measures): baselines, reading runs back, argument lists.

#include "core/analysis/Analysis.h"

#include <QString>
#include <QStringList>
#include <initializer_list>

namespace mvp::test {

QStringList args(std::initializer_list<const char*> list);
// A run metric's value, NaN when the run has none.
double metric(const RunData& run, const char* name);
// The run as the analyses see it; empty when the file or run cannot be read.
RunData loadRun(const QString& path, int64_t run);
// A ref:tiny baseline at `out` with strongly skewed routing (so some experts
// are cold), 4 decode steps; `out`, or empty (with a warning) when it failed.
QString skewedBaseline(const QString& out, const QStringList& extra = {});
// The run's LLM-prefill FLOPs: its prefill ops' estimated FLOPs, summed.
double prefillFlops(const RunData& run);
// Runs `whatif REQUEST --reps 0 SESSION`: empty when it exits 2 saying
// `says` on stderr and the session keeps its runs, else what went wrong.
QString refusalProblem(const QString& session, const QStringList& request, const QString& says);

} // namespace mvp::test
