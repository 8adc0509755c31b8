#include "capture/whatif/KvPolicies.h"

#include "capture/whatif/Transforms.h"
#include "core/Format.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace mvp::kv {
namespace {

Positions range(int64_t from, int64_t to) {
    Positions out(size_t(std::max<int64_t>(0, to - from)));
    std::iota(out.begin(), out.end(), from);
    return out;
}

// PyTorch's avg_pool1d / max_pool1d with stride 1 and padding kernel / 2
// (odd kernel: the output is as long as the input); the average divides by
// the kernel, padding included (count_include_pad), the maximum ignores it.
std::vector<double> pool(const std::vector<double>& x, int kernel, Pooling pooling) {
    const int64_t n = int64_t(x.size()), half = kernel / 2;
    std::vector<double> out(x.size());
    for (int64_t i = 0; i < n; ++i) {
        double sum = 0, best = -INFINITY;
        for (int64_t j = std::max<int64_t>(0, i - half); j <= std::min(n - 1, i + half); ++j) {
            sum += x[size_t(j)];
            best = std::max(best, x[size_t(j)]);
        }
        out[size_t(i)] = pooling == Pooling::Average ? sum / kernel : best;
    }
    return out;
}

} // namespace

Positions topIndices(const std::vector<double>& values, int64_t count) {
    Positions order(values.size());
    std::iota(order.begin(), order.end(), 0);
    count = std::clamp<int64_t>(count, 0, int64_t(order.size()));
    std::partial_sort(order.begin(), order.begin() + count, order.end(), [&](int64_t a, int64_t b) {
        return values[size_t(a)] != values[size_t(b)] ? values[size_t(a)] > values[size_t(b)]
                                                      : a < b;
    });
    order.resize(size_t(count));
    std::sort(order.begin(), order.end());
    return order;
}

Positions streamingKeep(int64_t positions, int64_t sinks, int64_t recent) {
    if (positions <= sinks + recent) return range(0, positions);
    Positions out = range(0, sinks);
    const Positions tail = range(positions - recent, positions);
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
}

H2OCache::H2OCache(int heads, int64_t heavy, int64_t recent)
    : heavy_(heavy), recent_(recent), kept_(size_t(heads)), scores_(size_t(heads)) {}

Status H2OCache::step(const std::vector<std::vector<double>>& received, int64_t added) {
    if (received.size() != kept_.size())
        return makeError(ErrorCode::BadInput, "H2O: attention for " +
                                                  std::to_string(received.size()) + " heads, not " +
                                                  std::to_string(kept_.size()));
    for (size_t h = 0; h < kept_.size(); ++h) // every head checked before any changes
        if (received[h].size() != kept_[h].size() + size_t(added))
            return makeError(ErrorCode::BadInput,
                             "H2O: head " + std::to_string(h) + " attends to " +
                                 std::to_string(received[h].size()) + " slots, not " +
                                 std::to_string(kept_[h].size() + size_t(added)));
    for (size_t h = 0; h < kept_.size(); ++h) {
        Positions& kept = kept_[h];
        std::vector<double>& scores = scores_[h];
        // H2OKVCache_LayerWise._update_hh_score: the old sums plus this pass's.
        for (int64_t i = 0; i < added; ++i) {
            kept.push_back(positions_ + i);
            scores.push_back(0);
        }
        for (size_t j = 0; j < scores.size(); ++j)
            scores[j] += received[h][j];
        const int64_t size = int64_t(kept.size());
        if (size <= heavy_ + recent_) continue;
        // __call__: the heavy hitters among all but the recent, then the recent.
        const std::vector<double> older(scores.begin(), scores.end() - recent_);
        Positions slots = topIndices(older, heavy_);
        const Positions tail = range(size - recent_, size);
        slots.insert(slots.end(), tail.begin(), tail.end());
        Positions nextKept;
        std::vector<double> nextScores;
        for (const int64_t s : slots) {
            nextKept.push_back(kept[size_t(s)]);
            nextScores.push_back(scores[size_t(s)]);
        }
        kept = std::move(nextKept);
        scores = std::move(nextScores);
    }
    positions_ += added;
    return Ok{};
}

Result<std::vector<Positions>> snapKvKeep(const std::vector<std::vector<double>>& votes,
                                          int64_t positions, int64_t window, int64_t capacity,
                                          int kernel, Pooling pooling) {
    if (window <= 0 || capacity <= window)
        return makeError(ErrorCode::BadInput, "SnapKV needs 0 < window < capacity (window " +
                                                  std::to_string(window) + ", capacity " +
                                                  std::to_string(capacity) + ")");
    if (kernel < 1 || kernel % 2 == 0)
        return makeError(ErrorCode::BadInput,
                         "SnapKV's pooling kernel must be odd, not " + std::to_string(kernel));
    std::vector<Positions> out;
    for (const auto& v : votes) {
        if (positions < capacity) {
            out.push_back(range(0, positions));
            continue;
        }
        if (int64_t(v.size()) != positions - window)
            return makeError(ErrorCode::BadInput, "SnapKV: " + std::to_string(v.size()) +
                                                      " votes for the " +
                                                      std::to_string(positions - window) +
                                                      " positions before the window");
        Positions keep = topIndices(pool(v, kernel, pooling), capacity - window);
        const Positions tail = range(positions - window, positions);
        keep.insert(keep.end(), tail.begin(), tail.end());
        out.push_back(std::move(keep));
    }
    return out;
}

KiviSplit kiviSplit(int64_t tokens, const KiviFormat& f) {
    KiviSplit s;
    // Keys: whole blocks of `residual` are quantised (llama_kivi.py, prefill:
    // all but tokens % residual; decode: a block when the full part fills).
    s.fullKeys = tokens % f.residual;
    s.quantisedKeys = tokens - s.fullKeys;
    // Values: the last `residual` stay full (decode quantises the oldest one).
    s.fullValues = std::min(tokens, f.residual);
    s.quantisedValues = tokens - s.fullValues;
    return s;
}

Result<int64_t> kiviBytes(int64_t tokens, int64_t headDim, const KiviFormat& f) {
    if (f.bits < 1 || 32 % f.bits != 0 || f.group <= 0 || f.residual % f.group != 0 ||
        headDim % f.group != 0 || (headDim * f.bits) % 32 != 0)
        return makeError(ErrorCode::BadInput,
                         "KIVI needs bits dividing 32, a residual and a head dimension that are "
                         "multiples of the group, and codes filling 32-bit words");
    const KiviSplit s = kiviSplit(tokens, f);
    const int64_t perGroup = 2 * f.floatBytes; // scale and minimum
    // Keys: per channel, quantisedKeys / group groups along the tokens.
    const int64_t keys =
        s.quantisedKeys * headDim * f.bits / 8 + headDim * (s.quantisedKeys / f.group) * perGroup;
    // Values: per token, headDim / group groups along the channels.
    const int64_t values = s.quantisedValues * headDim * f.bits / 8 +
                           s.quantisedValues * (headDim / f.group) * perGroup;
    const int64_t full = (s.fullKeys + s.fullValues) * headDim * f.floatBytes;
    return keys + values + full;
}

GroupCode kiviQuantise(const std::vector<double>& group, int bits) {
    GroupCode g;
    if (group.empty()) return g;
    const auto [lo, hi] = std::minmax_element(group.begin(), group.end());
    g.minimum = *lo;
    const double top = double((1 << bits) - 1);
    g.scale = (*hi - *lo) / top;
    for (const double x : group) {
        const double q = g.scale > 0 ? std::clamp((x - g.minimum) / g.scale, 0.0, top) : 0.0;
        g.codes.push_back(uint8_t(std::nearbyint(q)));
    }
    return g;
}

} // namespace mvp::kv

namespace mvp {
const char* toString(KvMethodKind k) {
    switch (k) {
    case KvMethodKind::StreamingLLM:
        return "StreamingLLM";
    case KvMethodKind::H2O:
        return "H2O";
    case KvMethodKind::SnapKV:
        return "SnapKV";
    case KvMethodKind::Kivi:
        return "KIVI";
    }
    return "?";
}

int64_t kvBudgetPositions(const KvMethod& m, int64_t prefill) {
    if (m.kind == KvMethodKind::Kivi) return prefill;
    if (m.kind == KvMethodKind::H2O) return 2 * int64_t(m.budget / 2 * double(prefill));
    return int64_t(m.budget * double(prefill));
}

Status checkKvMethod(const KvMethod& m, int64_t prefill, int64_t headDim, int floatBytes) {
    if (m.kind == KvMethodKind::Kivi) {
        kv::KiviFormat f = m.kivi;
        f.floatBytes = floatBytes;
        if (f.bits != 2 && f.bits != 4 && f.bits != 8)
            return makeError(ErrorCode::BadInput, "KIVI quantises to 2, 4 or 8 bits");
        if (auto b = kv::kiviBytes(prefill, headDim, f); !b)
            return makeError(ErrorCode::BadInput,
                             b.error().message + ": head size " + std::to_string(headDim) +
                                 ", group " + std::to_string(f.group) + ", residual " +
                                 std::to_string(f.residual) + " (try --kivi-group " +
                                 std::to_string(std::min<int64_t>(headDim, 32)) + ")");
        return Ok{};
    }
    if (!(m.budget > 0 && m.budget < 1))
        return makeError(ErrorCode::BadInput,
                         "the KV budget is a fraction in (0, 1), not " + fmt("%g", m.budget));
    const int64_t keep = kvBudgetPositions(m, prefill);
    const int64_t least = m.kind == KvMethodKind::StreamingLLM ? m.sinks + 1
                          : m.kind == KvMethodKind::SnapKV     ? m.window + 1
                                                               : 2;
    if (keep < least)
        return makeError(ErrorCode::BadInput,
                         std::string(toString(m.kind)) + " at budget " + fmt("%g", m.budget) +
                             " keeps " + std::to_string(keep) + " of the prefill's " +
                             std::to_string(prefill) + " positions; it needs at least " +
                             std::to_string(least) + " (a larger --kv-budget)");
    if (m.kind == KvMethodKind::SnapKV && (m.kernel < 1 || m.kernel % 2 == 0))
        return makeError(ErrorCode::BadInput, "SnapKV's pooling kernel must be odd");
    return Ok{};
}

} // namespace mvp
