#include "core/session/PatchValues.h"

#include "core/session/Deflate.h"
#include "core/session/RowChecks.h"
#include "core/session/Sqlite.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace mvp {

namespace {
constexpr size_t kMaxPatches = size_t(rowcheck::kMaxGridSide) * rowcheck::kMaxGridSide;
static_assert(sizeof(double) == 8, "float64 blobs");
} // namespace

namespace {
// The blob's bytes as doubles: the machine's doubles as they are (every
// platform mvprof builds on is little-endian IEEE 754, which is what
// docs/format.md promises); nullopt past `maxValues` or for a part value.
std::optional<std::vector<double>> blobValues(std::string_view blob, int64_t encoding,
                                              size_t maxValues) {
    std::string inflated;
    if (encoding == kPatchValuesDeflated) {
        auto plain = inflateBlob(blob, maxValues * sizeof(double), inflated);
        if (!plain) return std::nullopt;
        blob = *plain;
    } else if (encoding != kPatchValuesPlain) {
        return std::nullopt;
    }
    if (blob.size() % sizeof(double) != 0 || blob.size() / sizeof(double) > maxValues)
        return std::nullopt;
    std::vector<double> values(blob.size() / sizeof(double));
    if (!values.empty()) std::memcpy(values.data(), blob.data(), blob.size());
    return values;
}
} // namespace

std::optional<std::vector<double>> decodePatchValues(std::string_view blob, int64_t encoding) {
    return blobValues(blob, encoding, kMaxPatches);
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
        if (r->layer < -1 || r->layer >= rowcheck::kMaxLayers)
            return makeError(ErrorCode::BadInput,
                             "patch metric " + r->metric + ": layer " + std::to_string(r->layer) +
                                 " is outside the layers a session holds (-1 … " +
                                 std::to_string(rowcheck::kMaxLayers - 1) + ")");
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

namespace {
bool within(int64_t v, int64_t lo, int64_t hi) {
    return v >= lo && v <= hi;
}

// An array's length up to its last value (0 when it has none).
size_t valuedLength(const std::vector<double>& values) {
    size_t n = values.size();
    while (n > 0 && std::isnan(values[n - 1]))
        --n;
    return n;
}
} // namespace

Result<PatchMatrixBlob> encodePatchMatrix(const PatchLayers& layers) {
    // Layers without a value take no row: first and last are those with one.
    std::optional<int> first, last;
    size_t patches = 0;
    for (const auto& [layer, values] : layers) {
        const size_t n = valuedLength(values);
        if (n == 0) continue;
        if (!within(layer, -1, rowcheck::kMaxLayers - 1))
            return makeError(ErrorCode::BadInput, "per-patch figures of layer " +
                                                      std::to_string(layer) +
                                                      ": a session holds layers -1 … " +
                                                      std::to_string(rowcheck::kMaxLayers - 1) +
                                                      "; pass the decoder layer's index");
        if (!first) first = layer;
        last = layer;
        patches = std::max(patches, n);
    }
    PatchMatrixBlob m;
    if (!first) return m; // no values: an empty matrix
    m.firstLayer = *first;
    m.layers = *last - *first + 1;
    m.patches = int64_t(patches);
    if (m.layers > kMaxPatchMatrixValues / m.patches)
        return makeError(ErrorCode::BadInput,
                         "per-patch figures of layers " + std::to_string(*first) + " … " +
                             std::to_string(*last) + " × " + std::to_string(patches) +
                             " patches exceed the " + std::to_string(kMaxPatchMatrixValues) +
                             " values one metric holds per run: store fewer layers, or the "
                             "metric under another name per group of layers");
    std::vector<double> all(size_t(m.layers) * patches, kNoPatchValue);
    for (const auto& [layer, values] : layers)
        std::copy(values.begin(), values.begin() + ptrdiff_t(valuedLength(values)),
                  all.begin() + ptrdiff_t(size_t(layer - *first) * patches));
    m.blob = encodePatchValues(all);
    return m;
}

std::optional<PatchLayers> decodePatchMatrix(std::string_view data, int64_t encoding,
                                             int64_t firstLayer, int64_t layers, int64_t patches) {
    if (!within(firstLayer, -1, rowcheck::kMaxLayers - 1) ||
        !within(layers, 0, rowcheck::kMaxLayers - firstLayer) ||
        !within(patches, 0, int64_t(kMaxPatches)) ||
        (patches > 0 && layers > kMaxPatchMatrixValues / patches))
        return std::nullopt;
    const size_t count = size_t(layers * patches);
    auto all = blobValues(data, encoding, count);
    if (!all || all->size() != count) return std::nullopt;
    PatchLayers out;
    for (int64_t l = 0; l < layers; ++l) {
        std::vector<double> values(all->begin() + ptrdiff_t(l * patches),
                                   all->begin() + ptrdiff_t((l + 1) * patches));
        values.resize(valuedLength(values)); // an array ends at its last value
        if (!values.empty()) out.emplace(int(firstLayer + l), std::move(values));
    }
    return out;
}

Result<PatchLayers> readPatchMatrix(sql::Stmt& select, int64_t run, const std::string& metric) {
    select.bind(1, run), select.bind(2, metric);
    auto has = select.step();
    std::optional<PatchLayers> layers = PatchLayers{};
    if (has && *has)
        layers = decodePatchMatrix(select.blobView(4), select.int64(3), select.int64(0),
                                   select.int64(1), select.int64(2));
    select.reset();
    if (!has) return has.error();
    if (!layers)
        return rowcheck::damaged(run, "patch_values " + metric,
                                 "its data is no matrix of float64 values its layers and patches "
                                 "describe (or its encoding is unknown, or it does not inflate)");
    return std::move(*layers);
}

Status writePatchMatrix(sql::Stmt& insert, int64_t run, const std::string& metric,
                        const PatchLayers& layers) {
    auto m = encodePatchMatrix(layers);
    if (!m) return m.error();
    insert.bind(1, run), insert.bind(2, metric), insert.bind(3, m->firstLayer),
        insert.bind(4, m->layers), insert.bind(5, m->patches), insert.bind(6, m->blob.encoding);
    insert.bindBlob(7, m->blob.data.data(), m->blob.data.size());
    return insert.exec();
}

Status migratePatchArrays(sql::Db& db) {
    auto read = db.prepare(
        "SELECT run, metric, layer, data, encoding FROM patch_arrays_v10 ORDER BY run, metric");
    auto write = db.prepare(kInsertPatchMatrix);
    if (!read) return read.error();
    if (!write) return write.error();
    std::map<std::pair<int64_t, std::string>, PatchLayers> matrices;
    for (;;) {
        auto has = read->step();
        if (!has) return has.error();
        if (!*has) break;
        auto values = decodePatchValues(read->blobView(3), read->int64(4));
        if (!values)
            return makeError(ErrorCode::NotASession,
                             "patch_values " + read->text(1) + " layer " +
                                 std::to_string(read->int64(2)) + " of run " +
                                 std::to_string(read->int64(0)) +
                                 " is damaged: the session cannot be brought up to date");
        matrices[{read->int64(0), read->text(1)}][read->int32(2)] = std::move(*values);
    }
    for (const auto& [key, layers] : matrices)
        if (auto s = writePatchMatrix(*write, key.first, key.second, layers); !s) return s;
    return Ok{};
}

} // namespace mvp
