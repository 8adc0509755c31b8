#include "core/session/RowChecks.h"

#include <cmath>
#include <optional>
#include <string>

namespace mvp::rowcheck {

namespace {
std::string n(int64_t v) {
    return std::to_string(v);
}

Error damaged(int64_t run, const std::string& where, const std::string& what) {
    return makeError(ErrorCode::NotASession,
                     where + " of run " + n(run) + ": " + what +
                         ": the session is damaged (copy it again from its source, or capture "
                         "again)");
}

// "<what> <v> is outside <lo>..<hi>", or nothing when it is inside.
std::optional<std::string> outside(const char* what, int64_t v, int64_t lo, int64_t hi) {
    if (v >= lo && v <= hi) return std::nullopt;
    return std::string(what) + " " + n(v) + " is outside " + n(lo) + ".." + n(hi);
}
} // namespace

Status patchGrid(int64_t run, const PatchGridRow& g) {
    for (const auto& bad :
         {outside("grid_h", g.gridH, 1, kMaxGridSide), outside("grid_w", g.gridW, 1, kMaxGridSide),
          outside("patch", g.patch, 1, kMaxPatchPixels),
          outside("input_size", g.inputSize, 1, kMaxGridSide * kMaxPatchPixels),
          outside("first_position", g.firstPosition, 0, kMaxPositions)})
        if (bad) return damaged(run, "patch_grid", *bad);
    return Ok{};
}

Status routing(int64_t run, const std::vector<RoutingRow>& rows) {
    for (const auto& r : rows) {
        const std::string where =
            "routing (layer " + n(r.layer) + ", token " + n(r.token) + ", rank " + n(r.rank) + ")";
        for (const auto& bad :
             {outside("layer", r.layer, 0, kMaxLayers - 1),
              outside("token", r.token, 0, kMaxPositions), outside("rank", r.rank, 0, kMaxTopK - 1),
              outside("expert", r.expert, 0, kMaxExperts - 1),
              outside("step", r.step, 0, kMaxPositions)})
            if (bad) return damaged(run, where, *bad);
        // Not capped at 1: some routers scale their weights (DeepSeek's routed_scaling_factor).
        if (!(r.weight >= 0 && std::isfinite(r.weight)))
            return damaged(run, where,
                           "weight " + std::to_string(r.weight) + " is not a gate weight");
    }
    return Ok{};
}

Status tokens(int64_t run, const std::vector<TokenRow>& rows) {
    for (const auto& t : rows) {
        const std::string where = "token (position " + n(t.position) + ")";
        for (const auto& bad :
             {outside("position", t.position, 0, kMaxPositions),
              outside("patch", t.patch, -1, int64_t(kMaxGridSide) * kMaxGridSide - 1),
              outside("step", t.step, 0, kMaxPositions)})
            if (bad) return damaged(run, where, *bad);
    }
    return Ok{};
}

Status phases(int64_t run, const std::vector<PhaseRow>& rows) {
    for (const auto& p : rows)
        if (p.endNs < p.startNs || p.startNs < 0 || p.step < 0)
            return damaged(run, "phase " + p.phase + " (step " + n(p.step) + ")",
                           "it runs from " + n(p.startNs) + " to " + n(p.endNs) + " ns");
    return Ok{};
}

Status spans(int64_t run, const std::vector<SpanRow>& rows) {
    for (const auto& s : rows)
        if (s.endNs < s.startNs || s.step < 0 || s.flops < 0 || s.bytes < 0)
            return damaged(run, "span " + n(s.id),
                           s.endNs < s.startNs
                               ? "it ends (" + n(s.endNs) + " ns) before it starts (" +
                                     n(s.startNs) + " ns)"
                               : "a negative step, FLOP or byte count");
    return Ok{};
}

Status stepOutputs(int64_t run, const std::vector<StepOutputRow>& rows) {
    for (const auto& o : rows) {
        const std::string where = "step_output (step " + n(o.step) + ")";
        if (o.step < 0) return damaged(run, where, "a negative step");
        if (o.logits.empty() || o.logits.size() != rows.front().logits.size())
            return damaged(run, where,
                           "its logits hold " + n(int64_t(o.logits.size())) + " floats, step " +
                               n(rows.front().step) + "'s " +
                               n(int64_t(rows.front().logits.size())));
        if (o.token < 0 || size_t(o.token) >= o.logits.size())
            return damaged(run, where, "token " + n(o.token) + " is not in its logits");
    }
    return Ok{};
}

Status patchMetrics(int64_t run, const std::vector<PatchMetricRow>& rows) {
    for (const auto& m : rows)
        for (const auto& bad :
             {outside("layer", m.layer, -1, kMaxLayers - 1),
              outside("patch", m.patch, 0, int64_t(kMaxGridSide) * kMaxGridSide - 1)})
            if (bad) return damaged(run, "patch_metric " + m.metric, *bad);
    return Ok{};
}

Status floatBlob(int64_t run, const char* table, int64_t rows, int64_t cols, size_t held) {
    if (rows < 0 || cols < 0 || rows > kMaxMapCells || cols > kMaxMapCells ||
        rows * cols > kMaxMapCells)
        return damaged(run, table, n(rows) + " × " + n(cols) + " is not a size mvprof writes");
    if (size_t(rows * cols) != held)
        return damaged(run, table,
                       "its data holds " + n(int64_t(held)) + " floats, not " + n(rows) + " × " +
                           n(cols));
    return Ok{};
}

} // namespace mvp::rowcheck
