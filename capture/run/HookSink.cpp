// The hooks' side of a recorded run: routing rows, attention received per
// patch, full attention maps.
#include "capture/run/HookSink.h"

#include "capture/models/VlmLayers.h"

#include <algorithm>

namespace mvp {

torch::Tensor spreadToPositions(const torch::Tensor& slotProbs, const KvCache& cache,
                                int queryStart) {
    const int64_t heads = slotProbs.size(0), t = slotProbs.size(1), s = slotProbs.size(2);
    const auto slots = cache.positionOfSlot.narrow(0, 0, s).to(torch::kCPU); // [s, kvHeads]
    const int64_t positions = slots.max().item<int64_t>() + 1;
    // Query head h reads KV head h / group (Attention's repeat_interleave).
    const auto perHead = slots.t().repeat_interleave(heads / cache.kvHeads, 0); // [heads, s]
    auto columns =
        torch::zeros({heads, t, positions}, torch::kFloat)
            .scatter_(2, perHead.unsqueeze(1).expand({heads, t, s}), slotProbs.to(torch::kFloat));
    const auto queries = slots.narrow(0, s - t, t).select(1, 0) - queryStart;
    return torch::zeros({heads, positions - queryStart, positions}, torch::kFloat)
        .index_copy_(1, queries, columns);
}

void HookSink::routing(int layer, const torch::Tensor& experts, const torch::Tensor& weights,
                       const torch::Tensor& positions) {
    auto e = experts.to(torch::kCPU).contiguous();
    auto w = weights.to(torch::kCPU, torch::kDouble).contiguous();
    const auto ea = e.accessor<int64_t, 2>();
    const auto wa = w.accessor<double, 2>();
    const torch::Tensor at =
        positions.defined() ? positions.to(torch::kCPU).contiguous() : positions;
    Batch b;
    b.routing.reserve(size_t(e.size(0) * e.size(1)));
    for (int64_t t = 0; t < e.size(0); ++t) {
        const int pos = at.defined() ? int(at.data_ptr<int64_t>()[t]) : pos0 + int(t);
        for (int64_t r = 0; r < e.size(1); ++r)
            if (ea[t][r] < 0)
                ++skippedSlots; // expert skipping left this rank unrun
            else
                b.routing.push_back(RoutingRow{layer, rec->phase(), rec->step(), pos,
                                               isVisual(pos) ? Modality::Visual : Modality::Text,
                                               int(r), int(ea[t][r]), wa[t][r]});
    }
    rec->submit(std::move(b));
}

void HookSink::enterPhase(Phase p, int cachedPositions) {
    phase = p;
    if (p == Phase::Prefill) pos0 = 0;
    if (p == Phase::Decode) pos0 = cachedPositions;
}

void HookSink::addAnswerAttention(int layer, const torch::Tensor& visualColumns, int64_t n) {
    // [heads, queries, n]: prefill's last query row, or a decode step's rows.
    const int64_t t = visualColumns.size(1);
    const torch::Tensor rows =
        phase == Phase::Decode ? visualColumns : visualColumns.narrow(1, t - 1, 1);
    torch::Tensor sum = torch::zeros({patches}, torch::kDouble);
    sum.narrow(0, 0, n) +=
        rows.sum(at::IntArrayRef{0, 1}).to(torch::kDouble) / double(visualColumns.size(0));
    if (phase == Phase::Decode)
        answerDecode[size_t(layer)].push_back(sum);
    else if (phase == Phase::Prefill)
        answerPrefill[size_t(layer)] = sum;
}

int HookSink::answerSteps(const std::vector<int>& chosen) {
    for (size_t k = 0; k < chosen.size(); ++k)
        if (chosen[k] == tokens::kEos) return int(k);
    return std::max(0, int(chosen.size()) - 1);
}

void HookSink::attention(int layer, const torch::Tensor& slotProbs, int queryStart,
                         const KvCache& cache) {
    // Over a compressed cache, a merged slot's attention is shared evenly by
    // the tokens merged into it, so patches keep their own columns. Sums
    // are taken in float32 whatever the model's dtype.
    // Read on the host, whatever the model's device.
    const torch::Tensor host = slotProbs.to(torch::kCPU, torch::kFloat);
    const torch::Tensor probs =
        cache.compressed() ? host.index_select(2, cache.slotOfPosition.to(torch::kCPU)) /
                                 cache.logCount.to(torch::kCPU, torch::kFloat)
                                     .index_select(0, cache.slotOfPosition.to(torch::kCPU))
                                     .exp()
        : cache.positionOfSlot.defined() ? spreadToPositions(host, cache, queryStart)
                                         : host;
    const int64_t heads = probs.size(0), t = probs.size(1), s = probs.size(2);
    // Attention received by each patch from the text (non-visual) queries,
    // mean over heads. Only the visual columns and text rows are touched.
    const int64_t n = std::min<int64_t>(patches, s - firstPatch);
    if (n > 0) {
        int64_t lo = 0,
                hi = t; // text rows are those outside [firstPatch, firstPatch + patches)
        auto cols = probs.narrow(2, firstPatch, n);
        torch::Tensor sum = torch::zeros({n}, torch::kDouble);
        const int64_t visLo = std::clamp<int64_t>(firstPatch - queryStart, lo, hi);
        const int64_t visHi = std::clamp<int64_t>(firstPatch + patches - queryStart, lo, hi);
        if (visLo > lo)
            sum += cols.narrow(1, lo, visLo - lo).sum(at::IntArrayRef{0, 1}).to(torch::kDouble);
        if (hi > visHi)
            sum += cols.narrow(1, visHi, hi - visHi).sum(at::IntArrayRef{0, 1}).to(torch::kDouble);
        auto& into = phase == Phase::Decode ? receivedDecode : received;
        into[size_t(layer)].narrow(0, 0, n) += sum / double(heads);
        addAnswerAttention(layer, cols, n);
    }
    auto it = maps.find(layer);
    if (it != maps.end()) it->second.narrow(1, queryStart, t).narrow(2, 0, s).copy_(probs);
}

Batch HookSink::metricRows(int answerSteps) const {
    Batch b;
    for (size_t l = 0; l < received.size(); ++l) {
        auto pre = received[l].accessor<double, 1>();
        auto dec = receivedDecode[l].accessor<double, 1>();
        torch::Tensor answer = answerPrefill[l].clone();
        for (size_t s = 0; s < answerDecode[l].size() && int(s) < answerSteps; ++s)
            answer += answerDecode[l][s];
        auto ans = answer.accessor<double, 1>();
        for (int p = 0; p < patches; ++p) {
            const int patch = patchOf[size_t(p)];
            b.patchMetrics.push_back(PatchMetricRow{int(l), "attention", patch, pre[p] + dec[p]});
            b.patchMetrics.push_back(PatchMetricRow{int(l), "attention.prefill", patch, pre[p]});
            b.patchMetrics.push_back(PatchMetricRow{int(l), "attention.decode", patch, dec[p]});
            b.patchMetrics.push_back(PatchMetricRow{int(l), "answer_attention", patch, ans[p]});
        }
    }
    return b;
}

Batch HookSink::mapRows(int positions) const {
    Batch b;
    for (const auto& [layer, m] : maps) {
        auto used = m.narrow(1, 0, positions).narrow(2, 0, positions).contiguous();
        for (int64_t h = 0; h < used.size(0); ++h) {
            auto head = used[h].contiguous();
            AttnMapRow row{layer, int(h), positions, positions, {}};
            row.data.assign(head.data_ptr<float>(), head.data_ptr<float>() + head.numel());
            b.attnMaps.push_back(std::move(row));
        }
    }
    return b;
}

// The sink's buffers for the positions and patches of this run.
void sizeSink(HookSink& sink, const PreparedCapture& prep, const std::vector<int>& seen) {
    const auto& cfg = prep.config;
    const int patches = int(seen.size());
    sink.patches = patches;
    sink.patchOf = seen;
    sink.totalPositions = prep.sequenceLength - (cfg.vision.patches() - patches);
    for (int l = 0; l < cfg.llm.layers; ++l) {
        sink.received.push_back(torch::zeros({patches}, torch::kDouble));
        sink.receivedDecode.push_back(torch::zeros({patches}, torch::kDouble));
        sink.answerPrefill.push_back(torch::zeros({patches}, torch::kDouble));
    }
    sink.answerDecode.assign(size_t(cfg.llm.layers), {});
    for (int l : prep.options.attnLayers)
        sink.maps.emplace(l,
                          torch::zeros({cfg.llm.heads, sink.totalPositions, sink.totalPositions}));
}

// The model's hooks into `sink`: routing and attention, where probes are on.
ForwardHooks probeHooks(Recorder& rec, HookSink& sink, bool probes) {
    ForwardHooks hooks;
    hooks.measureKvError = true; // timed passes skip it
    if (!probes) return hooks;
    hooks.recorder = &rec;
    // The hooks' own work is the profiler's, not the model's: ProbeWork
    // hides its ops from the op callbacks and its time from the spans.
    hooks.routing = [&rec, &sink](int layer, const torch::Tensor& e, const torch::Tensor& w,
                                  const torch::Tensor& positions) {
        ProbeWork work(&rec);
        sink.routing(layer, e, w, positions);
    };
    hooks.attention = [&rec, &sink](int layer, const torch::Tensor& p, int q0,
                                    const KvCache& cache) {
        ProbeWork work(&rec);
        sink.attention(layer, p, q0, cache);
    };
    return hooks;
}
} // namespace mvp
