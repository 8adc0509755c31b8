#include "app/cli/WhatIfSweep.h"

#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "capture/whatif/Downsample.h"
#include "capture/whatif/Plan.h"
#include "capture/whatif/ToMe.h"
#include "capture/whatif/TokenDrop.h"
#include "capture/whatif/VisionZip.h"
#include "core/Format.h"
#include "core/compare/Comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp::cli {

namespace {
// The paper grid for LLaVA-1.5's 576 tokens (docs/whatif-methods.md §0).
constexpr double kPaperGrid[] = {192, 128, 64};
constexpr double kPaperTokens = 576;
// KV budgets as fractions of the prefill: EffiVLM-Bench's default 0.4, then
// halving (mvprof's choice of grid).
constexpr double kKvGrid[] = {0.4, 0.2, 0.1};

bool isKvMethod(const std::string& method) {
    return kvMethodFromString(method).has_value();
}

struct Model {
    int layers = 0;
    int64_t visual = 0, prefill = 0, headDim = 0;
    int visionBlocks = 0;
    int floatBytes = 4;
};

Model modelOf(const RunData& base) {
    Model m;
    const auto cfg = nlohmann::json::parse(base.run.configJson, nullptr, false);
    if (cfg.is_object() && cfg.contains("vision"))
        m.visionBlocks = cfg["vision"].value("layers", 0);
    if (cfg.is_object() && cfg.contains("llm")) {
        m.layers = cfg["llm"].value("layers", 0);
        m.headDim = cfg["llm"].value("dim", 0) / std::max(1, cfg["llm"].value("heads", 1));
    }
    m.prefill = std::count_if(base.tokens.begin(), base.tokens.end(),
                              [](const TokenRow& t) { return t.phase == Phase::Prefill; });
    m.floatBytes = base.run.dtype == "float32" ? 4 : 2;
    m.visual = std::count_if(base.tokens.begin(), base.tokens.end(), [](const TokenRow& t) {
        return t.phase == Phase::Prefill && t.modality == Modality::Visual;
    });
    return m;
}

// One cell of the sweep: a method at a budget, run or refused.
struct Point {
    std::string method, convention, parameter, error;
    double budget = 0;
    std::optional<Comparison> comparison;
    std::optional<double>
        tokensHeld; // layer-averaged, or KV positions per head, as the run held them
    std::optional<double> kvBytesRatio; // KV methods: the what-if's KV bytes ÷ the baseline's
};

// The request that spends `budget` tokens with `method`, and its parameter in words.
Result<std::pair<WhatIfRequest, std::string>> requestFor(const std::string& method, double budget,
                                                         const Model& m) {
    WhatIfRequest r;
    if (const auto kv = kvMethodFromString(method)) {
        if (!(budget > 0 && budget < 1))
            return makeError(ErrorCode::BadInput,
                             "a KV budget is a fraction of the prefill in (0, 1), not " +
                                 fmt("%g", budget));
        KvMethod method;
        method.kind = *kv;
        method.budget = budget;
        if (auto ok = checkKvMethod(method, m.prefill, m.headDim, m.floatBytes); !ok)
            return ok.error();
        r.kvMethod = kv;
        r.kvBudget = budget;
        return std::pair{r, "fraction " + fmt("%.3g", budget)};
    }
    if (method == "downsample") {
        const int grid = int(std::lround(std::sqrt(double(m.visual))));
        auto g = downsampleGrid(grid, int(std::lround(budget)));
        if (!g) return g.error();
        r.downsample = *g * *g;
        return std::pair{r, std::to_string(*g) + " × " + std::to_string(*g) + " grid"};
    }
    if (method == "tome") {
        const int64_t tokens = std::llround(budget);
        auto schedule = tomeScheduleForBudget(m.visual, m.visionBlocks, tokens);
        if (!schedule) return schedule.error();
        r.tomeTokens = int(tokens);
        return std::pair{r, "r " + std::to_string(schedule->front()) + " per block"};
    }
    if (method == "visionzip") {
        const auto tokens = int64_t(std::llround(budget));
        auto split = visionZipSplit(m.visual, tokens);
        if (!split) return split.error();
        r.visionZip = int(tokens);
        return std::pair{r, std::to_string(split->dominant) + " dom + " +
                                std::to_string(split->contextual) + " ctx"};
    }
    if (method == "prune") {
        auto keep = keepFractionForBudget(m.visual, budget);
        if (!keep) return keep.error();
        r.keepVisual = *keep;
        return std::pair{r, "keep " + fmt("%.4g", *keep)};
    }
    if (method == "dart") { // DART's own count: the image tokens kept after its cut
        const int k = std::min(2, std::max(1, m.layers - 1));
        auto plan = planDart(m.layers, m.visual, k, std::llround(budget));
        if (!plan) return plan.error();
        r.dart = int(std::llround(budget));
        r.fastvLayer = k;
        return std::pair{r, "layer " + std::to_string(k) + ", " + std::to_string(plan->perPivot) +
                                " per pivot"};
    }
    if (method == "fastv") {
        const int k = std::min(2, std::max(1, m.layers - 1));
        auto ratio = fastVRatioForBudget(m.layers, m.visual, k, budget);
        if (!ratio) return ratio.error();
        r.fastvRatio = *ratio;
        r.fastvLayer = k;
        return std::pair{r, "K " + std::to_string(k) + ", R " + fmt("%.4g", *ratio)};
    }
    auto lambda = pyramidDropLambdaForBudget(m.layers, m.visual, budget);
    if (!lambda) return lambda.error();
    r.pdropLambda = *lambda;
    return std::pair{r, "λ " + fmt("%.4g", *lambda)};
}

void printLine(const nlohmann::json& j) {
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
}

std::string padRight(std::string s, size_t n) {
    if (s.size() < n) s.append(n - s.size(), ' ');
    return s;
}

std::string speedupText(const Comparison& c) {
    if (!c.ab) return "n/a (--reps 0)";
    const auto& s = c.ab->total.speedup;
    return fmt("%.3f×", s.median) + " [" + fmt("%.3f", s.low) + ", " + fmt("%.3f", s.high) + "]" +
           (c.ab->total.withinNoise() ? " within noise" : "");
}

std::string textTable(const RunData& base, const Model& m, const std::vector<Point>& points,
                      bool kv) {
    std::string o = "Sweep against baseline run " + std::to_string(base.run.id) + " (" +
                    std::to_string(m.visual) + " image tokens, " + std::to_string(m.layers) +
                    " decoder layers; " +
                    (kv ? "budgets: the fraction of the prefill's positions each KV head keeps)\n"
                        : "budgets: tokens sent before the LLM, layer-averaged inside it)\n") +
                    "  method     budget  convention      parameter          run  " +
                    (kv ? "pos./head" : "tokens held") + "  total speed-up (A/B, measured)       " +
                    (kv ? "KV bytes*" : "prefill FLOPs*") + "  KL mean   top-1  match\n";
    for (const auto& p : points) {
        o += "  " + padRight(p.method, 10) +
             (kv ? fmt("%7.3g", p.budget) : fmt("%7.0f", p.budget)) + "  " +
             padRight(p.convention, 15) + " ";
        if (!p.comparison) {
            o += "not run: " + p.error + "\n";
            continue;
        }
        const Comparison& c = *p.comparison;
        const std::optional<double> ratio =
            kv ? p.kvBytesRatio
               : (c.prefillFlops ? std::optional<double>(c.prefillFlops->ratio()) : std::nullopt);
        o += padRight(p.parameter, 18) + fmt("%4.0f", double(c.run)) +
             fmt(kv ? "%11.0f" : "%13.1f",
                 p.tokensHeld ? *p.tokensHeld : double(c.runVisualTokens)) +
             "  " + padRight(speedupText(c), 36) +
             (ratio ? fmt(kv ? "%9.4f" : "%14.4f", *ratio)
                    : std::string(kv ? "      n/a" : "           n/a")) +
             fmt("%10.4g", c.klMean) + fmt("%7.0f%%", 100 * c.top1Agreement) +
             fmt("%6.0f%%", 100 * c.tokenMatch) + "\n";
    }
    return o +
           (kv ? "  (* KV bytes: the what-if's cache ÷ the baseline's at the end of the run, "
                 "measured; KL, top-1 agreement and token match measured against the "
                 "baseline)\n"
               : "  (* prefill FLOPs: the what-if's ÷ the baseline's, estimated from op shapes; "
                 "KL, top-1 agreement and token match measured against the baseline)\n");
}

nlohmann::json jsonTable(const RunData& base, const Model& m, const std::vector<Point>& points,
                         bool kv) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& p : points) {
        nlohmann::json j{{"method", p.method}, {"budget", p.budget}, {"convention", p.convention}};
        if (!p.comparison) {
            j["error"] = p.error;
            rows.push_back(j);
            continue;
        }
        const Comparison& c = *p.comparison;
        j["parameter"] = p.parameter;
        j["run"] = c.run;
        j[kv ? "kv_positions_per_head_measured" : "tokens_held_measured"] =
            p.tokensHeld ? *p.tokensHeld : double(c.runVisualTokens);
        if (c.ab)
            j["speedup"] = {{"median", c.ab->total.speedup.median},
                            {"ci95", {c.ab->total.speedup.low, c.ab->total.speedup.high}},
                            {"reps", c.ab->total.speedup.n},
                            {"within_noise", c.ab->total.withinNoise()}};
        if (kv)
            j["kv_bytes_ratio_measured"] =
                p.kvBytesRatio ? nlohmann::json(*p.kvBytesRatio) : nlohmann::json("n/a");
        else
            j["prefill_flops_ratio_estimated"] =
                c.prefillFlops ? nlohmann::json(c.prefillFlops->ratio()) : nlohmann::json("n/a");
        j["fidelity_measured"] = {{"kl_mean", c.klMean},
                                  {"top1_agreement", c.top1Agreement},
                                  {"token_match", c.tokenMatch}};
        rows.push_back(j);
    }
    return {{"baseline_run", base.run.id},
            {"visual_tokens", m.visual},
            {"decoder_layers", m.layers},
            {"budget_unit", kv ? "fraction of the prefill per KV head" : "image tokens"},
            {"points", rows}};
}

// What a run held and stored, for its row.
void fillFromRun(Point& p, const RunData& base, const RunData& w) {
    if (const auto* held = findMetric(w, "tokens.layer_averaged")) p.tokensHeld = held->value;
    if (p.method == "dart")
        for (const auto& m : w.runMetrics)
            if (m.name.rfind("tokens.kept.layer_", 0) == 0) p.tokensHeld = m.value;
    if (const auto* held = findMetric(w, "kv.positions_per_head")) p.tokensHeld = held->value;
    const auto* a = findMetric(base, "kv.bytes");
    const auto* b = findMetric(w, "kv.bytes");
    if (a && b && a->value > 0) p.kvBytesRatio = b->value / a->value;
}
} // namespace

void addSweepOptions(CLI::App& app, SweepArgs& a) {
    app.add_option(
           "--sweep", a.methods,
           "run each of these methods at each --budgets value, one table of all: the "
           "visual-token methods prune (--prune-visual), visionzip, tome, downsample, fastv, "
           "pdrop, dart, or the KV methods streaming, h2o, snapkv (--kv-method)")
        ->delimiter(',')
        ->check(oneOf({"prune", "visionzip", "tome", "downsample", "fastv", "pdrop", "dart",
                       "streaming", "h2o", "snapkv"}))
        ->group("Sweeps");
    app.add_option("--budgets", a.budgets,
                   "visual-token methods: image tokens per budget (default 192,128,64 of 576, "
                   "scaled to the model's tokens), sent to the LLM for prune, visionzip, tome and "
                   "downsample (the nearest square), averaged over the decoder layers for fastv "
                   "and pdrop, as the papers count them, kept after the cut for dart (its "
                   "paper's count); KV methods: the "
                   "fraction of the prefill each KV head keeps (default 0.4,0.2,0.1)")
        ->delimiter(',')
        ->check(numberWhere([](double b) { return b > 0; }, "must be a positive number", "> 0"))
        ->group("Sweeps");
}

int runSweep(const RunData& base, const SweepArgs& sweep, const SweepRun& run,
             const std::string& format, bool jsonl) {
    const Model m = modelOf(base);
    const bool kv = std::any_of(sweep.methods.begin(), sweep.methods.end(), isKvMethod);
    if (kv && !std::all_of(sweep.methods.begin(), sweep.methods.end(), isKvMethod))
        return fail(2, "sweep the visual-token methods and the KV methods separately: their "
                       "budgets count different things (image tokens, a fraction of the KV cache)");
    std::vector<double> budgets = sweep.budgets;
    if (budgets.empty() && kv) budgets.assign(std::begin(kKvGrid), std::end(kKvGrid));
    if (budgets.empty())
        for (const double b : kPaperGrid)
            budgets.push_back(std::round(b * double(m.visual) / kPaperTokens));
    std::vector<Point> points;
    const size_t total = sweep.methods.size() * budgets.size();
    int64_t lastRun = 0;
    for (const auto& method : sweep.methods)
        for (const double budget : budgets) {
            if (jsonl)
                printLine({{"event", "progress"},
                           {"phase", "sweep"},
                           {"step", points.size() + 1},
                           {"steps", total},
                           {"fraction", double(points.size()) / double(total)}});
            Point p;
            p.method = method;
            p.budget = budget;
            const bool sent = method == "prune" || method == "visionzip" || method == "tome" ||
                              method == "downsample";
            p.convention = kv                 ? "per KV head"
                           : sent             ? "sent"
                           : method == "dart" ? "kept after cut"
                                              : "layer-averaged";
            auto request = requestFor(method, budget, m);
            if (!request) {
                p.error = request.error().message;
                points.push_back(std::move(p));
                continue;
            }
            p.parameter = request->second;
            auto w = run(request->first);
            if (!w)
                return fail(w.error().exitCode(), method + " at " + fmt("%g", budget) +
                                                      " tokens: " + w.error().message +
                                                      " (the points before it are stored)");
            fillFromRun(p, base, *w);
            lastRun = w->run.id;
            p.comparison = compareRuns(base, *w);
            points.push_back(std::move(p));
        }
    if (jsonl) {
        printLine({{"event", "sweep"}, {"table", jsonTable(base, m, points, kv)}});
        printLine({{"event", "done"}, {"run", lastRun}});
        return 0;
    }
    const std::string out = format == "json" ? jsonTable(base, m, points, kv).dump(2) + "\n"
                                             : textTable(base, m, points, kv);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace mvp::cli
