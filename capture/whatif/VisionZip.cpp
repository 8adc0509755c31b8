#include "capture/whatif/VisionZip.h"

#include "capture/whatif/KvPolicies.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace mvp {

Result<VisionZipSplit> visionZipSplit(int64_t tokens, int64_t budget) {
    if (budget < 2 || budget >= tokens)
        return makeError(ErrorCode::BadInput, "VisionZip sends from 2 to " +
                                                  std::to_string(tokens - 1) + " of the " +
                                                  std::to_string(tokens) + " visual tokens, not " +
                                                  std::to_string(budget));
    VisionZipSplit s;
    s.contextual = std::max<int64_t>(1, std::llround(double(budget) * 10.0 / 64.0));
    s.dominant = budget - s.contextual;
    return s;
}

std::vector<int64_t> VisionZipSelection::sent() const {
    std::vector<int64_t> out = dominant;
    out.insert(out.end(), targets.begin(), targets.end());
    return out;
}

namespace {
std::vector<double> unit(const std::vector<double>& v) {
    double n = 0;
    for (const double x : v)
        n += x * x;
    n = std::sqrt(n);
    std::vector<double> out = v;
    for (double& x : out)
        x = n > 0 ? x / n : 0;
    return out;
}
double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}
} // namespace

Result<VisionZipSelection> visionZipSelect(const std::vector<double>& scores,
                                           const std::vector<std::vector<double>>& keys,
                                           const VisionZipSplit& split) {
    const auto n = int64_t(scores.size());
    if (int64_t(keys.size()) != n || split.dominant < 0 || split.contextual < 1 ||
        split.dominant + split.contextual > n)
        return makeError(ErrorCode::BadInput, "VisionZip: " + std::to_string(n) + " scores and " +
                                                  std::to_string(keys.size()) +
                                                  " keys cannot keep " +
                                                  std::to_string(split.dominant) + " + " +
                                                  std::to_string(split.contextual));
    VisionZipSelection s;
    // (1) Dominant: the top scores (clip_encoder.py: topk of the CLS row).
    s.dominant = kv::topIndices(scores, split.dominant);
    std::vector<int64_t> rest;
    for (int64_t i = 0, d = 0; i < n; ++i)
        if (d < int64_t(s.dominant.size()) && s.dominant[size_t(d)] == i)
            ++d;
        else
            rest.push_back(i);
    // (2) Contextual targets: arange(0, R, step)[:C] of the rest.
    const int64_t r = int64_t(rest.size());
    const int64_t step = std::max<int64_t>(1, r / split.contextual);
    std::vector<char> isTarget(size_t(r), 0);
    for (int64_t i = 0; i < r && int64_t(s.targets.size()) < split.contextual; i += step) {
        s.targets.push_back(rest[size_t(i)]);
        isTarget[size_t(i)] = 1;
    }
    // (3) Each other token joins its most key-similar target (cosine).
    std::vector<std::vector<double>> targetKeys;
    for (const int64_t t : s.targets)
        targetKeys.push_back(unit(keys[size_t(t)]));
    for (int64_t i = 0; i < r; ++i) {
        if (isTarget[size_t(i)]) continue;
        const auto k = unit(keys[size_t(rest[size_t(i)])]);
        int64_t best = 0;
        double bestSim = -INFINITY;
        for (size_t t = 0; t < targetKeys.size(); ++t)
            if (const double sim = dot(k, targetKeys[t]); sim > bestSim) {
                bestSim = sim;
                best = int64_t(t);
            }
        s.merged.push_back(rest[size_t(i)]);
        s.into.push_back(best);
    }
    return s;
}

} // namespace mvp
