// The reference model's layers. Their forward passes are the model's real
// work; the what-if state they carry (quantised weights, frozen experts, a
// compressed KV cache) is set by capture/whatif/ and is inert until then, so
// a baseline runs exactly the plain computation.
#include "capture/models/VlmLayers.h"

#include "capture/models/transforms/Int8Engine.h"
#include "capture/models/transforms/KvMethods.h"

#include <cmath>

namespace mvp {

namespace F = torch::nn::functional;

int64_t countParams(const torch::nn::Module& m) {
    int64_t n = 0;
    for (const auto& p : m.parameters())
        n += p.numel();
    return n;
}

// ---- linear ------------------------------------------------------------------

int64_t QuantisedWeight::bytes() const {
    const int64_t stored = onEngine()   ? packedBytes * (packedSmall.isNone() ? 1 : 2)
                           : int4       ? int4->bytes()
                           : int8Matmul ? int8Matmul->bytes()
                                        : codes.bytes();
    return stored +
           (inputScale.defined() ? inputScale.numel() * int64_t(inputScale.element_size()) : 0);
}

LinImpl::LinImpl(int in, int out, bool hasBias) {
    weight = register_parameter("weight", torch::empty({out, in}));
    if (hasBias) bias = register_parameter("bias", torch::empty({out}));
}

torch::Tensor LinImpl::forward(const torch::Tensor& x) {
    if (calibration) calibration->push_back(x.detach().reshape({-1, x.size(-1)}).clone());
    if (!quant) return F::linear(x, weight, bias);
    auto in = quant->inputScale.defined() ? x / quant->inputScale.to(x.scalar_type()) : x;
    if (quant->onEngine()) { // bias packed with the weight
        const bool small =
            !quant->packedSmall.isNone() && in.numel() <= kSmallCallRows * in.size(-1);
        return linearDynamicInt8(in, small ? quant->packedSmall : quant->packed);
    }
    if (quant->int4) {
        auto y = int4Linear(in, *quant->int4);
        return bias.defined() ? y + bias : y;
    }
    if (quant->int8Matmul) { // W8 off the CPU (dequantised where libtorch has no int8 matmul)
        auto y = int8Linear(in, *quant->int8Matmul);
        return bias.defined() ? y + bias : y;
    }
    // W4 without an int4 kernel (libtorch 1.13), and W8 without an engine:
    // the matmul runs on the dequantised weights, which is why this gain in
    // time is predicted, not measured.
    auto w = dequantiseGroups(quant->codes).to(x.scalar_type());
    return F::linear(in, w, bias);
}

int64_t LinImpl::weightBytes() const {
    int64_t n = weight.numel() * int64_t(weight.element_size());
    if (bias.defined()) n += bias.numel() * int64_t(bias.element_size());
    return n + (quant ? quant->bytes() : 0);
}

// ---- vision ------------------------------------------------------------------

VitBlockImpl::VitBlockImpl(const VisionConfig& c) : heads(c.heads) {
    ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})));
    ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})));
    qkv = register_module("qkv", Lin(c.dim, 3 * c.dim, true));
    proj = register_module("proj", Lin(c.dim, c.dim, true));
    fc1 = register_module("fc1", Lin(c.dim, c.mlp, true));
    fc2 = register_module("fc2", Lin(c.mlp, c.dim, true));
}

torch::Tensor VitBlockImpl::forward(torch::Tensor x, Recorder* rec, VitTap* tap, ToMeState* tome,
                                    size_t index) {
    ProbeScope s(rec, id);
    {
        ProbeScope a(rec, attnId);
        const int64_t n = x.size(0), dim = x.size(1), hd = dim / heads;
        auto t = qkv(ln1(x)).view({n, 3, heads, hd}).permute({1, 2, 0, 3}); // [3, H, N, hd]
        auto q = t[0], k = t[1], v = t[2];
        auto scores = torch::matmul(q, k.transpose(1, 2)) / std::sqrt(double(hd));
        // ToMe's proportional attention: a key of size s counts s times.
        if (tome) scores = scores + tome->size.log().view({1, 1, n}).to(scores.scalar_type());
        auto probs = torch::softmax(scores, -1);
        if (tap) *tap = VitTap{probs, k};
        x = x + proj(torch::matmul(probs, v).transpose(0, 1).reshape({n, dim}));
        if (tome && index < tome->r.size() && tome->r[index] > 0)
            x = tomeMerge(x, k.mean(0), tome->r[index], *tome);
    }
    {
        ProbeScope m(rec, mlpId);
        x = x + fc2(torch::gelu(fc1(ln2(x))));
    }
    return x;
}

// ---- decoder -----------------------------------------------------------------

RmsNormImpl::RmsNormImpl(int dim) {
    weight = register_parameter("weight", torch::ones({dim}));
}
torch::Tensor RmsNormImpl::forward(const torch::Tensor& x) {
    return x * torch::rsqrt(x.pow(2).mean(-1, true) + 1e-6) * weight;
}

SwiGluImpl::SwiGluImpl(int dim, int hidden) {
    w1 = register_module("w1", Lin(dim, hidden, false));
    w2 = register_module("w2", Lin(hidden, dim, false));
    w3 = register_module("w3", Lin(dim, hidden, false));
}
torch::Tensor SwiGluImpl::forward(const torch::Tensor& x) {
    return w2(torch::silu(w1(x)) * w3(x));
}

Rope::Rope(int maxSeq, int headDim, double theta) {
    auto inv = 1.0 / torch::pow(theta, torch::arange(0, headDim, 2, torch::kDouble) / headDim);
    auto freqs = torch::outer(torch::arange(maxSeq, torch::kDouble), inv);
    auto emb = torch::cat({freqs, freqs}, -1).to(torch::kFloat);
    cos = emb.cos();
    sin = emb.sin();
}
namespace {
// Rotate-half RoPE with the rows' cos and sin [T, 1, headDim].
torch::Tensor rotate(const torch::Tensor& x, const torch::Tensor& c, const torch::Tensor& s) {
    const int64_t half = x.size(2) / 2;
    auto rotated = torch::cat({-x.narrow(2, half, half), x.narrow(2, 0, half)}, -1);
    return x * c + rotated * s;
}
} // namespace

torch::Tensor Rope::apply(const torch::Tensor& x, int pos0) const {
    const int64_t t = x.size(0);
    return rotate(x, cos.narrow(0, pos0, t).unsqueeze(1), sin.narrow(0, pos0, t).unsqueeze(1));
}
torch::Tensor Rope::apply(const torch::Tensor& x, const torch::Tensor& positions) const {
    return rotate(x, cos.index_select(0, positions).unsqueeze(1),
                  sin.index_select(0, positions).unsqueeze(1));
}

void KvCache::reset() {
    const auto options = torch::TensorOptions().dtype(dtype).device(device);
    k = torch::zeros({maxSeq, kvHeads, headDim}, options);
    v = torch::zeros({maxSeq, kvHeads, headDim}, options);
    slots = 0;
    logCount = slotOfPosition = positionOfSlot = torch::Tensor();
    method.reset();
    int4 = false;
    qk = qv = GroupCodes();
}

namespace {
GroupCodes rowsOf(const GroupCodes& c, int64_t from, int64_t count) {
    GroupCodes r = c;
    r.packed = c.packed.narrow(0, from, count);
    r.scale = c.scale.narrow(0, from, count);
    r.low = c.low.narrow(0, from, count);
    return r;
}
void writeRows(GroupCodes& into, int64_t at, const GroupCodes& rows) {
    const int64_t t = rows.packed.size(0);
    into.packed.narrow(0, at, t).copy_(rows.packed);
    into.scale.narrow(0, at, t).copy_(rows.scale);
    into.low.narrow(0, at, t).copy_(rows.low);
}
} // namespace

std::pair<torch::Tensor, torch::Tensor> KvCache::append(const torch::Tensor& keys,
                                                        const torch::Tensor& values) {
    const int64_t t = keys.size(0), first = slots;
    if (compressed()) {
        // New positions get a slot of their own.
        logCount.narrow(0, first, t).zero_();
        slotOfPosition =
            torch::cat({slotOfPosition, torch::arange(first, first + t, slotOfPosition.options())});
    }
    slots += int(t);
    if (method && method->kivi) return method->kivi->append(keys, values);
    if (!int4) {
        k.narrow(0, first, t).copy_(keys);
        v.narrow(0, first, t).copy_(values);
        return {k.narrow(0, 0, slots), v.narrow(0, 0, slots)};
    }
    writeRows(qk, first, quantiseGroups(keys, 4, headDim));
    writeRows(qv, first, quantiseGroups(values, 4, headDim));
    return {dequantiseGroups(rowsOf(qk, 0, slots)).to(dtype),
            dequantiseGroups(rowsOf(qv, 0, slots)).to(dtype)};
}

void KvCache::notePositions(const torch::Tensor& positions) {
    const int64_t t = positions.size(0);
    auto perHead = positions.unsqueeze(1).expand({t, kvHeads});
    positionOfSlot = slots == t ? perHead.contiguous() : torch::cat({positionOfSlot, perHead});
}

int64_t KvCache::bytes() const {
    if (method && method->kivi) return method->kivi->bytes();
    int64_t n = 0;
    if (int4)
        n = rowsOf(qk, 0, slots).bytes() + rowsOf(qv, 0, slots).bytes();
    else
        n = 2 * int64_t(slots) * kvHeads * headDim * int64_t(c10::elementSize(dtype));
    if (logCount.defined()) n += int64_t(slots) * int64_t(sizeof(float));
    return n;
}

AttentionImpl::AttentionImpl(const LlmConfig& c)
    : heads(c.heads), kvHeads(c.kvHeads), headDim(c.headDim()) {
    wq = register_module("wq", Lin(c.dim, c.heads * headDim, false));
    wk = register_module("wk", Lin(c.dim, c.kvHeads * headDim, false));
    wv = register_module("wv", Lin(c.dim, c.kvHeads * headDim, false));
    wo = register_module("wo", Lin(c.heads * headDim, c.dim, false));
    cache.maxSeq = c.maxSeq;
    cache.kvHeads = kvHeads;
    cache.headDim = headDim;
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, int pos0, const Rope& rope, int layer,
                                     const ForwardHooks& hooks, const LayerPass* pass) {
    const int64_t t = x.size(0);
    const int64_t slot0 = cache.slots;
    // StreamingLLM re-indexes positions inside the cache (its pos-shift
    // attention): keys are stored before RoPE and every pass rotates them,
    // and its queries, at their slots.
    const bool rotateInCache = cache.method && cache.method->rotatesInCache();
    auto q = wq(x).view({t, heads, headDim});
    auto k = wk(x).view({t, kvHeads, headDim});
    q = pass            ? rope.apply(q, pass->ropePositions)
        : rotateInCache ? rope.apply(q, int(slot0))
                        : rope.apply(q, pos0);
    if (!rotateInCache) k = pass ? rope.apply(k, pass->ropePositions) : rope.apply(k, pos0);
    if (pass && pass->keys) *pass->keys = k;
    auto v = wv(x).view({t, kvHeads, headDim});
    auto [cachedK, cachedV] = cache.append(k, v);
    if (rotateInCache) cachedK = rope.apply(cachedK, 0);
    const int64_t s = cache.slots;
    // Slots stop being positions once a prefill dropped visual tokens or a
    // KV method evicted some; a decode step's token then takes the next position.
    if (pass)
        cache.notePositions(pass->sequencePositions);
    else if (cache.positionOfSlot.defined())
        cache.notePositions(torch::arange(pos0, pos0 + t, cache.positionOfSlot.options()));
    const int group = heads / kvHeads;
    auto keys = cachedK.repeat_interleave(group, 1).transpose(0, 1); // [H, S, hd]
    auto vals = cachedV.repeat_interleave(group, 1).transpose(0, 1);
    auto scores =
        torch::matmul(q.transpose(0, 1), keys.transpose(1, 2)) / std::sqrt(double(headDim));
    if (t > 1) {
        // Query i sits in slot slot0 + i and may see slots up to there.
        auto future = torch::ones({t, s}, scores.options().dtype(torch::kBool)).triu(slot0 + 1);
        if (pass && pass->blocked.defined()) future = future | pass->blocked;
        scores = scores.masked_fill(future, -std::numeric_limits<float>::infinity());
    }
    // A merged slot stands for its tokens: proportional attention (+log count).
    if (cache.compressed())
        scores = scores + cache.logCount.narrow(0, 0, s).to(scores.scalar_type());
    auto probs = torch::softmax(scores, -1); // [H, T, S]
    if (pass && pass->lastQueryAttention)
        *pass->lastQueryAttention = probs.select(1, t - 1).mean(0);
    if (hooks.attention) hooks.attention(layer, probs, pos0, cache);
    auto out = wo(torch::matmul(probs, vals).transpose(0, 1).reshape({t, heads * headDim}));
    if (cache.method) afterKvPass(cache, probs, t);
    return out;
}

MoeImpl::MoeImpl(const LlmConfig& c, const std::vector<int>& ranking, double skew) : topK(c.topK) {
    gate = register_module("gate", Lin(c.dim, c.experts, false));
    for (int e = 0; e < c.experts; ++e)
        experts.push_back(
            register_module("expert" + std::to_string(e), SwiGlu(c.dim, c.expertFfn)));
    // Popularity ∝ (rank + 1)^−skew: a log-bias on the router's logits.
    bias = torch::zeros({c.experts});
    for (size_t r = 0; r < ranking.size(); ++r)
        bias[ranking[r]] = -skew * std::log(double(r) + 1.0);
}

torch::Tensor MoeImpl::forward(const torch::Tensor& x, Recorder* rec, int layer,
                               const ForwardHooks& hooks, const LayerPass* pass) {
    torch::Tensor chosen, weights;
    {
        ProbeScope g(rec, gateId);
        auto logits = gate(x) + bias;
        // A frozen expert cannot be chosen: its tokens go to their next-best active expert.
        if (frozen.defined())
            logits = logits.masked_fill(frozen, -std::numeric_limits<float>::infinity());
        auto probs = torch::softmax(logits, -1);
        auto top = probs.topk(topK, -1);
        chosen = std::get<1>(top);
        auto w = std::get<0>(top);
        if (skipBeta >= 0 && topK > 1) {
            // Expert_Sparsity's dynamic skipping: weight 0 and no expert call
            // (expert −1) below β·w₁, then the usual renormalisation.
            auto skip = w < skipBeta * w.narrow(1, 0, 1);
            skip.select(1, 0).fill_(false);
            w = w.masked_fill(skip, 0);
            chosen = chosen.masked_fill(skip, -1);
        }
        weights = w / w.sum(-1, true);
    }
    if (hooks.routing)
        hooks.routing(layer, chosen, weights, pass ? pass->sequencePositions : torch::Tensor());
    auto out = torch::zeros_like(x);
    for (size_t e = 0; e < experts.size(); ++e) {
        auto hit = chosen.eq(int64_t(e)); // [T, k]
        auto tokens = hit.any(1).nonzero().squeeze(1);
        if (tokens.numel() == 0) continue; // an idle expert does no work and gets no span
        ProbeScope s(rec, expertIds[e]);
        auto w = (weights * hit).sum(1).index_select(0, tokens).unsqueeze(1);
        out.index_add_(0, tokens, experts[e]->forward(x.index_select(0, tokens)) * w);
    }
    return out;
}

DecoderLayerImpl::DecoderLayerImpl(const LlmConfig& c, const std::vector<int>* ranking,
                                   double skew) {
    norm1 = register_module("norm1", RmsNorm(c.dim));
    norm2 = register_module("norm2", RmsNorm(c.dim));
    attn = register_module("attn", Attention(c));
    if (ranking)
        moe = register_module("moe", Moe(c, *ranking, skew));
    else
        ffn = register_module("ffn", SwiGlu(c.dim, c.ffn));
}

torch::Tensor DecoderLayerImpl::forward(torch::Tensor x, int pos0, const Rope& rope, int layer,
                                        const ForwardHooks& hooks, const LayerPass* pass) {
    Recorder* rec = hooks.recorder;
    ProbeScope s(rec, id);
    {
        ProbeScope a(rec, attnId);
        x = x + attn->forward(norm1(x), pos0, rope, layer, hooks, pass);
    }
    ProbeScope f(rec, ffnId);
    return x + (moe ? moe->forward(norm2(x), rec, layer, hooks, pass) : ffn(norm2(x)));
}

} // namespace mvp
