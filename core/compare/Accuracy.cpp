#include "core/compare/Accuracy.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mvp {

namespace {

constexpr double kZ95 = 1.959963984540054;

// log C(n, k), exact enough for the binomial tails of a few thousand items.
double logChoose(int n, int k) {
    return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

} // namespace

Proportion wilsonInterval(int right, int items) {
    Proportion p;
    p.right = right;
    p.items = items;
    if (items <= 0) {
        p.high = 1;
        return p;
    }
    const double n = items, phat = double(right) / n, z2 = kZ95 * kZ95;
    const double centre = (phat + z2 / (2 * n)) / (1 + z2 / n);
    const double half = kZ95 / (1 + z2 / n) * std::sqrt(phat * (1 - phat) / n + z2 / (4 * n * n));
    p.value = phat;
    p.low = std::max(0.0, centre - half);
    p.high = std::min(1.0, centre + half);
    return p;
}

double exactMcNemarP(int b, int c) {
    const int n = b + c;
    if (n == 0) return 1;
    // Two-sided: twice the smaller tail, capped at 1 (the binomial is symmetric).
    const int k = std::min(b, c);
    double tail = 0;
    for (int i = 0; i <= k; ++i)
        tail += std::exp(logChoose(n, i) - n * std::log(2.0));
    return std::min(1.0, 2 * tail);
}

PairedChange pairedChange(const std::vector<bool>& baseline, const std::vector<bool>& whatIf) {
    if (baseline.size() != whatIf.size())
        throw std::invalid_argument("pairedChange: the two arms scored different items");
    PairedChange out;
    out.items = int(baseline.size());
    for (size_t i = 0; i < baseline.size(); ++i) {
        out.baselineOnly += baseline[i] && !whatIf[i];
        out.whatIfOnly += !baseline[i] && whatIf[i];
    }
    if (out.items == 0) {
        out.low = -1;
        out.high = 1;
        return out;
    }
    out.change = double(out.whatIfOnly - out.baselineOnly) / out.items;
    // Agresti–Min: half an observation added to each of the four cells.
    const double b = out.baselineOnly + 0.5, c = out.whatIfOnly + 0.5, n = out.items + 2.0;
    const double d = (c - b) / n;
    const double se = std::sqrt(std::max(0.0, (b + c) - (c - b) * (c - b) / n)) / n;
    out.low = std::max(-1.0, d - kZ95 * se);
    out.high = std::min(1.0, d + kZ95 * se);
    out.mcnemarP = exactMcNemarP(out.baselineOnly, out.whatIfOnly);
    return out;
}

} // namespace mvp
