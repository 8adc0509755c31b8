// `mvprof-cli whatif`: a second real run of a baseline's inputs with one or
// more methods applied, stored in the same session and compared with it; or
// a sweep of methods against budgets. The options come from the method
// catalogue (core/whatif/Methods.h); the work is capture/run/WhatIf.h's and
// capture/run/Sweep.h's. This file parses and prints.
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "app/cli/Progress.h"
#include "capture/run/EvalWhatIf.h"
#include "capture/run/Sweep.h"
#include "capture/run/WhatIf.h"
#include "core/Format.h"
#include "core/compare/Comparison.h"
#include "core/compare/EvalComparison.h"
#include "core/report/ComparisonText.h"
#include "core/report/EvalText.h"
#include "core/report/SweepText.h"

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
their speed-up interval excludes 1.0 the comparison warns that the machine was unsteady.
Methods and their budgets: docs/whatif.md.)";

// How the command runs and reports, beside what it asks for.
struct Reporting {
    int reps = 5;
    std::string format = "text";
    std::string progress; // "" or "jsonl"
};

struct WhatIfArgs {
    WhatIfRequest request;
    Reporting reporting;
    std::optional<int64_t> run;
    std::string saliency = "attention";
    std::vector<std::string> sweep; // method keys
    std::vector<double> budgets;
    std::string eval; // an eval set: the what-if over its items (docs/eval.md)
    bool noItemHeatmaps = false;
};

// A Fraction or Count method's value, checked against its catalogue range.
CLI::Validator valueCheck(const MethodSpec& m) {
    const bool count = m.kind == ValueKind::Count;
    const std::string says =
        count ? "must be a whole number, " + m.range.text()
              : "must be a number in " + m.range.text() + ", e.g. " + fmt("%g", m.preset);
    return numberWhere(
        [range = m.range, count](double v) {
            return range.contains(v) && (!count || v == std::floor(v));
        },
        says, m.range.text());
}

// One option per method (a Word option per shared name), from the catalogue.
void addMethodOptions(CLI::App& app, WhatIfRequest& request) {
    for (const WordOption& w : wordOptions()) {
        std::string help = std::string(w.help) + ": ";
        const auto words = optionWords(w.option);
        for (const auto& word : words)
            help += (word == words.front() ? "" : "; ") +
                    std::string(methodSpec(*methodFromWord(w.option, word)).help);
        const std::string option = w.option;
        app.add_option_function<std::string>(
               option,
               [&request, option](const std::string& word) {
                   request.methods[*methodFromWord(option, word)] = 1;
               },
               help)
            ->check(oneOf(words))
            ->group("Methods");
    }
    for (const MethodSpec& m : whatIfMethods()) {
        const Method id = m.method;
        if (m.kind == ValueKind::Switch)
            app.add_flag_function(
                   m.option, [&request, id](int64_t n) { if (n) request.methods[id] = 1; }, m.help)
                ->group("Methods");
        else if (m.kind == ValueKind::Count)
            app.add_option_function<int64_t>(
                   m.option, [&request, id](int64_t n) { request.methods[id] = double(n); },
                   m.help)
                ->check(valueCheck(m))
                ->group("Methods");
        else if (m.kind == ValueKind::Fraction)
            app.add_option_function<double>(
                   m.option, [&request, id](double v) { request.methods[id] = v; }, m.help)
                ->check(valueCheck(m))
                ->group("Methods");
    }
}

// The options that refine a method (MethodOptions).
void addRefinements(CLI::App& app, WhatIfArgs& a) {
    MethodOptions& o = a.request.options;
    app.add_option("--saliency", a.saliency,
                   "--prune-visual: what ranks the patches: attention (received from the text, "
                   "default), saliency (the blended patch/sequence map of docs/diagnostics.md §2) "
                   "or feature-norm")
        ->check(oneOf({"attention", "saliency", "feature-norm"}))
        ->group("Method options");
    app.add_option("--saliency-layer", o.saliencyLayer,
                   "--prune-visual: use decoder layer L's attention for attention and saliency "
                   "(default: all)")
        ->check(atLeast(0))
        ->group("Method options");
    app.add_option("--fastv-layer", o.decoderLayer,
                   "FastV's K (default 2, the paper's; 1 for a two-layer model): layers 0 … K − 1 "
                   "see every token; DART cuts there too")
        ->check(atLeast(1))
        ->group("Method options");
    app.add_option("--group", o.quantGroup,
                   "--quant: values per quantisation scale of the group-wise codes (default 128)")
        ->check(numberWhere([](double g) { return g > 0 && std::fmod(g, 2) == 0; },
                            "must be a positive even number, e.g. 128", "even > 0"))
        ->group("Method options");
    app.add_option("--kv-threshold", o.kvThreshold,
                   "--kv int4: the merge threshold (default 0.82; 1 merges nothing)")
        ->check(numberWhere([](double c) { return c > -1 && c <= 1; },
                            "must be a cosine in (-1, 1]", "-1 < x <= 1"))
        ->group("Method options");
    app.add_option("--kv-budget", o.kvBudget,
                   "streaming, h2o, snapkv: the fraction of the prefill's positions each KV head "
                   "keeps (default 0.4, EffiVLM-Bench's)")
        ->check(numberWhere([](double f) { return f > 0 && f < 1; },
                            "must be a fraction in (0, 1), e.g. 0.4", "0 < x < 1"))
        ->group("Method options");
    app.add_option("--kivi-bits", o.kiviBits, "KIVI's code width: 2 (default) or 4")
        ->check(CLI::IsMember({2, 4}))
        ->group("Method options");
    app.add_option("--kivi-group", o.kiviGroup,
                   "KIVI's group (default 32): tokens per key scale, channels per value scale")
        ->check(CLI::IsMember({8, 16, 32}))
        ->group("Method options");
    app.add_option("--freeze-window", o.freezeWindow,
                   "--freeze-cold: tokens per window (default 128)")
        ->check(numberWhere([](double w) { return w > 0; }, "must be a positive number of tokens",
                            "> 0"))
        ->group("Method options");
    app.add_option("--freeze-min", o.freezeMin,
                   "--freeze-cold: activations to stay warm (default 3)")
        ->check(atLeast(0))
        ->group("Method options");
}

void addSweepOptions(CLI::App& app, WhatIfArgs& a) {
    std::vector<std::string> swept, tokens, kv;
    for (const MethodSpec& m : whatIfMethods()) {
        if (m.budget == Budget::None) continue;
        swept.emplace_back(m.key);
        (m.budget == Budget::KvFraction ? kv : tokens).emplace_back(m.key);
    }
    auto join = [](const std::vector<std::string>& words) {
        std::string out;
        for (const auto& w : words)
            out += (out.empty() ? "" : ", ") + w;
        return out;
    };
    app.add_option("--sweep", a.sweep,
                   "run each of these methods at each --budgets value, one table of all: the "
                   "visual-token methods " + join(tokens) + ", or the KV methods " + join(kv))
        ->delimiter(',')
        ->check(oneOf(swept))
        ->group("Sweeps");
    // What a budget counts, method by method (docs/whatif-methods.md §0).
    std::string counts;
    for (const Budget b : {Budget::TokensSent, Budget::LayerAveraged, Budget::KeptAfterCut}) {
        std::vector<std::string> keys;
        for (const MethodSpec& m : whatIfMethods())
            if (m.budget == b) keys.emplace_back(m.key);
        counts += std::string(counts.empty() ? "" : "; ") + toString(b) + " for " + join(keys);
    }
    app.add_option("--budgets", a.budgets,
                   "visual-token methods: image tokens per budget (default 192,128,64 of 576, "
                   "scaled to the model's tokens), as the papers count them: " + counts +
                       "; KV methods: the fraction of the prefill each KV head keeps (default "
                       "0.4,0.2,0.1)")
        ->delimiter(',')
        ->check(numberWhere([](double b) { return b > 0; }, "must be a positive number", "> 0"))
        ->group("Sweeps");
}

void addEvalOption(CLI::App& app, WhatIfArgs& a) {
    app.add_option("--eval", a.eval,
                   "SET.jsonl: run the baseline's configuration and the what-if over every item "
                   "of an eval set (docs/eval.md) in this process, item by item; both runs are "
                   "stored with per-item rows, and the comparison gives accuracy with Wilson "
                   "intervals, the paired change (Agresti–Min, exact McNemar), latency per item "
                   "and fidelity. --reps does not apply: every item is a paired A/B pass. With "
                   "--sweep, every point runs over the set (accuracy against latency).")
        ->group("Eval sets");
    app.add_flag("--no-item-heatmaps", a.noItemHeatmaps,
                 "--eval: skip the extra untimed pass per item and arm that observes the "
                 "model's attention (the built-in model's, or a TorchScript model's through its "
                 "attention roles) for the item's answer_attention heatmap (the GUI's items tab "
                 "shows them)")
        ->group("Eval sets");
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

// What to say when no method is named.
std::string methodList() {
    std::string list;
    for (const WordOption& w : wordOptions()) {
        std::string words;
        for (const auto& word : optionWords(w.option))
            words += (words.empty() ? "" : "|") + word;
        list += std::string(w.option) + " " + words + ", ";
    }
    for (const MethodSpec& m : whatIfMethods())
        if (m.kind != ValueKind::Word) list += std::string(m.option) + ", ";
    return list;
}

void printLine(const std::string& json) {
    std::printf("%s\n", json.c_str());
    std::fflush(stdout);
}

// The comparison in the chosen format, or (--progress jsonl) the "done" event.
int printOutcome(const Comparison& c, const CaptureResult& result, int64_t baseRun,
                 const std::string& path, const Reporting& reporting) {
    if (result.status != RunStatus::Complete)
        return fail(1, "the what-if was stopped before it finished; " + path +
                           " keeps it, marked incomplete");
    if (reporting.progress == "jsonl") {
        printLine(nlohmann::json{{"event", "done"},
                                 {"run", result.run},
                                 {"baseline_run", baseRun},
                                 {"status", toString(result.status)},
                                 {"out", path},
                                 {"wall_ms", double(result.wallNs) / 1e6}}
                      .dump());
        return 0;
    }
    const std::string out =
        reporting.format == "json" ? formatComparisonJson(c) + "\n" : formatComparisonText(c);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

// The what-if over an eval set; progress per item on stderr (or jsonl on stdout).
int evalWhatIf(const std::string& path, const WhatIfBaseline& base, const WhatIfArgs& a) {
    auto set = readEvalSet(a.eval);
    if (!set) return fail(set.error().exitCode(), set.error().message);
    const bool jsonl = a.reporting.progress == "jsonl";
    const EvalItemProgress progress = [&](int done, int total) {
        if (jsonl)
            printLine(nlohmann::json{{"event", "progress"},
                                     {"phase", "eval"},
                                     {"step", done},
                                     {"steps", total},
                                     {"fraction", double(done) / double(total)}}
                          .dump());
    };
    auto runs = runEvalWhatIf(path, base, a.request, *set, {progress, !a.noItemHeatmaps});
    if (!runs) return fail(runs.error().exitCode(), runs.error().message);
    const EvalComparison c = compareEval(runs->baseline, runs->whatIf);
    if (jsonl) {
        printLine(nlohmann::json{{"event", "done"},
                                 {"run", c.whatIf.run},
                                 {"baseline_run", c.baseline.run},
                                 {"out", path}}
                      .dump());
    } else {
        const std::string out = a.reporting.format == "json" ? formatEvalJson(c, a.eval) + "\n"
                                                             : formatEvalText(c, a.eval);
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    if (!c.whatIf.complete())
        return fail(1, "stopped before the last item; " + path +
                           " keeps the items done, both runs marked incomplete");
    return 0;
}

// Every method at every budget; each what-if reports no progress of its own
// (a progress line per point instead, with --progress jsonl).
int sweep(const std::string& path, const WhatIfBaseline& base, const WhatIfArgs& a) {
    std::optional<EvalSet> set;
    if (!a.eval.empty()) {
        auto read = readEvalSet(a.eval);
        if (!read) return fail(read.error().exitCode(), read.error().message);
        set = std::move(read.value());
    }
    std::vector<Method> methods;
    for (const auto& key : a.sweep)
        methods.push_back(*methodFromKey(key)); // --sweep's oneOf checked it
    if (auto ok = checkSweepMethods(methods); !ok) return fail(2, ok.error().message);
    const bool jsonl = a.reporting.progress == "jsonl";
    const SweepRun one = [&](const WhatIfRequest& r) -> Result<RunData> {
        auto w = runWhatIf(path, base, r, a.reporting.reps);
        if (!w) return w.error();
        return std::move(w->data);
    };
    const SweepProgress progress = [&](size_t point, size_t points) {
        if (jsonl)
            printLine(nlohmann::json{{"event", "progress"},
                                     {"phase", "sweep"},
                                     {"step", point + 1},
                                     {"steps", points},
                                     {"fraction", double(point) / double(points)}}
                          .dump());
    };
    const EvalSweepRun overSet = [&](const WhatIfRequest& r) -> Result<EvalComparison> {
        auto runs = runEvalWhatIf(path, base, r, *set, {{}, !a.noItemHeatmaps});
        if (!runs) return runs.error();
        return compareEval(runs->baseline, runs->whatIf);
    };
    auto table = a.eval.empty() ? runSweep(base.data, methods, a.budgets, one, progress)
                                : runEvalSweep(base.data, methods, a.budgets, overSet, progress);
    if (!table) return fail(table.error().exitCode(), table.error().message);
    if (jsonl) {
        int64_t last = 0;
        for (const auto& p : table->points)
            if (p.comparison) last = p.comparison->run;
            else if (p.eval) last = p.eval->whatIf.run;
        printLine("{\"event\": \"sweep\", \"table\": " + sweepJsonLine(*table) + "}");
        printLine(nlohmann::json{{"event", "done"}, {"run", last}}.dump());
        return 0;
    }
    const std::string out = a.reporting.format == "json" ? formatSweepJson(*table) + "\n"
                                                         : formatSweepText(*table);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace

int whatIfCommand(const std::vector<std::string>& argv) {
    CommandLine cli("whatif",
                    "mvprof-cli whatif FILE METHOD… [options] — run a what-if against a baseline",
                    kFooter);
    WhatIfArgs args;
    addMethodOptions(cli.app, args.request);
    addRefinements(cli.app, args);
    addSweepOptions(cli.app, args);
    addEvalOption(cli.app, args);
    addReportingOptions(cli.app, args);
    // Every request is checked before anything runs, so a bad one writes nothing.
    if (auto exit = cli.parse(argv)) return *exit;
    if (cli.positional.size() != 1)
        return fail(2, "whatif needs exactly one session file (see --help)");
    const std::string path = cli.positional[0];
    args.request.options.saliency = *saliencySourceFromString(args.saliency); // oneOf checked it
    if (args.request.empty() && args.sweep.empty())
        return fail(2, "choose a method: " + methodList() + "or --sweep METHODS (see --help)");
    if (!args.sweep.empty() && !args.request.empty())
        return fail(2, "--sweep runs each method on its own: give no other method with it");
    if (auto ok = checkRequest(args.request); !ok) return fail(2, ok.error().message);
    auto base = loadWhatIfBaseline(path, args.run, args.request);
    if (!base) return fail(base.error().exitCode(), base.error().message);
    base->options.cancel = installCancelHandlers();
    if (!args.sweep.empty()) return sweep(path, *base, args);
    if (!args.eval.empty()) return evalWhatIf(path, *base, args);
    const ProgressFn progress = args.reporting.progress == "jsonl" ? jsonlProgress() : ProgressFn();
    auto recorded = runWhatIf(path, *base, args.request, args.reporting.reps, progress);
    if (!recorded) return fail(recorded.error().exitCode(), recorded.error().message);
    return printOutcome(compareRuns(base->data, recorded->data), recorded->result, base->info.id,
                        path, args.reporting);
}

} // namespace mvp::cli
