#include "capture/run/WhatIf.h"

#include "capture/run/Repetitions.h"
#include "core/compare/Prediction.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>

namespace mvp {

namespace {
// The run `id` names, or the first complete baseline.
Result<const RunInfo*> chooseBaseline(const std::vector<RunInfo>& runs, std::optional<int64_t> id,
                                      const std::string& path) {
    if (id) {
        for (const auto& r : runs)
            if (r.id == *id) return &r;
        return makeError(ErrorCode::BadInput, "run " + std::to_string(*id) + " is not in " + path);
    }
    // A probed one first: an eval baseline (unrecorded passes) is none to
    // plan from; else the first, which checkBaseline refuses saying why.
    for (const bool probed : {true, false})
        for (const auto& r : runs)
            if (r.transform.empty() && r.status == RunStatus::Complete && r.probes >= probed)
                return &r;
    return makeError(ErrorCode::BadInput,
                     path + " has no complete baseline run: capture one first (mvprof-cli capture)");
}

// After the repetitions, the recorded run fills the progress bar's last fifth.
ProgressFn recordedRunProgress(const ProgressFn& progress, int reps) {
    if (!progress || reps == 0) return progress;
    return [progress](CaptureProgress p) {
        p.fraction = 0.8 + 0.2 * p.fraction;
        progress(p);
    };
}

// Where the transforms quantised, the latency predicted from both profiles
// (measured or not, it is stored: a check of the cost model where kernels ran).
std::optional<RunMetricRow> predictedLatency(const RunData& base, const RunData& w,
                                             const ModelTransformOutcome& outcome) {
    if (outcome.quantised.empty()) return std::nullopt;
    auto p = outcome.int8Kernels ? predictFromKernelRatios(base, w, outcome.quantised)
                                 : predictQuantisedLatency(base, w, outcome.quantised);
    if (!p) return std::nullopt;
    return RunMetricRow{"latency.predicted_ns", double(p->wallNs), "ns", "predicted",
                        (outcome.int8Kernels   ? "a check of the cost model, the int8 kernels having run: "
                         : outcome.int4Kernels ? "a check of the cost model, the int4 kernel having run: "
                         : outcome.int8Matmul  ? "a check of the cost model, the int8 matmul having run: "
                                               : "") +
                            p->note};
}

// The what-if's recorded run, written to the session and read back once
// (the baseline is already loaded), with its repetitions and prediction.
Result<RecordedWhatIf> recordWhatIf(const std::string& path, Capturer& capturer,
                                    const RunTransform& t, const ProgressFn& progress,
                                    std::vector<RepetitionRow> repetitions,
                                    const ModelTransformOutcome& outcome, const RunData& base) {
    auto writer = SessionWriter::open(path, SessionWriter::Mode::Append);
    if (!writer) return writer.error();
    auto result = capturer.run(**writer, true, progress, t);
    if (!result) {
        (void)(*writer)->close();
        return result.error();
    }
    if (auto s = (*writer)->flush(); !s) return s.error();
    auto again = SessionReader::open(path);
    if (!again) return again.error();
    auto w = loadRunData(**again, result->run);
    if (!w)
        return makeError(w.error().code, "reading the what-if back failed: " + w.error().message);
    Batch extras;
    extras.run = result->run;
    extras.repetitions = std::move(repetitions);
    w->repetitions = extras.repetitions;
    if (auto predicted = predictedLatency(base, *w, outcome)) {
        extras.runMetrics.push_back(*predicted);
        w->runMetrics.push_back(*predicted);
    }
    if (!extras.empty()) (*writer)->submit(std::move(extras));
    if (auto closed = (*writer)->close(); !closed) return closed.error();
    return RecordedWhatIf{std::move(*result), std::move(*w)};
}
} // namespace

Result<WhatIfBaseline> loadWhatIfBaseline(const std::string& path, std::optional<int64_t> run,
                                          const WhatIfRequest& request) {
    auto reader = SessionReader::open(path);
    if (!reader) return reader.error();
    auto runs = (*reader)->runs();
    if (!runs) return runs.error();
    auto chosen = chooseBaseline(*runs, run, path);
    if (!chosen) return chosen.error();
    WhatIfBaseline b{**chosen, {}, {}};
    if (auto ok = checkBaseline(b.info, request); !ok) return ok.error();
    auto data = loadRunData(**reader, b.info.id);
    if (!data) return data.error();
    b.data = std::move(data.value());
    auto options = baselineOptions(**reader, b.info);
    if (!options) return options.error();
    b.options = std::move(options.value());
    return b;
}

Result<BothArms> runBothArms(const PreparedCapture& baselinePrep, Capturer& whatIf,
                             const RunTransform& t, const ModelTransforms& mt, int reps,
                             const ProgressFn& progress) {
    const bool resamples = !t.keepPatches.empty() || mt.kv.has_value();
    BothArms out;
    if (reps == 0 && !resamples) return out;
    std::unique_ptr<Capturer> separate;
    if (mt.touchesModel()) {
        auto c = Capturer::create(baselinePrep);
        if (!c) return c.error();
        separate = std::move(c.value());
    }
    Capturer& baseline = separate ? *separate : whatIf;
    RunTransform whatIfPass;
    whatIfPass.keepPatches = t.keepPatches;
    if (resamples) {
        auto a = baseline.observeVisualTokens();
        if (!a) return a.error();
        auto b = whatIf.observeVisualTokens(whatIfPass);
        if (!b) return b.error();
        out.resampling = resamplingMetrics(resamplingLoss(*a, *b));
    }
    if (reps == 0) return out;
    AbPlan plan;
    plan.baseline = &baseline;
    plan.whatIf = &whatIf;
    plan.whatIfPass = whatIfPass;
    plan.reps = reps;
    plan.warmup = baselinePrep.options.warmup;
    plan.controlPhases = controlPhases(mt, !t.keepPatches.empty());
    plan.cancel = baselinePrep.options.cancel;
    if (progress)
        plan.progress = [&](int pass, int passes) {
            progress({CaptureProgress::Stage::Repetitions, Phase::Preprocess, pass, passes,
                      0.8 * pass / std::max(1, passes)});
        };
    auto rows = runAbRepetitions(plan);
    if (!rows) return rows.error();
    out.repetitions = std::move(rows.value());
    return out;
}

Result<RecordedWhatIf> runWhatIf(const std::string& path, const WhatIfBaseline& baseline,
                                 const WhatIfRequest& request, int reps,
                                 const ProgressFn& progress) {
    auto prepared = prepareCapture(baseline.options);
    if (!prepared) return prepared.error();
    const PreparedCapture baselinePrep = *prepared; // the A arm's model is built from the same
    auto plan = planWhatIf(request, baseline.data, prepared->config);
    if (!plan) return plan.error();
    const ModelTransforms& mt = plan->model;
    RunTransform t = plan->run;
    auto capturer = Capturer::create(std::move(prepared.value()));
    if (!capturer) return capturer.error();
    // Calibration and sensitivity passes run before the what-if: say so.
    if (progress && mt.touchesModel()) progress({CaptureProgress::Stage::Transforming});
    auto outcome = (*capturer)->transformModel(mt);
    if (!outcome) return outcome.error();
    t.metrics = outcome->metrics;
    if (!outcome->visualPatches.empty()) t.keepPatches = outcome->visualPatches;
    auto arms = runBothArms(baselinePrep, **capturer, t, mt, reps, progress);
    if (!arms) return arms.error();
    for (const auto& m : arms->resampling)
        t.metrics.push_back(m);
    return recordWhatIf(path, **capturer, t, recordedRunProgress(progress, reps),
                        std::move(arms->repetitions), *outcome, baseline.data);
}

} // namespace mvp
