#pragma once
// Confidence intervals for timings repeated on a noisy machine (docs/diagnostics.md
// §9: a timing comparison is a distribution). Distribution-free: the interval
// of a median is a pair of order statistics [x(k), x(n−k+1)], k the largest
// with P(Bin(n, ½) < k) ≤ (1 − confidence)/2, so it holds whatever the noise's
// shape; its exact coverage is 1 − 2·P(Bin(n, ½) < k), reported with it
// (below 6 samples the widest interval, min to max, covers less than 95 %).
// A/B speed-up: the median of the per-pair ratios a_i / b_i of interleaved
// repetitions (drift between pairs cancels), with the same interval.

#include <vector>

namespace mvp {

struct Interval {
    double median = 0, low = 0, high = 0;
    int n = 0;
    double coverage = 0; // the interval's exact confidence (≈ 0.95, less for n < 6)
    // For a ratio: 1.0 inside the interval, so no difference is shown.
    bool containsOne() const { return n > 0 && low <= 1.0 && 1.0 <= high; }
};

Interval medianInterval(std::vector<double> samples, double confidence = 0.95);
// a[i] / b[i] for the pairs both have (pairs with b[i] ≤ 0 skipped).
Interval pairedRatioInterval(const std::vector<double>& a, const std::vector<double>& b,
                             double confidence = 0.95);

} // namespace mvp
