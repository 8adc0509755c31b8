#include "core/report/EvalText.h"

#include "core/Format.h"

#include <nlohmann/json.hpp>

namespace mvp {

namespace {

std::string accuracyText(const Proportion& p) {
    return fmt("%.3f", p.value) + fmt(" [%.3f, ", p.low) + fmt("%.3f]", p.high) + " (" +
           std::to_string(p.right) + " of " + std::to_string(p.items) + ")";
}

std::string msText(const Interval& i) {
    return fmt("%.2f ms", i.median) + fmt(" [%.2f, ", i.low) + fmt("%.2f]", i.high);
}

std::string changeText(const PairedChange& c) {
    return fmt("%+.3f", c.change) + fmt(" [%+.3f, ", c.low) + fmt("%+.3f]", c.high) +
           " (Agresti–Min 95 %), McNemar exact p = " + fmt("%.3g", c.mcnemarP) +
           (c.withinNoise()     ? ": within noise"
            : c.mcnemarP < 0.05 ? ": a real change"
                                : ": borderline (the interval excludes 0, McNemar's test does not)");
}

std::string speedupText(const Interval& s) {
    return fmt("%.2f×", s.median) + fmt(" [%.2f, ", s.low) + fmt("%.2f]", s.high) +
           (s.containsOne() ? " (within noise)" : "");
}

// Accuracy by kind, baseline → what-if, where the items have kinds.
std::string byKindText(const EvalComparison& c, const char* indent) {
    std::string out;
    for (const auto& [kind, before] : c.baseline.byKind) {
        Proportion after;
        for (const auto& [k, p] : c.whatIf.byKind)
            if (k == kind) after = p;
        const std::string label = kind + std::string(kind.size() < 12 ? 12 - kind.size() : 0, ' ');
        out += indent + label + " " + accuracyText(before) + "  →  " +
               accuracyText(after) + "\n";
    }
    return out;
}

nlohmann::json accuracyJson(const Proportion& p) {
    return {{"value", p.value}, {"ci95", {p.low, p.high}}, {"items", p.items}, {"right", p.right}};
}

nlohmann::json intervalJson(const Interval& i) {
    return {{"median", i.median}, {"ci95", {i.low, i.high}}, {"n", i.n}};
}

nlohmann::json setupJson(const EvalSummary& s, const char* role) {
    nlohmann::json byKind = nlohmann::json::object();
    for (const auto& [kind, p] : s.byKind)
        byKind[kind] = accuracyJson(p);
    return {{"role", role},
            {"run", s.run},
            {"label", s.label},
            {"items", s.items},
            {"complete", s.complete()},
            {"accuracy", accuracyJson(s.accuracy)},
            {"accuracy_by_kind", byKind},
            {"item_ms", intervalJson(s.itemMs)},
            {"visual_tokens_mean", s.meanVisualTokens}};
}

} // namespace

std::string formatEvalText(const EvalComparison& c, const std::string& set) {
    const auto& b = c.baseline;
    const auto& w = c.whatIf;
    std::string out = "Eval what-if " + c.transform + " over " + set + ": " +
                      std::to_string(w.items) + " of " + std::to_string(w.total) + " items" +
                      (w.complete() ? "" : " (stopped part-way)") + "\n";
    if (b.unanswered > 0)
        out += "  " + std::to_string(b.unanswered) +
               " items have no answer: scored by fidelity only\n";
    out += "Accuracy (measured over the items with an answer; Wilson 95 % interval):\n";
    out += "  baseline (run " + std::to_string(b.run) + ")  " + accuracyText(b.accuracy) + "\n";
    out += "  what-if  (run " + std::to_string(w.run) + ")  " + accuracyText(w.accuracy) + "\n";
    out += byKindText(c, "    ");
    out += "Paired change in accuracy over " + std::to_string(c.change.items) +
           " items: " + changeText(c.change) + "\n";
    out += "  right only before: " + std::to_string(c.change.baselineOnly) +
           ", right only after: " + std::to_string(c.change.whatIfOnly) + "\n";
    out += "Latency per item (measured, one pass each, interleaved; median [95 %]): baseline " +
           msText(b.itemMs) + ", what-if " + msText(w.itemMs) + "\n";
    out += "  speed-up (median of per-item ratios): " + speedupText(c.speedup) + "\n";
    out += "Visual tokens the decoder saw (mean per item): " + fmt("%.1f", b.meanVisualTokens) +
           " → " + fmt("%.1f", w.meanVisualTokens) + "\n";
    if (c.fidelityItems > 0)
        out += "Fidelity to the baseline's outputs (measured, mean over " +
               std::to_string(c.fidelityItems) + " items): KL " + fmt("%.4f", c.klMean) +
               ", top-1 agreement " + fmt("%.3f", c.top1Agreement) + ", token match " +
               fmt("%.3f", c.tokenMatch) + "; " + std::to_string(c.changedAnswers) +
               " outputs changed\n";
    return out;
}

std::string formatEvalJson(const EvalComparison& c, const std::string& set) {
    const nlohmann::json j{
        {"set", set},
        {"transform", c.transform},
        {"items", c.whatIf.total},
        {"complete", c.whatIf.complete()},
        {"unanswered", c.baseline.unanswered},
        {"setups", {setupJson(c.baseline, "baseline"), setupJson(c.whatIf, "whatif")}},
        {"paired_change",
         {{"value", c.change.change},
          {"ci95", {c.change.low, c.change.high}},
          {"items", c.change.items},
          {"baseline_only", c.change.baselineOnly},
          {"whatif_only", c.change.whatIfOnly},
          {"mcnemar_p", c.change.mcnemarP},
          {"within_noise", c.change.withinNoise()}}},
        {"speedup", intervalJson(c.speedup)},
        {"fidelity",
         {{"items", c.fidelityItems},
          {"kl_mean", c.klMean},
          {"top1_agreement", c.top1Agreement},
          {"token_match", c.tokenMatch},
          {"changed_outputs", c.changedAnswers}}},
        {"provenance", "measured"}};
    return j.dump(1);
}

std::string evalSummaryJson(const EvalSummary& s, const std::string& set) {
    nlohmann::json j = setupJson(s, "baseline");
    j["set"] = set;
    j["unanswered"] = s.unanswered;
    j["provenance"] = "measured";
    return j.dump(1);
}

std::string formatEvalMarkdown(const EvalComparison& c, const std::string& set) {
    const auto& b = c.baseline;
    const auto& w = c.whatIf;
    std::string out = "### Eval what-if: " + c.transform + "\n\n";
    out += "Over `" + set + "`: " + std::to_string(w.items) + " of " + std::to_string(w.total) +
           " items" + (b.unanswered ? ", " + std::to_string(b.unanswered) + " without an answer"
                                    : std::string()) +
           ". All figures measured; accuracy with Wilson 95 % intervals, latency medians with "
           "distribution-free 95 % intervals.\n\n";
    out += "| setup | run | accuracy | per item | visual tokens |\n|---|---|---|---|---|\n";
    for (const auto* s : {&b, &w})
        out += "| " + s->label + " | " + std::to_string(s->run) + " | " +
               accuracyText(s->accuracy) + " | " + msText(s->itemMs) + " | " +
               fmt("%.1f", s->meanVisualTokens) + " |\n";
    out += "\nPaired change in accuracy: " + changeText(c.change) + ". Speed-up per item: " +
           speedupText(c.speedup) + ".";
    if (c.fidelityItems > 0)
        out += " Fidelity: KL " + fmt("%.4f", c.klMean) + ", top-1 agreement " +
               fmt("%.3f", c.top1Agreement) + ", " + std::to_string(c.changedAnswers) +
               " outputs changed.";
    return out + "\n";
}

} // namespace mvp
