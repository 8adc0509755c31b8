#include "capture/models/transforms/KvMethods.h"

#include "capture/models/VlmLayers.h"
#include "capture/models/transforms/TensorVectors.h"
#include "core/Format.h"

#include <algorithm>
#include <stdexcept>

namespace mvp {

// ---- KIVI ---------------------------------------------------------------------

KiviCodes kiviQuantise(const torch::Tensor& x, int bits, int64_t group) {
    const int64_t n = x.size(-1), perByte = 8 / bits;
    auto prefix = x.sizes().vec();
    prefix.pop_back();
    auto g = x.reshape({-1, n / group, group});
    // quant/new_pack.py (quant_and_pack): min and max per group, then
    // ((x − mn) / scale).clamp(0, max_int).round_(), in the tensors' dtype.
    auto mn = std::get<0>(g.min(-1, true));
    auto mx = std::get<0>(g.max(-1, true));
    const double top = double((1 << bits) - 1);
    auto scale = (mx - mn) / top;
    auto q = ((g - mn) / scale).clamp(0, top).round();
    q = torch::where(scale > 0, q, torch::zeros_like(q)).to(torch::kUInt8);
    auto slots = q.reshape({-1, n / perByte, perByte});
    auto packed = torch::zeros({slots.size(0), slots.size(1)}, slots.options());
    for (int64_t i = 0; i < perByte; ++i)
        packed.bitwise_or_(slots.select(2, i).bitwise_left_shift(i * bits));
    auto shaped = [&](const torch::Tensor& t, int64_t last) {
        auto s = prefix;
        s.push_back(last);
        return t.reshape(s).contiguous();
    };
    return {shaped(packed, n / perByte), shaped(scale, n / group), shaped(mn, n / group)};
}

torch::Tensor kiviDequantise(const KiviCodes& c, int bits, int64_t group) {
    const int64_t perByte = 8 / bits, n = c.codes.size(-1) * perByte;
    auto prefix = c.codes.sizes().vec();
    prefix.pop_back();
    auto bytes = c.codes.reshape({-1, c.codes.size(-1)});
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < perByte; ++i)
        parts.push_back(bytes.bitwise_right_shift(i * bits).bitwise_and((1 << bits) - 1));
    auto q = torch::stack(parts, 2).reshape({-1, n / group, group}).to(c.scale.scalar_type());
    auto x = q * c.scale.reshape({-1, n / group, 1}) + c.minimum.reshape({-1, n / group, 1});
    prefix.push_back(n);
    return x.reshape(prefix);
}

namespace {
torch::Tensor catRows(const torch::Tensor& a, const torch::Tensor& b, int64_t dim) {
    return a.defined() ? torch::cat({a, b}, dim) : b;
}
int64_t nbytes(const torch::Tensor& t) {
    return t.defined() ? t.numel() * int64_t(t.element_size()) : 0;
}
} // namespace

std::pair<torch::Tensor, torch::Tensor> KiviStore::append(const torch::Tensor& keys,
                                                          const torch::Tensor& values) {
    const int bits = format.bits;
    const int64_t g = format.group, r = format.residual;
    keyFull = catRows(keyFull, keys, 0);
    valueFull = catRows(valueFull, values, 0);
    torch::Tensor k = keyFull, v = valueFull;
    if (quantisedKeys)
        k = torch::cat(
            {kiviDequantise({keyCodes, keyScale, keyMin}, bits, g).permute({2, 0, 1}), keyFull});
    if (quantisedValues)
        v = torch::cat({kiviDequantise({valueCodes, valueScale, valueMin}, bits, g), valueFull});
    // Keys: every whole block of `residual` full-precision tokens is quantised
    // per channel (prefill: all but T mod residual; decode: when the block fills).
    if (const int64_t blocks = keyFull.size(0) / r * r; blocks > 0) {
        auto q = kiviQuantise(keyFull.narrow(0, 0, blocks).permute({1, 2, 0}), bits, g);
        keyCodes = catRows(keyCodes, q.codes, 2);
        keyScale = catRows(keyScale, q.scale, 2);
        keyMin = catRows(keyMin, q.minimum, 2);
        keyFull = keyFull.narrow(0, blocks, keyFull.size(0) - blocks).clone();
        quantisedKeys += blocks;
    }
    // Values: all but the last `residual` are quantised per token.
    if (const int64_t old = valueFull.size(0) - r; old > 0) {
        auto q = kiviQuantise(valueFull.narrow(0, 0, old), bits, g);
        valueCodes = catRows(valueCodes, q.codes, 0);
        valueScale = catRows(valueScale, q.scale, 0);
        valueMin = catRows(valueMin, q.minimum, 0);
        valueFull = valueFull.narrow(0, old, r).clone();
        quantisedValues += old;
    }
    return {k, v};
}

int64_t KiviStore::bytes() const {
    return nbytes(keyCodes) + nbytes(keyScale) + nbytes(keyMin) + nbytes(valueCodes) +
           nbytes(valueScale) + nbytes(valueMin) + nbytes(keyFull) + nbytes(valueFull);
}

// ---- eviction -----------------------------------------------------------------

void installKvMethod(KvCache& cache, const KvMethod& method) {
    auto s = std::make_shared<KvMethodState>();
    s->method = method;
    if (method.kind == KvMethodKind::Kivi) {
        s->kivi = std::make_unique<KiviStore>();
        s->kivi->format = method.kivi;
        s->kivi->format.floatBytes = int(c10::elementSize(cache.dtype));
        cache.k = cache.v = torch::Tensor(); // the store holds them
    }
    cache.method = std::move(s);
}

namespace {
// A KV head's score per slot: its query group's `probs` summed over heads and
// the rows [from, from + rows); float64 [kvHeads, slots].
torch::Tensor perKvHead(const torch::Tensor& probs, int kvHeads, int64_t from, int64_t rows) {
    const int64_t heads = probs.size(0), slots = probs.size(2);
    return probs.narrow(1, from, rows)
        .to(torch::kDouble)
        .sum(1)
        .view({kvHeads, heads / kvHeads, slots})
        .sum(1)
        .contiguous();
}

torch::Tensor slotPositions(const KvCache& c) {
    if (c.positionOfSlot.defined()) return c.positionOfSlot.narrow(0, 0, c.slots);
    return torch::arange(c.slots, torch::TensorOptions().dtype(torch::kLong).device(c.device))
        .unsqueeze(1)
        .expand({c.slots, c.kvHeads});
}

// Keeps, per KV head h, the slots keep[h] (the same count for every head, in
// ascending order) and moves them to the front of the cache.
void keepSlots(KvCache& c, const std::vector<kv::Positions>& keep) {
    const int64_t n = int64_t(keep.front().size());
    auto index = torch::empty({n, c.kvHeads}, torch::kLong);
    auto ia = index.accessor<int64_t, 2>();
    for (int h = 0; h < c.kvHeads; ++h) {
        if (int64_t(keep[size_t(h)].size()) != n)
            throw std::logic_error("KV heads would keep different counts");
        for (int64_t i = 0; i < n; ++i)
            ia[i][h] = keep[size_t(h)][size_t(i)];
    }
    index = index.to(c.device); // built on the host, used where the cache is
    const auto rows = index.unsqueeze(2).expand({n, c.kvHeads, c.headDim});
    auto k = c.k.narrow(0, 0, c.slots).gather(0, rows);
    auto v = c.v.narrow(0, 0, c.slots).gather(0, rows);
    c.positionOfSlot = slotPositions(c).gather(0, index);
    c.k.narrow(0, 0, n).copy_(k);
    c.v.narrow(0, 0, n).copy_(v);
    c.slots = int(n);
}

// H2O's kept positions as slots: each head's slots hold ascending positions.
std::vector<kv::Positions> slotsOfPositions(const KvCache& c,
                                            const std::vector<kv::Positions>& positions) {
    const auto now = slotPositions(c).t().to(torch::kCPU).contiguous(); // [kvHeads, slots]
    std::vector<kv::Positions> out;
    for (int h = 0; h < c.kvHeads; ++h) {
        const int64_t* p = now[h].data_ptr<int64_t>();
        kv::Positions slots;
        for (const int64_t pos : positions[size_t(h)])
            slots.push_back(std::lower_bound(p, p + c.slots, pos) - p);
        out.push_back(std::move(slots));
    }
    return out;
}

void unwrap(const Status& s) {
    if (!s) throw std::runtime_error(s.error().message);
}
} // namespace

void afterKvPass(KvCache& c, const torch::Tensor& probs, int64_t added) {
    KvMethodState& s = *c.method;
    const bool prefill = s.budget < 0;
    if (prefill) {
        s.budget = kvBudgetPositions(s.method, c.slots);
        s.heavy = s.recent = s.budget / 2;
    }
    switch (s.method.kind) {
    case KvMethodKind::Kivi:
        return;
    case KvMethodKind::StreamingLLM: { // StartRecentKVCache.__call__, after every pass
        if (c.slots <= s.budget) return;
        const auto keep = kv::streamingKeep(c.slots, s.method.sinks, s.budget - s.method.sinks);
        keepSlots(c, std::vector<kv::Positions>(size_t(c.kvHeads), keep));
        return;
    }
    case KvMethodKind::H2O: {
        if (!s.h2o) s.h2o = std::make_unique<kv::H2OCache>(c.kvHeads, s.heavy, s.recent);
        unwrap(s.h2o->step(toDoubleRows(perKvHead(probs, c.kvHeads, 0, probs.size(1))), added));
        if (c.slots > s.heavy + s.recent) keepSlots(c, slotsOfPositions(c, s.h2o->kept()));
        return;
    }
    case KvMethodKind::SnapKV: { // update_kv, once, at the end of the prefill
        const int64_t t = c.slots, w = s.method.window;
        if (!prefill || t < s.budget) return;
        auto votes = perKvHead(probs, c.kvHeads, t - w, w).narrow(1, 0, t - w).contiguous();
        auto keep =
            kv::snapKvKeep(toDoubleRows(votes), t, w, s.budget, s.method.kernel, s.method.pooling);
        if (!keep) throw std::runtime_error(keep.error().message);
        keepSlots(c, *keep);
        return;
    }
    }
}

std::vector<RunMetricRow> kvMethodMetrics(const KvCache& c, int layers) {
    if (!c.method) return {};
    const KvMethodState& s = *c.method;
    const std::string name = toString(s.method.kind);
    std::vector<RunMetricRow> m;
    if (s.kivi) {
        const KiviStore& k = *s.kivi;
        m.push_back(
            {"kv.kivi.quantised_keys", double(k.quantisedKeys), "count", "measured",
             "positions whose keys KIVI holds quantised per channel, each layer and KV head"});
        m.push_back(
            {"kv.kivi.quantised_values", double(k.quantisedValues), "count", "measured",
             "positions whose values KIVI holds quantised per token, each layer and KV head"});
        m.push_back({"kv.kivi.bits", double(k.format.bits), "bits", "measured",
                     "KIVI's code width; group " + std::to_string(k.format.group) + ", residual " +
                         std::to_string(k.format.residual) +
                         "; the matmuls read dequantised "
                         "values (no fused low-bit kernel on this device), so its time is not "
                         "KIVI's kernels'"});
        return m;
    }
    m.push_back({"kv.budget_positions", double(s.budget), "count", "measured",
                 name + " budget: positions each KV head of each of the " + std::to_string(layers) +
                     " layers keeps after the prefill"});
    m.push_back({"kv.positions_per_head", double(c.slots), "count", "measured",
                 "positions each KV head holds at the end of the run (every layer the same)"});
    return m;
}

} // namespace mvp
