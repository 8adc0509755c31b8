#include "core/compare/EvalComparison.h"

#include <algorithm>
#include <map>

namespace mvp {

namespace {
Proportion accuracyOf(const std::vector<EvalItemRow>& items, const std::string& kind = {}) {
    int right = 0, scored = 0;
    for (const auto& i : items)
        if (i.correct && (kind.empty() || i.kind == kind)) {
            ++scored;
            right += *i.correct;
        }
    return wilsonInterval(right, scored);
}
} // namespace

EvalSummary summariseEval(const RunData& run) {
    EvalSummary s;
    s.run = run.run.id;
    s.label = run.run.label;
    const auto& items = run.evalItems;
    s.items = int(items.size());
    s.total = run.evalSet ? run.evalSet->items : s.items;
    s.accuracy = accuracyOf(items);
    std::vector<double> ms;
    double tokens = 0;
    for (const auto& i : items) {
        s.unanswered += !i.correct;
        ms.push_back(double(i.totalNs()) / 1e6);
        tokens += i.visualTokens;
        if (!i.kind.empty() && std::none_of(s.byKind.begin(), s.byKind.end(),
                                            [&](const auto& k) { return k.first == i.kind; }))
            s.byKind.emplace_back(i.kind, Proportion{});
    }
    for (auto& [kind, p] : s.byKind)
        p = accuracyOf(items, kind);
    s.itemMs = medianInterval(ms);
    if (!items.empty()) s.meanVisualTokens = tokens / double(items.size());
    return s;
}

EvalComparison compareEval(const RunData& baseline, const RunData& whatIf) {
    EvalComparison c;
    c.baseline = summariseEval(baseline);
    c.whatIf = summariseEval(whatIf);
    c.transform = whatIf.run.transform;
    std::map<int, const EvalItemRow*> base;
    for (const auto& i : baseline.evalItems)
        base[i.item] = &i;
    std::vector<bool> before, after;
    std::vector<double> baseMs, runMs;
    for (const auto& w : whatIf.evalItems) {
        const auto it = base.find(w.item);
        if (it == base.end()) continue;
        const EvalItemRow& b = *it->second;
        if (b.correct && w.correct) {
            before.push_back(*b.correct);
            after.push_back(*w.correct);
        }
        baseMs.push_back(double(b.totalNs()));
        runMs.push_back(double(w.totalNs()));
        c.changedAnswers += b.output != w.output;
        if (w.klMean) {
            ++c.fidelityItems;
            c.klMean += *w.klMean;
            c.top1Agreement += w.top1Agreement.value_or(0);
            c.tokenMatch += w.tokenMatch.value_or(0);
        }
    }
    c.change = pairedChange(before, after);
    c.speedup = pairedRatioInterval(baseMs, runMs);
    if (c.fidelityItems > 0) {
        c.klMean /= c.fidelityItems;
        c.top1Agreement /= c.fidelityItems;
        c.tokenMatch /= c.fidelityItems;
    }
    return c;
}

} // namespace mvp
