#include "core/session/PatchValues.h"

#include "core/session/Deflate.h"
#include "core/session/RowChecks.h"
#include "core/session/Sqlite.h"

#include <cmath>
#include <cstring>
#include <map>

namespace mvp {

namespace {
constexpr size_t kMaxPatches = size_t(rowcheck::kMaxGridSide) * rowcheck::kMaxGridSide;
static_assert(sizeof(double) == 8, "float64 blobs");
} // namespace

// The machine's doubles as they are: every platform mvprof builds on is
// little-endian IEEE 754, which is what docs/format.md promises.
std::optional<std::vector<double>> decodePatchValues(std::string_view blob, int64_t encoding) {
    std::string inflated;
    if (encoding == kPatchValuesDeflated) {
        auto plain = inflateBlob(blob, kMaxPatches * sizeof(double), inflated);
        if (!plain) return std::nullopt;
        blob = *plain;
    } else if (encoding != kPatchValuesPlain) {
        return std::nullopt;
    }
    if (blob.size() % sizeof(double) != 0 || blob.size() / sizeof(double) > kMaxPatches)
        return std::nullopt;
    std::vector<double> values(blob.size() / sizeof(double));
    if (!values.empty()) std::memcpy(values.data(), blob.data(), blob.size());
    return values;
}

namespace {
std::string plainPatchValues(const std::vector<double>& values) {
    std::string blob(values.size() * sizeof(double), '\0');
    if (!values.empty()) std::memcpy(blob.data(), values.data(), blob.size());
    return blob;
}
} // namespace

PatchValuesBlob encodePatchValues(const std::vector<double>& values) {
    PatchValuesBlob out{plainPatchValues(values), kPatchValuesPlain};
    if (std::string deflated = deflateBlob(out.data);
        !deflated.empty() && deflated.size() < out.data.size())
        out = {std::move(deflated), kPatchValuesDeflated};
    return out;
}

Status setPatchValues(std::vector<double>& values, const std::vector<const PatchMetricRow*>& rows) {
    for (const PatchMetricRow* r : rows) {
        if (r->patch < 0 || size_t(r->patch) >= kMaxPatches)
            return makeError(ErrorCode::BadInput,
                             "patch metric " + r->metric + ": patch " + std::to_string(r->patch) +
                                 " is outside the largest grid a session holds (1024 × 1024 "
                                 "patches): pass row-major indices of the model's patch grid");
        if (size_t(r->patch) >= values.size()) values.resize(size_t(r->patch) + 1, kNoPatchValue);
        values[size_t(r->patch)] = r->value;
    }
    return Ok{};
}

std::vector<PatchMetricRow> patchRows(int layer, const std::string& metric,
                                      const std::vector<double>& values) {
    std::vector<PatchMetricRow> rows;
    for (size_t p = 0; p < values.size(); ++p)
        if (!std::isnan(values[p])) rows.push_back({layer, metric, int(p), values[p]});
    return rows;
}

Status migratePatchMetrics(sql::Db& db) {
    auto read = db.prepare("SELECT run, metric, layer, patch, value FROM patch_metric");
    // v9's four columns: v10's encoding, added after, reads them as plain.
    auto write = db.prepare("INSERT INTO patch_values(run, metric, layer, data) VALUES (?,?,?,?)");
    if (!read) return read.error();
    if (!write) return write.error();
    // (run, metric, layer) → its rows; a session's patch rows are few enough.
    std::map<std::tuple<int64_t, std::string, int>, std::vector<PatchMetricRow>> groups;
    for (;;) {
        auto has = read->step();
        if (!has) return has.error();
        if (!*has) break;
        groups[{read->int64(0), read->text(1), read->int32(2)}].push_back(
            {read->int32(2), read->text(1), read->int32(3), read->real(4)});
    }
    for (const auto& [key, rows] : groups) {
        std::vector<const PatchMetricRow*> pointers;
        for (const auto& r : rows)
            pointers.push_back(&r);
        std::vector<double> values;
        if (auto s = setPatchValues(values, pointers); !s) return s;
        const std::string blob = plainPatchValues(values);
        write->bind(1, std::get<0>(key));
        write->bind(2, std::get<1>(key));
        write->bind(3, std::get<2>(key));
        write->bindBlob(4, blob.data(), blob.size());
        if (auto s = write->exec(); !s) return s;
    }
    return Ok{};
}

} // namespace mvp
