// The C ABI's eval what-if (mvprof_capture.h: mvprof_begin_eval …
// mvprof_end_eval): the host — the Python package's mvprof.evaluate — runs
// each item through its own model and hands over what each arm produced;
// this side scores it, measures the what-if's fidelity to the baseline's
// logits of the same item and stores both rows as the built-in models' eval
// does (capture/run/EvalRuns.h), so reports and the GUI read them alike.
// Where the host asks, an extra observation pass per arm reads the item's
// attention as a profile does (the row/module calls of a run, recorded into a
// scratch session nobody reads) for its answer_attention heatmap.
#include "capture/api/ApiSession.h"
#include "core/Phase.h"
#include "core/interop/Sha256.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

using mvp::api::fail;
using mvp::api::guarded;
using mvp::api::text;

namespace mvp::api {

namespace {

// The set from its file, or from the host's JSONL lines (images relative
// to the working directory; `name` names them in errors and the session).
Result<std::pair<EvalSet, std::string>> readSet(const std::string& name, const char* jsonl) {
    if (!jsonl) {
        auto set = readEvalSet(name);
        if (!set) return set.error();
        auto sha = fileSha256(name);
        if (!sha) return sha.error();
        return std::pair{std::move(set.value()), std::move(sha.value())};
    }
    const std::string lines = jsonl;
    std::istringstream in(lines);
    std::error_code ec;
    auto set = parseEvalSet(in, name, std::filesystem::current_path(ec).string());
    if (!set) return set.error();
    const auto* bytes = reinterpret_cast<const uint8_t*>(lines.data());
    return std::pair{std::move(set.value()), sha256Hex({bytes, lines.size()})};
}

// Each generated step's logits as the fidelity measures read them.
std::vector<StepOutputRow> stepRows(const float* logits, int steps, int vocab) {
    std::vector<StepOutputRow> rows(size_t(std::max(steps, 0)));
    for (int i = 0; i < steps; ++i) {
        rows[size_t(i)].step = i;
        rows[size_t(i)].logits.assign(logits + int64_t(i) * vocab,
                                      logits + int64_t(i + 1) * vocab);
        const auto& l = rows[size_t(i)].logits;
        rows[size_t(i)].token = int(std::max_element(l.begin(), l.end()) - l.begin());
    }
    return rows;
}

Result<std::vector<PhaseTime>> phaseTimes(const char* const* phases, const long long* ns, int n) {
    std::vector<PhaseTime> times;
    for (int i = 0; i < n; ++i) {
        const auto phase = phaseFromString(text(phases[i]));
        if (!phase)
            return makeError(ErrorCode::BadInput,
                             "phase '" + text(phases[i]) +
                                 "': one of preprocess, h2d, vision, projector, prefill, decode");
        if (ns[i] < 0) return makeError(ErrorCode::BadInput, "a phase's time must be >= 0 ns");
        times.push_back({*phase, int64_t(ns[i])});
    }
    return times;
}

Status checkArm(const EvalState& e, int arm, int index) {
    const int size = int(e.set.items.size());
    if (e.done >= size) return makeError(ErrorCode::BadInput, "every item is stored already");
    if (index != e.done)
        return makeError(ErrorCode::BadInput, "item " + std::to_string(index) + " out of order: "
                                              "item " + std::to_string(e.done) + " comes next");
    if (arm == 0 && e.baseline)
        return makeError(ErrorCode::BadInput, "item " + std::to_string(index) +
                                                  "'s baseline is stored: its what-if (arm 1) "
                                                  "comes next");
    if (arm == 1 && !e.baseline)
        return makeError(ErrorCode::BadInput, "item " + std::to_string(index) +
                                                  "'s baseline (arm 0) comes first");
    return Ok{};
}

// Ends the observation pass recording now: its recording stopped, and its
// answer_attention, on the patch grid the host declared, kept for the arm's
// next row (`keep`) or dropped.
void endObservation(mvprof_session& s, bool keep) {
    EvalState& e = *s.eval;
    finishRecording(s);
    const int arm = *e.observing;
    const auto& grid = s.rows.patchGrid;
    e.heatmaps[size_t(arm)].reset();
    if (keep && s.attention && grid)
        e.heatmaps[size_t(arm)] =
            answerAttentionHeatmap(s.attention->metrics(), e.set.items[size_t(e.done)].image,
                                   grid->gridH, grid->gridW);
    s.attention.reset();
    s.recorder.reset();
    s.rows = Batch();
    e.observing.reset();
}

} // namespace

int endEval(mvprof_session& s, RunStatus status, const std::string& error) {
    if (s.eval->observing) endObservation(s, false);
    EvalState& e = *s.eval;
    const int size = int(e.set.items.size());
    const bool cut = status == RunStatus::Complete && e.done < size;
    const auto ended =
        e.runs.end(cut ? RunStatus::Incomplete : status,
                   cut ? "stopped after " + std::to_string(e.done) + " of " +
                             std::to_string(size) + " items"
                       : error);
    s.eval.reset();
    return ended ? MVPROF_OK : fail(ended.error());
}

} // namespace mvp::api

extern "C" {

int mvprof_begin_eval(mvprof_session* s, const mvprof_run_info* baseline,
                      const mvprof_run_info* whatif, const char* set_path, const char* set_jsonl,
                      int* items, long long* baseline_id, long long* whatif_id) {
    return guarded(s, false, [&]() -> int {
        if (!baseline || !whatif || text(set_path).empty() || !items || !baseline_id ||
            !whatif_id)
            return fail(MVPROF_BAD_INPUT, "an eval needs both runs' descriptions, the set's "
                                          "path (or name) and out pointers");
        if (s->run || s->eval)
            return fail(MVPROF_BAD_INPUT, "a run is already open: end it first");
        if (text(whatif->transform).empty())
            return fail(MVPROF_BAD_INPUT, "the what-if's description names no transform");
        mvp::RunInfo base = mvp::api::runInfo(*baseline);
        if (base.baselineRun)
            if (auto ok = mvp::api::checkBaseline(*s, *base.baselineRun); !ok)
                return fail(ok.error());
        auto set = mvp::api::readSet(set_path, set_jsonl);
        if (!set) return fail(set.error());
        base.label = "eval baseline", base.transform.clear();
        mvp::RunInfo what = mvp::api::runInfo(*whatif);
        for (mvp::RunInfo* info : {&base, &what}) {
            info->probes = false; // one unrecorded pass per item
            if (info->prompt.empty() && info->imagePath.empty()) // named by the first item
                info->prompt = set->first.items.front().prompt,
                info->imagePath = set->first.items.front().image;
        }
        const mvp::EvalSetRow row{set_path, set->second, int(set->first.items.size())};
        auto runs = mvp::EvalRuns::begin(*s->writer, base, what, row, {});
        if (!runs) return fail(runs.error());
        *baseline_id = runs->ids()[0], *whatif_id = runs->ids()[1];
        *items = row.items;
        s->eval = std::make_unique<mvp::api::EvalState>(std::move(runs.value()),
                                                          std::move(set->first));
        return MVPROF_OK;
    });
}

int mvprof_eval_item(mvprof_session* s, int index, const char** json) {
    return guarded(s, false, [&]() -> int {
        if (!s->eval) return fail(MVPROF_BAD_INPUT, "no eval is open: call mvprof_begin_eval");
        const auto& items = s->eval->set.items;
        if (!json || index < 0 || index >= int(items.size()))
            return fail(MVPROF_BAD_INPUT, "item " + std::to_string(index) + " is not in the set (" +
                                              std::to_string(items.size()) + " items)");
        s->eval->itemJson = mvp::evalItemLine(items[size_t(index)]);
        *json = s->eval->itemJson.c_str();
        return MVPROF_OK;
    });
}

int mvprof_add_eval_item(mvprof_session* s, int arm, int index, const char* output,
                         const float* logits, int steps, int vocab, int visual_tokens,
                         const int* kept, int n_kept, const char* const* phases,
                         const long long* ns, int n_phases, int* correct) {
    return guarded(s, false, [&]() -> int {
        if (!s->eval) return fail(MVPROF_BAD_INPUT, "no eval is open: call mvprof_begin_eval");
        if ((arm != 0 && arm != 1) || steps < 0 || (steps > 0 && (!logits || vocab < 1)) ||
            visual_tokens < 0 || n_kept < 0 || (n_kept > 0 && !kept) || n_phases < 0 ||
            (n_phases > 0 && (!phases || !ns)) || !correct)
            return fail(MVPROF_BAD_INPUT, "an eval item needs arm 0 or 1, steps × vocab logits, "
                                          "its kept patches and phases, and an out pointer");
        if (steps > 0 && !std::all_of(logits, logits + int64_t(steps) * vocab,
                                      [](float v) { return !std::isnan(v); }))
            return fail(MVPROF_BAD_INPUT, "the item's logits hold NaN");
        auto& e = *s->eval;
        if (e.observing)
            return fail(MVPROF_BAD_INPUT, "an observation pass is open: end it first");
        if (auto ok = mvp::api::checkArm(e, arm, index); !ok) return fail(ok.error());
        auto times = mvp::api::phaseTimes(phases, ns, n_phases);
        if (!times) return fail(times.error());
        auto row = mvp::evalItemRow(index, e.set.items[size_t(index)], text(output),
                                    visual_tokens, std::vector<int>(kept, kept + n_kept),
                                    std::move(times.value()));
        *correct = row.correct ? int(*row.correct) : -1;
        row.heatmap = std::move(e.heatmaps[size_t(arm)]);
        e.heatmaps[size_t(arm)].reset();
        auto rows = mvp::api::stepRows(logits, steps, vocab);
        if (arm == 0) {
            e.baseline = std::move(row);
            e.baselineSteps = std::move(rows);
            return MVPROF_OK;
        }
        mvp::addFidelity(row, e.baselineSteps, rows);
        auto stored = e.runs.add(std::move(*e.baseline), std::move(row));
        e.baseline.reset(), e.baselineSteps.clear();
        if (!stored) return fail(stored.error());
        ++e.done;
        return MVPROF_OK;
    });
}

int mvprof_begin_eval_observation(mvprof_session* s, int arm, int index) {
    return guarded(s, false, [&]() -> int {
        if (!s->eval) return fail(MVPROF_BAD_INPUT, "no eval is open: call mvprof_begin_eval");
        auto& e = *s->eval;
        if (e.observing)
            return fail(MVPROF_BAD_INPUT, "an observation pass is open: end it first");
        if (arm != 0 && arm != 1) return fail(MVPROF_BAD_INPUT, "an arm is 0 or 1");
        if (auto ok = mvp::api::checkArm(e, arm, index); !ok) return fail(ok.error());
        if (!e.scratch) {
            auto scratch = mvp::ScratchSession::open();
            if (!scratch) return fail(scratch.error());
            e.scratch = std::move(scratch.value());
        }
        auto run = e.scratch->newRun();
        if (!run) return fail(run.error());
        s->recorder = std::make_unique<mvp::Recorder>(e.scratch->writer(), *run, true);
        s->attention = std::make_unique<mvp::AttentionObserver>();
        s->recorder->setObserver(s->attention.get());
        s->rows = mvp::Batch();
        s->recordingFinished = false;
        s->decodeSteps = 0;
        e.observing = arm;
        s->recorder->startOps();
        return MVPROF_OK;
    });
}

int mvprof_end_eval_observation(mvprof_session* s) {
    return guarded(s, false, [&]() -> int {
        if (!s->eval || !s->eval->observing)
            return fail(MVPROF_BAD_INPUT,
                        "no observation pass is open: call mvprof_begin_eval_observation");
        mvp::api::endObservation(*s, true);
        return MVPROF_OK;
    });
}

int mvprof_end_eval(mvprof_session* s, int status, const char* error) {
    return guarded(s, false, [&]() -> int {
        if (!s->eval) return fail(MVPROF_BAD_INPUT, "no eval is open: call mvprof_begin_eval");
        const auto st = status == MVPROF_COMPLETE     ? mvp::RunStatus::Complete
                        : status == MVPROF_INCOMPLETE ? mvp::RunStatus::Incomplete
                                                      : mvp::RunStatus::Failed;
        return mvp::api::endEval(*s, st, text(error));
    });
}

} // extern "C"
