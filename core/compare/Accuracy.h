#pragma once
// Accuracy over an eval set, with the intervals an honest comparison needs
// (docs/eval.md). Plain C++, no model: the inputs are per-item matches.
//   - accuracy: k of n items right, with Wilson's 95 % score interval
//     (E. B. Wilson, 1927), which keeps its coverage near 0 and 1 and for
//     small n where the normal (Wald) interval does not;
//   - the paired change of a what-if against its baseline on the same items:
//     b = items only the baseline got right, c = only the what-if; the change
//     (c − b)/n with the Agresti–Min interval (½ added to each cell of the
//     2 × 2 table, 2005) and McNemar's exact two-sided p-value (a binomial
//     test of c among the b + c discordant items). "Within noise" when the
//     interval holds 0.

#include <vector>

namespace mvp {

struct Proportion {
    int right = 0, items = 0;
    double value = 0;         // right / items (0 for no items)
    double low = 0, high = 0; // Wilson 95 % interval
};

// z = 1.959964 (95 %). items = 0 gives value 0 and [0, 1].
Proportion wilsonInterval(int right, int items);

struct PairedChange {
    int items = 0;            // pairs scored by both
    int baselineOnly = 0;     // b: right before, wrong after
    int whatIfOnly = 0;       // c: wrong before, right after
    double change = 0;        // (c − b) / items
    double low = 0, high = 0; // Agresti–Min 95 % interval of the change
    double mcnemarP = 1;      // exact two-sided
    bool withinNoise() const { return low <= 0 && 0 <= high; }
};

// `baseline[i]` and `whatIf[i]` say whether item i was answered right; the
// vectors must be the same length.
PairedChange pairedChange(const std::vector<bool>& baseline, const std::vector<bool>& whatIf);

// P(|X − n/2| ≥ |k − n/2|), X ~ Bin(n, ½): McNemar's exact two-sided p.
double exactMcNemarP(int b, int c);

} // namespace mvp
