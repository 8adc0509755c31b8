#include "core/session/RowChecks.h"

#include <cmath>
#include <optional>
#include <string>

namespace mvp::rowcheck {

namespace {
std::string n(int64_t v) {
    return std::to_string(v);
}

// "<what> <v> is outside <lo>..<hi>", or nothing when it is inside.
std::optional<std::string> outside(const char* what, int64_t v, int64_t lo, int64_t hi) {
    if (v >= lo && v <= hi) return std::nullopt;
    return std::string(what) + " " + n(v) + " is outside " + n(lo) + ".." + n(hi);
}
} // namespace

Error damaged(int64_t run, const std::string& where, const std::string& what) {
    return makeError(ErrorCode::NotASession,
                     where + " of run " + n(run) + ": " + what +
                         ": the session is damaged (copy it again from its source, or capture "
                         "again)");
}

Error unknownPhase(int64_t run, const std::string& where, const std::string& name) {
    std::string known;
    for (const Phase p : kPhases)
        known += std::string(known.empty() ? "" : ", ") + std::string(toString(p));
    return damaged(run, where, "phase \"" + name + "\" is none of " + known);
}

Error unknownModality(int64_t run, const std::string& where, const std::string& name) {
    return damaged(run, where, "modality \"" + name + "\" is neither visual nor text");
}

Status runInfo(const RunInfo& r) {
    for (const auto& bad :
         {outside("steps", r.steps, 0, kMaxPositions), outside("threads", r.threads, 0, 1 << 16),
          outside("wall_ns", r.wallNs, 0, kMaxTimeNs),
          outside("peak_rss_bytes", r.peakRssBytes, 0, kMaxCount)})
        if (bad) return damaged(r.id, "the run row", *bad);
    if (r.baselineRun && (*r.baselineRun < 1 || *r.baselineRun == r.id))
        return damaged(r.id, "the run row",
                       "baseline_run " + n(*r.baselineRun) + " is no other run");
    return Ok{};
}

Status modules(int64_t run, const std::vector<ModuleRow>& rows) {
    for (const auto& m : rows) {
        // A module's parent is written before it: an id at or after its own is a loop.
        for (const auto& bad : {outside("params", m.params, 0, kMaxCount),
                                outside("parent", m.parent.value_or(0), 0, m.id - 1)})
            if (bad) return damaged(run, "module " + n(m.id) + " (" + m.path + ")", *bad);
    }
    return Ok{};
}

Status opTotals(int64_t run, const std::vector<OpTotal>& rows) {
    for (const auto& t : rows) {
        for (const auto& bad :
             {outside("calls", t.calls, 0, kMaxCount), outside("flops", t.flops, 0, kMaxCount),
              outside("bytes", t.bytes, 0, kMaxCount), outside("ns", t.ns, 0, kMaxTimeNs),
              outside("known_ns", t.knownNs, 0, t.ns)})
            if (bad)
                return damaged(run, "op_total " + t.name + " (" + phaseName(t.phase) + ")", *bad);
    }
    return Ok{};
}

Status leafFlops(int64_t run, const std::vector<LeafFlopsRow>& rows) {
    for (const auto& l : rows) {
        for (const auto& bad :
             {outside("calls", l.calls, 0, kMaxCount), outside("flops", l.flops, 0, kMaxCount)})
            if (bad)
                return damaged(run, "leaf_flops " + l.name + " (" + phaseName(l.phase) + ")", *bad);
    }
    return Ok{};
}

Status runMetrics(int64_t run, const std::vector<RunMetricRow>& rows) {
    for (const auto& m : rows)
        if (!(std::abs(m.value) <= kMaxMetric))
            return damaged(run, "run_metric " + m.name,
                           "its value " + std::to_string(m.value) +
                               " is not a figure a run gives (NaN, infinite or beyond ±1e18)");
    return Ok{};
}

Status repetitions(int64_t run, const std::vector<RepetitionRow>& rows) {
    for (const auto& r : rows) {
        for (const auto& bad :
             {outside("rep", r.rep, 0, 1 << 20), outside("ns", r.ns, 0, kMaxTimeNs)})
            if (bad)
                return damaged(run, "repetition " + n(r.rep) + " (" + phaseName(r.phase) + ")",
                               *bad);
    }
    return Ok{};
}

Status evalItems(int64_t run, const std::vector<EvalItemRow>& rows) {
    for (const auto& e : rows) {
        const std::string where = "eval_item " + n(e.item);
        for (const auto& bad : {outside("item", e.item, 0, kMaxCount),
                                outside("visual_tokens", e.visualTokens, 0, kMaxCount)})
            if (bad) return damaged(run, where, *bad);
        for (const auto* f : {&e.klMean, &e.klMax, &e.top1Agreement, &e.tokenMatch})
            if (*f && !(**f >= 0 && **f <= kMaxMetric))
                return damaged(run, where, "a fidelity figure is negative, NaN or beyond 1e18");
        for (const auto& t : e.times)
            if (auto bad = outside("ns", t.ns, 0, kMaxTimeNs)) return damaged(run, where, *bad);
    }
    return Ok{};
}

Status evalItemHeatmap(int64_t run, int item, const EvalItemHeatmap& h) {
    const std::string where = "eval_item_heatmap " + n(item);
    for (const auto& bad : {outside("grid_h", h.gridH, 1, kMaxGridSide),
                            outside("grid_w", h.gridW, 1, kMaxGridSide)})
        if (bad) return damaged(run, where, *bad);
    if (auto ok = floatBlob(run, where.c_str(), h.gridH, h.gridW, h.answerAttention.size()); !ok)
        return ok;
    for (float v : h.answerAttention)
        if (!(v >= 0 && v <= kMaxMetric))
            return damaged(run, where, "an answer_attention value is negative, NaN or beyond 1e18");
    return Ok{};
}

Status activities(int64_t run, const std::vector<DeviceActivityRow>& rows) {
    for (const auto& a : rows) {
        const int64_t lowDevice = onDevice(a.kind) ? 0 : -1;
        for (const auto& bad : {outside("device", a.device, lowDevice, kMaxDevices - 1),
                                outside("start_ns", a.startNs, -kMaxTimeNs, kMaxTimeNs),
                                outside("end_ns", a.endNs, a.startNs, kMaxTimeNs),
                                outside("bytes", a.bytes, 0, kMaxCount)})
            if (bad) return damaged(run, "device_activity " + n(a.id), *bad);
    }
    return Ok{};
}

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

namespace {
// "it ends (…) before it starts (…)", or nothing when it does not.
std::optional<std::string> inverted(int64_t startNs, int64_t endNs) {
    if (endNs >= startNs) return std::nullopt;
    return "it ends (" + n(endNs) + " ns) before it starts (" + n(startNs) + " ns)";
}
} // namespace

Status phases(int64_t run, const std::vector<PhaseRow>& rows) {
    for (const auto& p : rows) {
        if (p.phase == Phase::None)
            return damaged(run, "a phase row (step " + n(p.step) + ")", "it names no phase");
        for (const auto& bad :
             {inverted(p.startNs, p.endNs), outside("start_ns", p.startNs, 0, kMaxTimeNs),
              outside("end_ns", p.endNs, 0, kMaxTimeNs), outside("step", p.step, 0, kMaxPositions)})
            if (bad)
                return damaged(run, "phase " + phaseName(p.phase) + " (step " + n(p.step) + ")",
                               *bad);
    }
    return Ok{};
}

Status spans(int64_t run, const std::vector<SpanRow>& rows) {
    for (const auto& s : rows) {
        // Hooks of a user's model may open a span before the first phase: negative times are
        // fine, times no clock gives are not.
        for (const auto& bad :
             {inverted(s.startNs, s.endNs), outside("start_ns", s.startNs, -kMaxTimeNs, kMaxTimeNs),
              outside("end_ns", s.endNs, -kMaxTimeNs, kMaxTimeNs),
              outside("device_ns", s.deviceNs.value_or(0), 0, kMaxTimeNs),
              outside("step", s.step, 0, kMaxPositions), outside("flops", s.flops, 0, kMaxCount),
              outside("bytes", s.bytes, 0, kMaxCount)})
            if (bad) return damaged(run, "span " + n(s.id), *bad);
    }
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
            if (bad) return damaged(run, "patch_values " + m.metric, *bad);
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
