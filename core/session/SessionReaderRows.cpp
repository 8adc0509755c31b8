// The reader's per-run row queries beyond the run's tree (tokens, routing,
// image, outputs, metrics, maps): each checked for content (RowChecks.h).
#include "core/session/ActivityStore.h"
#include "core/session/PatchValues.h"
#include "core/session/ReaderImpl.h"
#include "core/session/RoutingStore.h"
#include "core/session/RowChecks.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <type_traits>

namespace mvp {

using reader::checked;

namespace {
// A float32 blob of `count` values, or empty when the blob does not match (a damaged file).
std::vector<float> floats(const std::vector<uint8_t>& bytes, size_t count) {
    std::vector<float> out;
    if (bytes.size() != count * sizeof(float) || count == 0) return out;
    out.resize(count);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}
} // namespace

Result<std::vector<TokenRow>> SessionReader::tokens(int64_t run) {
    return checked(
        d->query<TokenRow>("SELECT position, phase, step, modality, token_id, patch FROM token "
                           "WHERE run=? ORDER BY position",
                           run,
                           [&](const sql::Stmt& s) -> Result<TokenRow> {
                               const std::string where = "token " + std::to_string(s.int64(0));
                               auto phase = reader::phaseAt(s, 1, run, where);
                               if (!phase) return phase.error();
                               auto modality = reader::modalityAt(s, 3, run, where);
                               if (!modality) return modality.error();
                               return TokenRow{s.int32(0), *phase,     s.int32(2),
                                               *modality,  s.int32(4), s.int32(5)};
                           }),
        [&](const auto& rows) { return rowcheck::tokens(run, rows); });
}

Result<std::vector<RoutingRow>> SessionReader::routing(int64_t run) {
    if (d->version >= 10) { // packed into chunks from v10
        auto rows = readRoutingChunks(d->db, run);
        if (!rows) return rows.error();
        if (auto ok = rowcheck::routing(run, *rows); !ok) return ok.error();
        return rows;
    }
    return checked(
        d->query<RoutingRow>(
            "SELECT layer, phase, step, token, modality, rank, expert, weight FROM routing"
            " WHERE run=? ORDER BY layer, token, rank",
            run,
            [&](const sql::Stmt& s) -> Result<RoutingRow> {
                const std::string where = "routing of layer " + std::to_string(s.int64(0)) +
                                          ", token " + std::to_string(s.int64(3));
                auto phase = reader::phaseAt(s, 1, run, where);
                if (!phase) return phase.error();
                auto modality = reader::modalityAt(s, 4, run, where);
                if (!modality) return modality.error();
                return RoutingRow{s.int32(0), *phase,     s.int32(2), s.int32(3),
                                  *modality,  s.int32(5), s.int32(6), s.real(7)};
            }),
        [&](const auto& rows) { return rowcheck::routing(run, rows); });
}

Result<std::optional<ImageRow>> SessionReader::image(int64_t run) {
    auto rows = d->query<ImageRow>(
        "SELECT source_path, width, height, orig_width, orig_height, png FROM image WHERE run=?",
        run, [](const sql::Stmt& s) {
            return ImageRow{s.text(0), s.int32(1), s.int32(2), s.int32(3), s.int32(4), s.blob(5)};
        });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<ImageRow>();
    return std::optional<ImageRow>(std::move(rows->front()));
}

Result<std::optional<PatchGridRow>> SessionReader::patchGrid(int64_t run) {
    auto rows = d->query<PatchGridRow>(
        "SELECT grid_h, grid_w, patch, input_size, first_position FROM patch_grid WHERE run=?", run,
        [](const sql::Stmt& s) {
            return PatchGridRow{s.int32(0), s.int32(1), s.int32(2), s.int32(3), s.int32(4)};
        });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<PatchGridRow>();
    if (auto ok = rowcheck::patchGrid(run, rows->front()); !ok) return ok.error();
    return std::optional<PatchGridRow>(rows->front());
}

Result<std::optional<DeviceRow>> SessionReader::device(int64_t run) {
    auto rows = d->query<DeviceRow>("SELECT name, peak_flops, peak_bytes_per_s, source, "
                                    "memory_total_bytes, memory_available_bytes"
                                    " FROM device WHERE run=?",
                                    run, [](const sql::Stmt& s) {
                                        return DeviceRow{s.text(0), s.real(1),  s.real(2),
                                                         s.text(3), s.int64(4), s.int64(5)};
                                    });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<DeviceRow>();
    return std::optional<DeviceRow>(rows->front());
}

Result<std::vector<StepOutputRow>> SessionReader::stepOutputs(int64_t run) {
    return checked(d->query<StepOutputRow>(
                       "SELECT step, token, logits FROM step_output WHERE run=? ORDER BY step", run,
                       [](const sql::Stmt& s) {
                           const auto bytes = s.blob(2);
                           return StepOutputRow{s.int32(0), s.int32(1),
                                                floats(bytes, bytes.size() / sizeof(float))};
                       }),
                   [&](const auto& rows) { return rowcheck::stepOutputs(run, rows); });
}

Result<std::vector<RunMetricRow>> SessionReader::runMetrics(int64_t run) {
    if (d->version < 2) return std::vector<RunMetricRow>(); // v1 had no run metrics
    return checked(
        d->query<RunMetricRow>(
            "SELECT name, value, unit, kind, note FROM run_metric WHERE run=? ORDER BY name", run,
            [](const sql::Stmt& s) {
                return RunMetricRow{s.text(0), s.real(1), s.text(2), s.text(3), s.text(4)};
            }),
        [&](const auto& r) { return rowcheck::runMetrics(run, r); });
}

Result<std::vector<RepetitionRow>> SessionReader::repetitions(int64_t run) {
    if (d->version < 4) return std::vector<RepetitionRow>(); // no A/B repetitions before v4
    auto rows = d->query<std::optional<RepetitionRow>>(
        "SELECT arm, rep, phase, ns, control FROM repetition WHERE run=? ORDER BY rep, arm, phase",
        run, [&](const sql::Stmt& s) -> Result<std::optional<RepetitionRow>> {
            const auto arm = armFromString(s.text(0));
            if (!arm) return std::optional<RepetitionRow>();
            auto phase = reader::phaseAt(s, 2, run, "repetition " + std::to_string(s.int64(1)));
            if (!phase) return phase.error();
            return std::optional<RepetitionRow>(
                RepetitionRow{*arm, s.int32(1), *phase, s.int64(3), s.int64(4) != 0});
        });
    if (!rows) return rows.error();
    std::vector<RepetitionRow> out;
    for (auto& r : *rows)
        if (r) out.push_back(std::move(*r));
    if (auto ok = rowcheck::repetitions(run, out); !ok) return ok.error();
    return out;
}

Result<std::optional<EvalSetRow>> SessionReader::evalSet(int64_t run) {
    if (d->version < 7) return std::optional<EvalSetRow>(); // no eval runs before v7
    auto rows = d->query<EvalSetRow>("SELECT path, sha256, items FROM eval_set WHERE run=?", run,
                                     [](const sql::Stmt& s) {
                                         return EvalSetRow{s.text(0), s.text(1), s.int32(2)};
                                     });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<EvalSetRow>();
    return std::optional<EvalSetRow>(rows->front());
}

namespace {
// A JSON array column of an eval item (answers, kept patches).
template <typename T>
Result<std::vector<T>> jsonArray(const std::string& text, int64_t run, int item, const char* col) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    std::vector<T> out;
    if (j.is_array()) {
        for (const auto& v : j) {
            if (std::is_same_v<T, int> ? !v.is_number_integer() : !v.is_string()) break;
            out.push_back(v.get<T>());
        }
        if (out.size() == j.size()) return out;
    }
    return rowcheck::damaged(run, "eval_item " + std::to_string(item),
                             std::string(col) + " is not a JSON array of the right type");
}
} // namespace

// v8: each item's heatmap, where one was observed.
Status SessionReader::evalItemHeatmaps(int64_t run, const std::map<int, EvalItemRow*>& byItem) {
    if (d->version < 8) return Ok{};
    auto heatmaps = d->query<std::pair<int, EvalItemHeatmap>>(
        "SELECT item, image, grid_h, grid_w, answer_attention FROM eval_item_heatmap WHERE run=? "
        "ORDER BY item",
        run, [&](const sql::Stmt& s) {
            EvalItemHeatmap h{s.text(1), s.int32(2), s.int32(3), {}};
            const auto bytes = s.blob(4);
            h.answerAttention = floats(bytes, bytes.size() / sizeof(float));
            return std::pair{s.int32(0), std::move(h)};
        });
    if (!heatmaps) return heatmaps.error();
    for (auto& [item, h] : *heatmaps) {
        if (auto ok = rowcheck::evalItemHeatmap(run, item, h); !ok) return ok;
        if (auto it = byItem.find(item); it != byItem.end()) it->second->heatmap = std::move(h);
    }
    return Ok{};
}

Result<std::vector<EvalItemRow>> SessionReader::evalItems(int64_t run) {
    if (d->version < 7) return std::vector<EvalItemRow>();
    auto items = d->query<EvalItemRow>(
        "SELECT item, id, kind, prompt, answers, output, correct, kl_mean, kl_max, top1, "
        "token_match, visual_tokens, kept_patches FROM eval_item WHERE run=? ORDER BY item",
        run, [&](const sql::Stmt& s) -> Result<EvalItemRow> {
            EvalItemRow e;
            e.item = s.int32(0);
            e.id = s.text(1), e.kind = s.text(2), e.prompt = s.text(3), e.output = s.text(5);
            auto answers = jsonArray<std::string>(s.text(4), run, e.item, "answers");
            if (!answers) return answers.error();
            e.answers = std::move(*answers);
            if (!s.isNull(6)) e.correct = s.int64(6) != 0;
            const auto real = [&](int col) {
                return s.isNull(col) ? std::nullopt : std::optional<double>(s.real(col));
            };
            e.klMean = real(7), e.klMax = real(8), e.top1Agreement = real(9);
            e.tokenMatch = real(10);
            e.visualTokens = s.int32(11);
            auto kept = jsonArray<int>(s.text(12), run, e.item, "kept_patches");
            if (!kept) return kept.error();
            e.keptPatches = std::move(*kept);
            return e;
        });
    if (!items) return items.error();
    auto phases = d->query<std::pair<int, PhaseTime>>(
        "SELECT item, phase, ns FROM eval_item_phase WHERE run=? ORDER BY item, phase", run,
        [&](const sql::Stmt& s) -> Result<std::pair<int, PhaseTime>> {
            auto phase = reader::phaseAt(s, 1, run, "eval_item " + std::to_string(s.int64(0)));
            if (!phase) return phase.error();
            return std::pair{s.int32(0), PhaseTime{*phase, s.int64(2)}};
        });
    if (!phases) return phases.error();
    std::map<int, EvalItemRow*> byItem;
    for (auto& e : *items)
        byItem[e.item] = &e;
    for (const auto& [item, time] : *phases)
        if (auto it = byItem.find(item); it != byItem.end()) it->second->times.push_back(time);
    if (auto s = evalItemHeatmaps(run, byItem); !s) return s.error();
    for (auto& e : *items) // in the order a pass runs them
        std::sort(e.times.begin(), e.times.end(),
                  [](const PhaseTime& a, const PhaseTime& b) { return a.phase < b.phase; });
    if (auto ok = rowcheck::evalItems(run, *items); !ok) return ok.error();
    return items;
}

Result<std::vector<DeviceActivityRow>> SessionReader::activities(int64_t run) {
    if (d->version < 6) return std::vector<DeviceActivityRow>(); // none before v6
    auto rows = d->version >= 11 ? readActivityChunks(d->db, run) : activityTable(run);
    return checked(std::move(rows), [&](const auto& r) { return rowcheck::activities(run, r); });
}

// v6–v10: a row of the device_activity table each.
Result<std::vector<DeviceActivityRow>> SessionReader::activityTable(int64_t run) {
    return d->query<DeviceActivityRow>(
        "SELECT a.id, a.kind, i.text, a.device, a.stream, a.thread, a.start_ns, a.end_ns,"
        " a.correlation, a.op, a.span, a.bytes, a.name FROM device_activity a"
        " LEFT JOIN interned i ON i.id = a.name WHERE a.run=? ORDER BY a.id",
        run, [&](const sql::Stmt& s) -> Result<DeviceActivityRow> {
            const std::string where = "device_activity " + std::to_string(s.int64(0));
            const auto kind = activityKindFromString(s.text(1));
            if (!kind) return rowcheck::damaged(run, where, "kind '" + s.text(1) + "' is none");
            if (s.isNull(2))
                return rowcheck::damaged(run, where,
                                         "its name id " + std::to_string(s.int64(12)) +
                                             " is not an interned string");
            return DeviceActivityRow{s.int64(0),    *kind,         s.text(2),      s.int32(3),
                                     s.int64(4),    s.int64(5),    s.int64(6),     s.int64(7),
                                     s.optInt64(8), s.optInt64(9), s.optInt64(10), s.int64(11)};
        });
}

Result<std::optional<VisionFeatureRow>> SessionReader::visionFeatures(int64_t run) {
    auto rows = d->query<VisionFeatureRow>(
        "SELECT rows, cols, data FROM vision_feature WHERE run=?", run, [](const sql::Stmt& s) {
            VisionFeatureRow v{s.int32(0), s.int32(1), {}};
            const auto bytes = s.blob(2);
            v.data = floats(bytes, bytes.size() / sizeof(float));
            return v;
        });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<VisionFeatureRow>();
    const auto& v = rows->front();
    if (auto ok = rowcheck::floatBlob(run, "vision_feature", v.rows, v.cols, v.data.size()); !ok)
        return ok.error();
    return std::optional<VisionFeatureRow>(std::move(rows->front()));
}

Result<std::vector<PatchMetricRow>> SessionReader::patchMetrics(int64_t run,
                                                                const std::string& metric) {
    if (d->version < 9) // a row per patch before v9
        return checked(d->query<PatchMetricRow>(
                           "SELECT layer, metric, patch, value FROM patch_metric WHERE run=?1 AND "
                           "metric=?2 ORDER BY layer, patch",
                           run,
                           [](const sql::Stmt& s) {
                               return PatchMetricRow{s.int32(0), s.text(1), s.int32(2), s.real(3)};
                           },
                           metric),
                       [&](const auto& rows) { return rowcheck::patchMetrics(run, rows); });
    if (d->version < 11) return patchArrays(run, metric);
    auto select = d->db.prepare(kSelectPatchMatrix);
    if (!select) return select.error();
    auto layers = readPatchMatrix(*select, run, metric);
    if (!layers) return layers.error();
    std::vector<PatchMetricRow> rows;
    for (const auto& [layer, values] : *layers)
        for (auto& r : patchRows(layer, metric, values))
            rows.push_back(std::move(r));
    if (auto ok = rowcheck::patchMetrics(run, rows); !ok) return ok.error();
    return rows;
}

// v9 and v10: an array per (run, metric, layer).
Result<std::vector<PatchMetricRow>> SessionReader::patchArrays(int64_t run,
                                                               const std::string& metric) {
    struct Layer {
        int layer = 0;
        std::optional<std::vector<double>> values; // nullopt: a blob of no whole values
    };
    // v9 stored every array plain, and had no encoding column.
    auto layers = d->query<Layer>(
        d->version < 10 ? "SELECT layer, data, 1 FROM patch_values WHERE run=?1 AND metric=?2 "
                          "ORDER BY layer"
                        : "SELECT layer, data, encoding FROM patch_values WHERE run=?1 AND "
                          "metric=?2 ORDER BY layer",
        run,
        [](const sql::Stmt& s) {
            return Layer{s.int32(0), decodePatchValues(s.blobView(1), s.int64(2))};
        },
        metric);
    if (!layers) return layers.error();
    std::vector<PatchMetricRow> rows;
    for (const auto& l : *layers) {
        if (!l.values)
            return rowcheck::damaged(run,
                                     "patch_values " + metric + " layer " + std::to_string(l.layer),
                                     "its data is no array of float64 values of a grid (or "
                                     "its encoding is unknown, or it does not inflate)");
        for (auto& r : patchRows(l.layer, metric, *l.values))
            rows.push_back(std::move(r));
    }
    if (auto ok = rowcheck::patchMetrics(run, rows); !ok) return ok.error();
    return rows;
}

Result<std::vector<AttnMapRow>> SessionReader::attnMaps(int64_t run, int layer) {
    auto maps = d->query<AttnMapRow>(
        "SELECT layer, head, rows, cols, data FROM attn_map WHERE run=?1 AND layer=?2 ORDER BY "
        "head",
        run,
        [](const sql::Stmt& s) {
            AttnMapRow a{s.int32(0), s.int32(1), s.int32(2), s.int32(3), {}};
            const auto bytes = s.blob(4);
            a.data = floats(bytes, bytes.size() / sizeof(float));
            return a;
        },
        layer);
    return checked(std::move(maps), [&](const std::vector<AttnMapRow>& rows) -> Status {
        for (const auto& a : rows)
            if (auto ok = rowcheck::floatBlob(run, "attn_map", a.rows, a.cols, a.data.size()); !ok)
                return ok;
        return Ok{};
    });
}

Result<std::vector<int>> SessionReader::attnMapLayers(int64_t run) {
    return d->query<int>("SELECT DISTINCT layer FROM attn_map WHERE run=? ORDER BY layer", run,
                         [](const sql::Stmt& s) { return s.int32(0); });
}

} // namespace mvp
