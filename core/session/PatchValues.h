#pragma once
// A run's per-patch figures (docs/format.md "patch_values"). From v11 one
// matrix of float64 per (run, metric): a row per layer, a column per patch,
// NaN where a patch has no value. v9 and v10 stored one array per (run,
// metric, layer), deflated from v10; up to v8 a row per patch. One row per
// patch took 87 of the 138 bytes a ref:small capture stored per recorded op;
// an array of 2–3 KB per layer still took a 4 KB page of its own.

#include "core/Result.h"
#include "core/session/Records.h"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

namespace sql {
class Db;
class Stmt;
} // namespace sql

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

// A metric's arrays by layer (each indexed by patch, NaN for none).
using PatchLayers = std::map<int, std::vector<double>>;

// The most values one matrix holds (layers × patches, gaps included): 128 MiB
// of float64, far past any model's layers times its patches.
inline constexpr int64_t kMaxPatchMatrixValues = int64_t(1) << 24;

// A metric's matrix as stored (v11): `layers` rows from `firstLayer`, each
// `patches` values long; `data` in `encoding` (kPatchValuesPlain or
// kPatchValuesDeflated, whichever is smaller).
struct PatchMatrixBlob {
    int firstLayer = 0;
    int layers = 0;
    int64_t patches = 0;
    PatchValuesBlob blob;
};

// The layers as one matrix; an Error when it would hold more than
// kMaxPatchMatrixValues (a layer numbered far from the others) or a layer
// is outside what a session holds (-1 … 4095).
Result<PatchMatrixBlob> encodePatchMatrix(const PatchLayers& layers);
// The matrix's layers that hold a value; nullopt for a shape outside the
// limits above, an unknown encoding, a stream that does not inflate, or
// data that is not layers × patches values.
std::optional<PatchLayers> decodePatchMatrix(std::string_view data, int64_t encoding,
                                             int64_t firstLayer, int64_t layers, int64_t patches);

// The statements the two functions below take.
inline constexpr const char* kSelectPatchMatrix =
    "SELECT first_layer, layers, patches, encoding, data FROM patch_values WHERE run=? AND "
    "metric=?";
inline constexpr const char* kInsertPatchMatrix =
    "INSERT OR REPLACE INTO patch_values(run, metric, first_layer, layers, patches, encoding, "
    "data) VALUES (?,?,?,?,?,?,?)";
// The run's stored layers of `metric` (none when it has none); a damaged
// matrix is an Error naming it.
Result<PatchLayers> readPatchMatrix(sql::Stmt& select, int64_t run, const std::string& metric);
// Stores `layers` (at least one) as the run's matrix of `metric`, replacing it.
Status writePatchMatrix(sql::Stmt& insert, int64_t run, const std::string& metric,
                        const PatchLayers& layers);

// v10 → v11: each (run, metric)'s arrays (in `patch_arrays_v10`) become one matrix.
Status migratePatchArrays(sql::Db& db);

} // namespace mvp
