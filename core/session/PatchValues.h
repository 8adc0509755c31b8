#pragma once
// A run's per-patch figures as stored from session format v9 (deflated from v10)
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

// How an array is stored (patch_values.encoding, v10): 1, the values as
// little-endian float64; 2, those bytes deflated (a zlib stream), which the
// writer chooses when it is smaller (NaN runs and zeros compress well).
inline constexpr int kPatchValuesPlain = 1;
inline constexpr int kPatchValuesDeflated = 2;
struct PatchValuesBlob {
    std::string data;
    int encoding = kPatchValuesPlain;
};

// The blob's values; nullopt when the encoding is unknown, the stream does
// not inflate, or it is no whole number of values or holds more patches
// than the largest grid has.
std::optional<std::vector<double>> decodePatchValues(std::string_view blob,
                                                     int64_t encoding = kPatchValuesPlain);
PatchValuesBlob encodePatchValues(const std::vector<double>& values);

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
