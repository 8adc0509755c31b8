#include "core/compare/Intervals.h"

#include <algorithm>
#include <cmath>

namespace mvp {

namespace {
// P(Bin(n, ½) ≤ j) for j = 0 … n.
std::vector<double> binomialHalfCdf(int n) {
    std::vector<double> cdf(size_t(n) + 1);
    double term = std::pow(0.5, n), sum = 0; // C(n, 0) / 2^n
    for (int j = 0; j <= n; ++j) {
        sum += term;
        cdf[size_t(j)] = sum;
        term = term * double(n - j) / double(j + 1);
    }
    return cdf;
}
} // namespace

Interval medianInterval(std::vector<double> x, double confidence) {
    Interval r;
    r.n = int(x.size());
    if (x.empty()) return r;
    std::sort(x.begin(), x.end());
    const size_t n = x.size();
    r.median = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    if (n < 2) {
        r.low = r.high = r.median;
        return r;
    }
    // The largest k (1-based) whose tail P(Bin < k) stays within (1 − confidence)/2.
    const auto cdf = binomialHalfCdf(int(n));
    const double tail = (1.0 - confidence) / 2.0;
    int k = 1;
    while (k + 1 <= int(n + 1) / 2 && cdf[size_t(k)] <= tail)
        ++k;
    r.low = x[size_t(k - 1)];
    r.high = x[n - size_t(k)];
    r.coverage = 1.0 - 2.0 * cdf[size_t(k - 1)];
    return r;
}

Interval pairedRatioInterval(const std::vector<double>& a, const std::vector<double>& b,
                             double confidence) {
    std::vector<double> ratios;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (b[i] > 0) ratios.push_back(a[i] / b[i]);
    return medianInterval(std::move(ratios), confidence);
}

} // namespace mvp
