// `mvprof-cli whatif`: a second real run of a baseline's inputs with one or
// more transforms applied, stored in the same session and compared with it.
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "app/cli/Progress.h"
#include "app/cli/WhatIfArms.h"
#include "app/cli/WhatIfSweep.h"
#include "capture/run/Capture.h"
#include "capture/whatif/Plan.h"
#include "core/compare/Comparison.h"
#include "core/report/ComparisonText.h"
#include "core/compare/Prediction.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp::cli {

namespace {
constexpr const char* kFooter =
    R"(The what-if is stored as a new run of FILE; the comparison shows latency (total, per phase), peak memory,
weight and KV bytes, QPS, energy where measurable, fidelity (KL of next-token distributions, top-1
agreement, token match, vision feature cosine), what the transforms did, and a module-by-module diff.
Figures are measured unless marked predicted (W4 latency: libtorch 1.13 has no int4 kernel). Where W8 ran
int8 kernels, the cost model's prediction is shown beside the measurement as a check.
Phases the transforms cannot change (vision, for a decoder-side transform) are the noise control: when
their speed-up interval excludes 1.0 the comparison warns that the machine was unsteady.)";

// The run --run names, or the first complete baseline.
Result<const RunInfo*> chooseBaseline(const std::vector<RunInfo>& runs, std::optional<int64_t> id,
                                      const std::string& path) {
    const RunInfo* base = nullptr;
    if (id) {
        for (const auto& r : runs)
            if (r.id == *id) base = &r;
        if (!base)
            return makeError(ErrorCode::BadInput,
                             "run " + std::to_string(*id) + " is not in " + path);
    } else {
        for (const auto& r : runs)
            if (r.transform.empty() && r.status == RunStatus::Complete) {
                base = &r;
                break;
            }
        if (!base)
            return makeError(
                ErrorCode::BadInput,
                path + " has no complete baseline run: capture one first (mvprof-cli capture)");
    }
    return base;
}

// How the command runs and reports, beside what it transforms.
struct Reporting {
    int reps = 5;
    std::string format = "text";
    std::string progress; // "" or "jsonl"
};

// Everything the options say, typed; the words (--quant w8 …) resolved after parsing.
struct WhatIfArgs {
    WhatIfRequest request;
    Reporting reporting;
    std::optional<int64_t> run;
    std::string saliency = "attention", quant, kv, kvMethod;
    double kvThreshold = 0.82;
};

void addVisualOptions(CLI::App& app, WhatIfArgs& a) {
    app.add_option("--prune-visual", a.request.keepVisual,
                   "keep the round(KEEP·N) most salient visual tokens (0 < KEEP ≤ 1), in spatial "
                   "order; the decoder really runs on fewer tokens")
        ->check(numberWhere([](double k) { return k > 0 && k <= 1; },
                            "must be a number in (0, 1], e.g. 0.4", "0 < x <= 1"))
        ->group("Transforms");
    app.add_option("--saliency", a.saliency,
                   "what ranks the patches: attention (received from the text, default), saliency "
                   "(the blended patch/sequence map of docs/diagnostics.md §2) or feature-norm")
        ->check(oneOf({"attention", "saliency", "feature-norm"}))
        ->group("Transforms");
    app.add_option("--saliency-layer", a.request.saliencyLayer,
                   "use decoder layer L's attention for attention and saliency (default: all)")
        ->check(atLeast(0))
        ->group("Transforms");
    app.add_option("--fastv", a.request.fastvRatio,
                   "FastV (ECCV 2024): before decoder layer K (--fastv-layer), drop the fraction "
                   "R (0 ≤ R < 1) of the image tokens the last token attended least in layer "
                   "K − 1, for the rest of the run")
        ->check(numberWhere([](double r) { return r >= 0 && r < 1; },
                            "must be a fraction in [0, 1), e.g. 0.5", "0 <= x < 1"))
        ->group("Transforms");
    app.add_option("--fastv-layer", a.request.fastvLayer,
                   "FastV's K (default 2, the paper's; 1 for a two-layer model): layers 0 … "
                   "K − 1 see every token")
        ->check(atLeast(1))
        ->group("Transforms");
    app.add_option("--pdrop", a.request.pdropLambda,
                   "PyramidDrop (CVPR 2025): before decoder layers L/4, L/2 and 3L/4 keep the "
                   "fraction λ (0 < λ ≤ 1) of the image tokens held, ranked by the last token's "
                   "attention in that layer")
        ->check(numberWhere([](double l) { return l > 0 && l <= 1; },
                            "must be a fraction in (0, 1], e.g. 0.5", "0 < x <= 1"))
        ->group("Transforms");
    app.add_option("--visionzip", a.request.visionZip,
                   "VisionZip (CVPR 2025): the encoder sends N visual tokens, the most attended "
                   "in its last block (mean attention received: the encoder has no CLS token) "
                   "plus round(N·10/64) contextual tokens merging the rest by key cosine")
        ->check(atLeast(2))
        ->group("Transforms");
    app.add_option("--tome", a.request.tome,
                   "ToMe (ICLR 2023): in every vision block, after attention, merge the R "
                   "tokens with the most similar partners (bipartite soft matching on the keys, "
                   "size-weighted means, proportional attention)")
        ->check(atLeast(1))
        ->group("Transforms");
    app.add_option("--downsample", a.request.downsample,
                   "the downsample baseline: the image resized so the encoder emits about N "
                   "visual tokens (the nearest square grid), its position table interpolated")
        ->check(atLeast(1))
        ->group("Transforms");
    app.add_option("--dart", a.request.dart,
                   "DART (EMNLP 2025): before decoder layer K (--fastv-layer's default, 2) keep "
                   "4 image + 4 text pivots by key L1 norm and, per pivot, the floor(N/8) image "
                   "tokens least similar to it (4 + 8·floor(N/8) kept; the paper's N is 128)")
        ->check(atLeast(8))
        ->group("Transforms");
    app.add_option(
           "--prune-channels", a.request.pruneChannels,
           "remove the least sensitive fraction F (0 < F < 1) of each vision MLP's hidden "
           "channels, sensitivity |W·∂L/∂W| with L the log-likelihood of the baseline's tokens")
        ->check(numberWhere([](double f) { return f > 0 && f < 1; },
                            "must be a fraction in (0, 1), e.g. 0.3", "0 < x < 1"))
        ->group("Transforms");
}

void addDecoderOptions(CLI::App& app, WhatIfArgs& a) {
    app.add_option("--quant", a.quant,
                   "quantise the decoder's linears with AWQ scaling searched on the baseline's "
                   "activations; W8 runs libtorch's int8 kernels (its quantized engine on the "
                   "CPU, libtorch 2.x's int8 matmul on a GPU), W4 libtorch 2.x's int4 matmul "
                   "where the layer's shape suits it; without a kernel the codes are dequantised "
                   "per call, the gain predicted")
        ->check(oneOf({"w4", "w8"}))
        ->group("Transforms");
    app.add_option("--group", a.request.quantGroup,
                   "values per quantisation scale of the group-wise codes (default 128)")
        ->check(numberWhere([](double g) { return g > 0 && std::fmod(g, 2) == 0; },
                            "must be a positive even number, e.g. 128", "even > 0"))
        ->group("Transforms");
    app.add_option("--kv", a.kv,
                   "int4: merge visual tokens whose keys have cosine > the threshold, then hold "
                   "the KV cache as INT4")
        ->check(oneOf({"int4"}))
        ->group("Transforms");
    app.add_option("--kv-threshold", a.kvThreshold,
                   "the merge threshold (default 0.82; 1 merges nothing)")
        ->check(numberWhere([](double c) { return c > -1 && c <= 1; },
                            "must be a cosine in (-1, 1]", "-1 < x <= 1"))
        ->group("Transforms");
    app.add_option("--kv-method", a.kvMethod,
                   "a published KV-cache method on every decoder layer: streaming (StreamingLLM: "
                   "4 attention sinks + recent positions, re-indexed), h2o (heavy hitters by "
                   "attention received + recent, evicting every step), snapkv (the prefill's last "
                   "32 queries vote, avg-pooled, once), kivi (2-bit keys per channel, values per "
                   "token, group 32, 32 recent tokens full)")
        ->check(oneOf({"streaming", "h2o", "snapkv", "kivi"}))
        ->group("Transforms");
    app.add_option("--kv-budget", a.request.kvBudget,
                   "streaming, h2o, snapkv: the fraction of the prefill's positions each KV head "
                   "keeps (default 0.4, EffiVLM-Bench's)")
        ->check(numberWhere([](double f) { return f > 0 && f < 1; },
                            "must be a fraction in (0, 1), e.g. 0.4", "0 < x < 1"))
        ->group("Transforms");
    app.add_option("--kivi-bits", a.request.kiviBits, "KIVI's code width: 2 (default) or 4")
        ->check(CLI::IsMember({2, 4}))
        ->group("Transforms");
    app.add_option("--kivi-group", a.request.kiviGroup,
                   "KIVI's group (default 32): tokens per key scale, channels per value scale")
        ->check(CLI::IsMember({8, 16, 32}))
        ->group("Transforms");
    app.add_flag("--freeze-cold", a.request.freezeCold,
                 "freeze experts with fewer than --freeze-min activations in two consecutive "
                 "windows of --freeze-window tokens of the baseline (default 3 and 128)")
        ->group("Transforms");
    app.add_flag("--skip-experts", a.request.skipExperts,
                 "dynamic expert skipping (Not All Experts are Equal, ACL 2024): a token's "
                 "lower-ranked expert is not run when its weight is below β × the top-1's, β each "
                 "MoE layer's median w2/w1 over the baseline's tokens")
        ->group("Transforms");
    app.add_option("--keep-experts", a.request.keepExperts,
                   "static expert pruning (the same paper): each MoE layer keeps the R experts "
                   "whose output on the baseline's inputs is closest to the full layer's, trying "
                   "every subset; the others are released")
        ->check(atLeast(1))
        ->group("Transforms");
    app.add_option("--freeze-window", a.request.freezeWindow, "tokens per window (default 128)")
        ->check(numberWhere([](double w) { return w > 0; }, "must be a positive number of tokens",
                            "> 0"))
        ->group("Transforms");
    app.add_option("--freeze-min", a.request.freezeMin, "activations to stay warm (default 3)")
        ->check(atLeast(0))
        ->group("Transforms");
}

void addReportingOptions(CLI::App& app, WhatIfArgs& a) {
    app.add_option("--run", a.run,
                   "the baseline run (default: the first complete run without a transform)");
    app.add_option("--reps", a.reporting.reps,
                   "A/B repetitions (default 5): the baseline's configuration and the what-if's, "
                   "warmed up, then interleaved A B A B … N times each without probes; medians "
                   "with intervals, \"within noise\" when the speed-up's interval holds 1.0 "
                   "(0: no repetitions)")
        ->check(inRange(0, 1000));
    app.add_option("--format", a.reporting.format, "text (default) or json for the comparison")
        ->check(oneOf({"text", "json"}));
    app.add_option(
           "--progress", a.reporting.progress,
           "jsonl: one JSON object per phase on stdout (the comparison is then not printed)")
        ->check(oneOf({"jsonl"}));
}

// The words the options took, resolved into the request.
void resolveWords(WhatIfArgs& a) {
    a.request.saliency = *saliencySourceFromString(a.saliency); // oneOf checked it
    a.request.quantBits = a.quant == "w4" ? 4 : a.quant == "w8" ? 8 : 0;
    if (a.kv == "int4") a.request.kvThreshold = a.kvThreshold;
    if (!a.kvMethod.empty()) a.request.kvMethod = kvMethodFromString(a.kvMethod);
}

// The what-if's recorded run, written to the session and read back once (the
// baseline is already loaded) with its repetitions and, where it quantised,
// the latency predicted from both profiles — measured or not, it is stored.
struct Recorded {
    CaptureResult result;
    RunData data;
};

Result<Recorded> recordWhatIf(const std::string& path, Capturer& capturer, const RunTransform& t,
                              const ProgressFn& progress, int reps,
                              std::vector<RepetitionRow> repetitions,
                              const ModelTransformOutcome& outcome, const RunData& base) {
    auto writer = SessionWriter::open(path, SessionWriter::Mode::Append);
    if (!writer) return writer.error();
    // After the repetitions, the recorded run fills the progress bar's last fifth.
    const ProgressFn runProgress = progress && reps > 0 ? ProgressFn([&](CaptureProgress p) {
        p.fraction = 0.8 + 0.2 * p.fraction;
        progress(p);
    })
                                                        : progress;
    auto result = capturer.run(**writer, true, runProgress, t);
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
    if (!outcome.quantised.empty())
        if (auto p = outcome.int8Kernels ? predictFromKernelRatios(base, *w, outcome.quantised)
                                         : predictQuantisedLatency(base, *w, outcome.quantised)) {
            extras.runMetrics.push_back(RunMetricRow{
                "latency.predicted_ns", double(p->wallNs), "ns", "predicted",
                (outcome.int8Kernels   ? "a check of the cost model, the int8 kernels having run: "
                 : outcome.int4Kernels ? "a check of the cost model, the int4 kernel having run: "
                 : outcome.int8Matmul  ? "a check of the cost model, the int8 matmul having run: "
                                       : "") +
                    p->note});
            w->runMetrics.push_back(extras.runMetrics.back());
        }
    if (!extras.empty()) (*writer)->submit(std::move(extras));
    if (auto closed = (*writer)->close(); !closed) return closed.error();
    return Recorded{std::move(*result), std::move(*w)};
}

// The comparison in the chosen format, or (--progress jsonl) the "done" event.
int printOutcome(const Comparison& c, const CaptureResult& result, int64_t baseRun,
                 const std::string& path, const Reporting& reporting) {
    if (result.status != RunStatus::Complete)
        return fail(1, "the what-if was stopped before it finished; " + path +
                           " keeps it, marked incomplete");
    if (reporting.progress == "jsonl") {
        const nlohmann::json j{{"event", "done"},
                               {"run", result.run},
                               {"baseline_run", baseRun},
                               {"status", toString(result.status)},
                               {"out", path},
                               {"wall_ms", double(result.wallNs) / 1e6}};
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    const std::string out =
        reporting.format == "json" ? formatComparisonJson(c) + "\n" : formatComparisonText(c);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

// One what-if of `request` against the loaded baseline: planned, built,
// transformed, measured A/B and recorded in `path` (which no reader holds).
Result<Recorded> runWhatIf(const std::string& path, const CaptureOptions& options,
                           const RunData& base, const WhatIfRequest& request,
                           const Reporting& reporting) {
    auto prepared = prepareCapture(options);
    if (!prepared) return prepared.error();
    const PreparedCapture baselinePrep = *prepared; // the A arm's model is built from the same
    auto plan = planWhatIf(request, base, prepared->config);
    if (!plan) return plan.error();
    const ModelTransforms& mt = plan->model;
    RunTransform t = plan->run;
    auto capturer = Capturer::create(std::move(prepared.value()));
    if (!capturer) return capturer.error();
    // Calibration and sensitivity passes run before the what-if: say so.
    if (reporting.progress == "jsonl" && mt.touchesModel())
        jsonlProgress()({CaptureProgress::Stage::Transforming});
    auto outcome = (*capturer)->transformModel(mt);
    if (!outcome) return outcome.error();
    t.metrics = outcome->metrics;
    if (!outcome->visualPatches.empty()) t.keepPatches = outcome->visualPatches;
    const ProgressFn progress = reporting.progress == "jsonl" ? jsonlProgress() : ProgressFn();
    auto arms = runBothArms(baselinePrep, **capturer, t, mt, reporting.reps, progress);
    if (!arms) return arms.error();
    for (const auto& m : arms->resampling)
        t.metrics.push_back(m);
    return recordWhatIf(path, **capturer, t, progress, reporting.reps, std::move(arms->repetitions),
                        *outcome, base);
}

// What every what-if starts from: the baseline's rows and capture options,
// read once; the reader is closed before anything is written.
struct Baseline {
    RunInfo info;
    RunData data;
    CaptureOptions options;
};

Result<Baseline> loadBaseline(const std::string& path, std::optional<int64_t> run,
                              const WhatIfRequest& request) {
    auto reader = SessionReader::open(path);
    if (!reader) return reader.error();
    auto runs = (*reader)->runs();
    if (!runs) return runs.error();
    auto chosen = chooseBaseline(*runs, run, path);
    if (!chosen) return makeError(ErrorCode::BadInput, chosen.error().message);
    Baseline b{**chosen, {}, {}};
    if (auto ok = checkBaseline(b.info, request); !ok) return ok.error();
    auto data = loadRunData(**reader, b.info.id);
    if (!data) return data.error();
    b.data = std::move(data.value());
    auto options = baselineOptions(**reader, b.info);
    if (!options) return options.error();
    b.options = std::move(options.value());
    return b;
}

} // namespace

int whatIfCommand(const std::vector<std::string>& argv) {
    CommandLine cli(
        "whatif", "mvprof-cli whatif FILE TRANSFORM… [options] — run a what-if against a baseline",
        kFooter);
    WhatIfArgs args;
    addVisualOptions(cli.app, args);
    addDecoderOptions(cli.app, args);
    addReportingOptions(cli.app, args);
    SweepArgs sweep;
    addSweepOptions(cli.app, sweep);
    // Every request is checked before anything runs, so a bad one writes nothing.
    if (auto exit = cli.parse(argv)) return *exit;
    if (cli.positional.size() != 1)
        return fail(2, "whatif needs exactly one session file (see --help)");
    const std::string path = cli.positional[0];
    resolveWords(args);
    if (args.request.empty() && sweep.methods.empty())
        return fail(
            2,
            "choose a transform: --prune-visual KEEP, --fastv R, --pdrop λ, --dart N, --visionzip "
            "N, --tome R, --downsample N, "
            "--quant w4|w8, --kv int4, --kv-method M, --freeze-cold, --skip-experts, "
            "--keep-experts R or --prune-channels F, or --sweep METHODS (see --help)");
    if (!sweep.methods.empty() && !args.request.empty())
        return fail(2, "--sweep runs each method on its own: give no other transform with it");
    auto base = loadBaseline(path, args.run, args.request);
    if (!base) return fail(base.error().exitCode(), base.error().message);
    base->options.cancel = installCancelHandlers();
    if (!sweep.methods.empty()) {
        // The sweep reports its own progress, a line per point.
        Reporting quiet = args.reporting;
        quiet.progress.clear();
        const SweepRun one = [&](const WhatIfRequest& r) -> Result<RunData> {
            auto w = runWhatIf(path, base->options, base->data, r, quiet);
            if (!w) return w.error();
            return std::move(w->data);
        };
        return runSweep(base->data, sweep, one, args.reporting.format,
                        args.reporting.progress == "jsonl");
    }
    auto recorded = runWhatIf(path, base->options, base->data, args.request, args.reporting);
    if (!recorded) return fail(recorded.error().exitCode(), recorded.error().message);
    return printOutcome(compareRuns(base->data, recorded->data), recorded->result, base->info.id,
                        path, args.reporting);
}

} // namespace mvp::cli
