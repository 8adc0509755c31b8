#pragma once
// An eval what-if against its eval baseline (docs/eval.md): accuracy with
// Wilson intervals on each side, the paired change on the items both scored
// (Agresti–Min interval, exact McNemar), latency per item (medians with
// distribution-free intervals, and the per-item paired ratio), and the
// outputs' fidelity to the baseline's, from the runs' stored item rows.

#include "core/analysis/RunData.h"
#include "core/compare/Accuracy.h"
#include "core/compare/Intervals.h"

#include <string>
#include <vector>

namespace mvp {

// One eval run (measured): accuracy over its items with an answer.
struct EvalSummary {
    int64_t run = 0;
    std::string label;
    int items = 0, total = 0; // done, and in the set
    int unanswered = 0;       // items without an answer: fidelity only
    Proportion accuracy;
    std::vector<std::pair<std::string, Proportion>> byKind; // in order of first appearance
    Interval itemMs;          // the pass's wall time per item, median and 95 % interval
    double meanVisualTokens = 0;
    bool complete() const { return items == total; }
};
EvalSummary summariseEval(const RunData& run);

struct EvalComparison {
    EvalSummary baseline, whatIf;
    std::string transform;
    PairedChange change; // on the items both scored
    // baseline ms / what-if ms per item (a speed-up above 1), median and interval.
    Interval speedup;
    // Means over the items both ran (measured): fidelity to the baseline's outputs.
    int fidelityItems = 0;
    double klMean = 0, top1Agreement = 0, tokenMatch = 0;
    int changedAnswers = 0; // items whose output differs from the baseline's
};
// `whatIf`'s items are matched to `baseline`'s by their index in the set.
EvalComparison compareEval(const RunData& baseline, const RunData& whatIf);

} // namespace mvp
