#pragma once
// A run's per-patch figures as stored from session format v9
// (docs/format.md "patch_values"): one array of float64 per (run, metric,
// layer), indexed by patch, NaN where a patch has no value. One row per
// layer instead of one per patch: a ref:small capture's 18 432 patch rows
// were 87 of the 138 bytes it stored per recorded op.

#include "core/Result.h"
#include "core/session/Records.h"

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

namespace sql {
class Db;
}

inline constexpr double kNoPatchValue = std::numeric_limits<double>::quiet_NaN();

// The blob's values (little-endian float64); nullopt when it is no whole
// number of them or holds more patches than the largest grid has.
std::optional<std::vector<double>> decodePatchValues(std::string_view blob);
std::string encodePatchValues(const std::vector<double>& values);

// Sets each row's value at its patch (a later row for a patch replaces an
// earlier one), growing `values` with NaN; an Error for a patch outside the
// largest grid a session holds.
Status setPatchValues(std::vector<double>& values, const std::vector<const PatchMetricRow*>& rows);

// The array's patches that have a value, as rows of `layer` and `metric`.
std::vector<PatchMetricRow> patchRows(int layer, const std::string& metric,
                                      const std::vector<double>& values);

// v8 → v9: patch_metric's rows become patch_values arrays.
Status migratePatchMetrics(sql::Db& db);

} // namespace mvp
