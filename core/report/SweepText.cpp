#include "core/report/SweepText.h"

#include "core/Format.h"

#include <nlohmann/json.hpp>

namespace mvp {

namespace {
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

std::string pointText(const SweepPoint& p, bool kv) {
    std::string o = "  " + padRight(methodSpec(p.method).key, 10) +
                    (kv ? fmt("%7.3g", p.budget) : fmt("%7.0f", p.budget)) + "  " +
                    padRight(toString(methodSpec(p.method).budget), 15) + " ";
    if (!p.comparison) return o + "not run: " + p.error + "\n";
    const Comparison& c = *p.comparison;
    const std::optional<double> ratio =
        kv ? p.kvBytesRatio
           : (c.prefillFlops ? std::optional<double>(c.prefillFlops->ratio()) : std::nullopt);
    return o + padRight(p.parameter, 18) + fmt("%4.0f", double(c.run)) +
           fmt(kv ? "%11.0f" : "%13.1f", p.tokensHeld ? *p.tokensHeld : double(c.runVisualTokens)) +
           "  " + padRight(speedupText(c), 36) +
           (ratio ? fmt(kv ? "%9.4f" : "%14.4f", *ratio)
                  : std::string(kv ? "      n/a" : "           n/a")) +
           fmt("%10.4g", c.klMean) + fmt("%7.0f%%", 100 * c.top1Agreement) +
           fmt("%6.0f%%", 100 * c.tokenMatch) + "\n";
}

std::string intervalText(double median, double low, double high, const char* f) {
    return fmt(f, median) + " [" + fmt(f, low) + ", " + fmt(f, high) + "]";
}

// A point of a sweep over an eval set: accuracy, its paired change, speed-up per item.
std::string evalPointText(const SweepPoint& p, bool kv) {
    std::string o = "  " + padRight(methodSpec(p.method).key, 10) +
                    (kv ? fmt("%7.3g", p.budget) : fmt("%7.0f", p.budget)) + "  " +
                    padRight(toString(methodSpec(p.method).budget), 15) + " ";
    if (!p.eval) return o + "not run: " + p.error + "\n";
    const EvalComparison& c = *p.eval;
    const auto& a = c.whatIf.accuracy;
    return o + padRight(p.parameter, 18) + fmt("%4.0f", double(c.whatIf.run)) +
           fmt("%7.1f", c.whatIf.meanVisualTokens) + "  " +
           padRight(intervalText(a.value, a.low, a.high, "%.3f"), 22) +
           padRight(intervalText(c.change.change, c.change.low, c.change.high, "%+.3f") +
                        (c.change.withinNoise() ? " noise" : ""),
                    31) +
           padRight(intervalText(c.speedup.median, c.speedup.low, c.speedup.high, "%.2f"), 19) +
           fmt("%9.4g", c.klMean) + "\n";
}

nlohmann::json evalPointJson(const SweepPoint& p, bool kv) {
    const MethodSpec& s = methodSpec(p.method);
    nlohmann::json j{{"method", s.key}, {"budget", p.budget}, {"convention", toString(s.budget)}};
    if (!p.eval) {
        j["error"] = p.error;
        return j;
    }
    const EvalComparison& c = *p.eval;
    const auto& a = c.whatIf.accuracy;
    j["parameter"] = p.parameter;
    j["run"] = c.whatIf.run;
    j["baseline_run"] = c.baseline.run;
    j["visual_tokens_sent_mean_measured"] = c.whatIf.meanVisualTokens;
    j["accuracy"] = {{"value", a.value}, {"ci95", {a.low, a.high}}, {"items", a.items},
                     {"right", a.right}};
    j["baseline_accuracy"] = {{"value", c.baseline.accuracy.value},
                              {"ci95", {c.baseline.accuracy.low, c.baseline.accuracy.high}},
                              {"items", c.baseline.accuracy.items}};
    j["paired_change"] = {{"value", c.change.change},
                          {"ci95", {c.change.low, c.change.high}},
                          {"mcnemar_p", c.change.mcnemarP},
                          {"within_noise", c.change.withinNoise()}};
    j["speedup_per_item"] = {{"median", c.speedup.median},
                             {"ci95", {c.speedup.low, c.speedup.high}},
                             {"items", c.speedup.n}};
    j["item_ms_measured"] = {{"median", c.whatIf.itemMs.median},
                             {"ci95", {c.whatIf.itemMs.low, c.whatIf.itemMs.high}}};
    j["fidelity_measured"] = {{"kl_mean", c.klMean},
                              {"top1_agreement", c.top1Agreement},
                              {"token_match", c.tokenMatch}};
    (void)kv;
    return j;
}

nlohmann::json pointJson(const SweepPoint& p, bool kv) {
    const MethodSpec& s = methodSpec(p.method);
    nlohmann::json j{{"method", s.key}, {"budget", p.budget}, {"convention", toString(s.budget)}};
    if (!p.comparison) {
        j["error"] = p.error;
        return j;
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
    j["fidelity_measured"] = {
        {"kl_mean", c.klMean}, {"top1_agreement", c.top1Agreement}, {"token_match", c.tokenMatch}};
    return j;
}

nlohmann::json tableJson(const SweepTable& t) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& p : t.points)
        rows.push_back(t.eval ? evalPointJson(p, t.kv) : pointJson(p, t.kv));
    return {{"baseline_run", t.baselineRun},
            {"eval", t.eval},
            {"visual_tokens", t.visualTokens},
            {"decoder_layers", t.decoderLayers},
            {"budget_unit", t.kv ? "fraction of the prefill per KV head" : "image tokens"},
            {"points", rows}};
}
} // namespace

std::string formatSweepText(const SweepTable& t) {
    const bool kv = t.kv;
    if (t.eval) {
        std::string o = "Sweep over an eval set against baseline run " +
                        std::to_string(t.baselineRun) + " (" + std::to_string(t.visualTokens) +
                        " image tokens; each point against its own eval baseline, item by item)\n" +
                        "  method     budget  convention      parameter          run  sent   "
                        "accuracy (Wilson 95 %)  change in accuracy (paired)    speed-up per item  "
                        "  KL mean\n";
        for (const auto& p : t.points)
            o += evalPointText(p, kv);
        return o + "  (all measured: accuracy over the items with an answer; the change with its "
                   "Agresti–Min interval, \"noise\" where it holds 0; speed-up the median of "
                   "per-item ratios; sent: visual tokens the decoder received, mean per item)\n";
    }
    std::string o = "Sweep against baseline run " + std::to_string(t.baselineRun) + " (" +
                    std::to_string(t.visualTokens) + " image tokens, " +
                    std::to_string(t.decoderLayers) + " decoder layers; " +
                    (kv ? "budgets: the fraction of the prefill's positions each KV head keeps)\n"
                        : "budgets: tokens sent before the LLM, layer-averaged inside it)\n") +
                    "  method     budget  convention      parameter          run  " +
                    (kv ? "pos./head" : "tokens held") + "  total speed-up (A/B, measured)       " +
                    (kv ? "KV bytes*" : "prefill FLOPs*") + "  KL mean   top-1  match\n";
    for (const auto& p : t.points)
        o += pointText(p, kv);
    return o +
           (kv ? "  (* KV bytes: the what-if's cache ÷ the baseline's at the end of the run, "
                 "measured; KL, top-1 agreement and token match measured against the "
                 "baseline)\n"
               : "  (* prefill FLOPs: the what-if's ÷ the baseline's, estimated from op shapes; "
                 "KL, top-1 agreement and token match measured against the baseline)\n");
}

std::string formatSweepJson(const SweepTable& t) {
    return tableJson(t).dump(2);
}

std::string sweepJsonLine(const SweepTable& t) {
    return tableJson(t).dump();
}

} // namespace mvp
