#include "capture/models/Vlm.h"

#include <ATen/CPUGeneratorImpl.h>
#include <cmath>

namespace mvp {

namespace F = torch::nn::functional;

namespace {

// Assigns probe ids and the hierarchical names of DIAGNOSTICS.md §1.
struct Registry {
    std::vector<ModuleRow> rows;
    int64_t add(const std::string& path, const std::string& kind, std::optional<int64_t> parent,
                int64_t params = 0) {
        const int64_t id = int64_t(rows.size()) + 1;
        rows.push_back(ModuleRow{id, path, kind, parent, params});
        return id;
    }
    void setParams(int64_t id, int64_t params) { rows[size_t(id - 1)].params = params; }
};

int64_t countParams(const torch::nn::Module& m) {
    int64_t n = 0;
    for (const auto& p : m.parameters())
        n += p.numel();
    return n;
}

torch::nn::Linear linear(int in, int out, bool bias) {
    return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias));
}

// ---- vision ----------------------------------------------------------------

struct VitBlockImpl : torch::nn::Module {
    int heads;
    torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
    torch::nn::Linear qkv{nullptr}, proj{nullptr}, fc1{nullptr}, fc2{nullptr};
    int64_t id = 0, attnId = 0, mlpId = 0;

    VitBlockImpl(const VisionConfig& c) : heads(c.heads) {
        ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})));
        ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})));
        qkv = register_module("qkv", linear(c.dim, 3 * c.dim, true));
        proj = register_module("proj", linear(c.dim, c.dim, true));
        fc1 = register_module("fc1", linear(c.dim, c.mlp, true));
        fc2 = register_module("fc2", linear(c.mlp, c.dim, true));
    }

    torch::Tensor forward(torch::Tensor x, Recorder* rec) {
        ProbeScope s(rec, id);
        {
            ProbeScope a(rec, attnId);
            const int64_t n = x.size(0), dim = x.size(1), hd = dim / heads;
            auto t = qkv(ln1(x)).view({n, 3, heads, hd}).permute({1, 2, 0, 3}); // [3, H, N, hd]
            auto q = t[0], k = t[1], v = t[2];
            auto probs =
                torch::softmax(torch::matmul(q, k.transpose(1, 2)) / std::sqrt(double(hd)), -1);
            x = x + proj(torch::matmul(probs, v).transpose(0, 1).reshape({n, dim}));
        }
        {
            ProbeScope m(rec, mlpId);
            x = x + fc2(torch::gelu(fc1(ln2(x))));
        }
        return x;
    }
};
TORCH_MODULE(VitBlock);

// ---- decoder ---------------------------------------------------------------

struct RmsNormImpl : torch::nn::Module {
    torch::Tensor weight;
    explicit RmsNormImpl(int dim) { weight = register_parameter("weight", torch::ones({dim})); }
    torch::Tensor forward(const torch::Tensor& x) {
        return x * torch::rsqrt(x.pow(2).mean(-1, true) + 1e-6) * weight;
    }
};
TORCH_MODULE(RmsNorm);

struct SwiGluImpl : torch::nn::Module {
    torch::nn::Linear w1{nullptr}, w2{nullptr}, w3{nullptr};
    SwiGluImpl(int dim, int hidden) {
        w1 = register_module("w1", linear(dim, hidden, false));
        w2 = register_module("w2", linear(hidden, dim, false));
        w3 = register_module("w3", linear(dim, hidden, false));
    }
    torch::Tensor forward(const torch::Tensor& x) { return w2(torch::silu(w1(x)) * w3(x)); }
};
TORCH_MODULE(SwiGlu);

// Rotary position embedding (rotate-half form) for positions [0, maxSeq).
struct Rope {
    torch::Tensor cos, sin; // [maxSeq, headDim]
    Rope(int maxSeq, int headDim, double theta) {
        auto inv = 1.0 / torch::pow(theta, torch::arange(0, headDim, 2, torch::kDouble) / headDim);
        auto freqs = torch::outer(torch::arange(maxSeq, torch::kDouble), inv);
        auto emb = torch::cat({freqs, freqs}, -1).to(torch::kFloat);
        cos = emb.cos();
        sin = emb.sin();
    }
    // x: [T, heads, headDim] at positions [pos0, pos0 + T).
    torch::Tensor apply(const torch::Tensor& x, int pos0) const {
        const int64_t t = x.size(0), half = x.size(2) / 2;
        auto c = cos.narrow(0, pos0, t).unsqueeze(1);
        auto s = sin.narrow(0, pos0, t).unsqueeze(1);
        auto rotated = torch::cat({-x.narrow(2, half, half), x.narrow(2, 0, half)}, -1);
        return x * c + rotated * s;
    }
};

struct AttentionImpl : torch::nn::Module {
    int heads, kvHeads, headDim, maxSeq;
    torch::nn::Linear wq{nullptr}, wk{nullptr}, wv{nullptr}, wo{nullptr};
    torch::Tensor cacheK, cacheV; // [maxSeq, kvHeads, headDim]

    explicit AttentionImpl(const LlmConfig& c)
        : heads(c.heads), kvHeads(c.kvHeads), headDim(c.headDim()), maxSeq(c.maxSeq) {
        wq = register_module("wq", linear(c.dim, c.heads * headDim, false));
        wk = register_module("wk", linear(c.dim, c.kvHeads * headDim, false));
        wv = register_module("wv", linear(c.dim, c.kvHeads * headDim, false));
        wo = register_module("wo", linear(c.heads * headDim, c.dim, false));
    }

    void reset(const torch::TensorOptions& opts) {
        cacheK = torch::zeros({maxSeq, kvHeads, headDim}, opts);
        cacheV = torch::zeros({maxSeq, kvHeads, headDim}, opts);
    }

    torch::Tensor forward(const torch::Tensor& x, int pos0, const Rope& rope, int layer,
                          const ForwardHooks& hooks) {
        const int64_t t = x.size(0);
        auto q = rope.apply(wq(x).view({t, heads, headDim}), pos0);
        auto k = rope.apply(wk(x).view({t, kvHeads, headDim}), pos0);
        auto v = wv(x).view({t, kvHeads, headDim});
        cacheK.narrow(0, pos0, t).copy_(k);
        cacheV.narrow(0, pos0, t).copy_(v);
        const int64_t s = pos0 + t;
        const int group = heads / kvHeads;
        auto keys =
            cacheK.narrow(0, 0, s).repeat_interleave(group, 1).transpose(0, 1); // [H, S, hd]
        auto vals = cacheV.narrow(0, 0, s).repeat_interleave(group, 1).transpose(0, 1);
        auto scores =
            torch::matmul(q.transpose(0, 1), keys.transpose(1, 2)) / std::sqrt(double(headDim));
        if (t > 1) {
            // Query i sits at position pos0 + i and may see keys up to there.
            auto future = torch::ones({t, s}, torch::kBool).triu(pos0 + 1);
            scores = scores.masked_fill(future, -std::numeric_limits<float>::infinity());
        }
        auto probs = torch::softmax(scores, -1); // [H, T, S]
        if (hooks.attention) hooks.attention(layer, probs, pos0);
        return wo(torch::matmul(probs, vals).transpose(0, 1).reshape({t, heads * headDim}));
    }
};
TORCH_MODULE(Attention);

struct MoeImpl : torch::nn::Module {
    int topK;
    torch::nn::Linear gate{nullptr};
    torch::Tensor bias; // routing skew, fixed (not a parameter)
    std::vector<SwiGlu> experts;
    int64_t gateId = 0;
    std::vector<int64_t> expertIds;

    MoeImpl(const LlmConfig& c, const std::vector<int>& ranking, double skew) : topK(c.topK) {
        gate = register_module("gate", linear(c.dim, c.experts, false));
        for (int e = 0; e < c.experts; ++e)
            experts.push_back(
                register_module("expert" + std::to_string(e), SwiGlu(c.dim, c.expertFfn)));
        // Popularity ∝ (rank + 1)^−skew: a log-bias on the router's logits.
        bias = torch::zeros({c.experts});
        for (size_t r = 0; r < ranking.size(); ++r)
            bias[ranking[r]] = -skew * std::log(double(r) + 1.0);
    }

    torch::Tensor forward(const torch::Tensor& x, Recorder* rec, int layer,
                          const ForwardHooks& hooks) {
        torch::Tensor chosen, weights;
        {
            ProbeScope g(rec, gateId);
            auto probs = torch::softmax(gate(x) + bias, -1);
            auto top = probs.topk(topK, -1);
            chosen = std::get<1>(top);
            weights = std::get<0>(top) / std::get<0>(top).sum(-1, true);
        }
        if (hooks.routing) hooks.routing(layer, chosen, weights);
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
};
TORCH_MODULE(Moe);

struct DecoderLayerImpl : torch::nn::Module {
    RmsNorm norm1{nullptr}, norm2{nullptr};
    Attention attn{nullptr};
    SwiGlu ffn{nullptr};
    Moe moe{nullptr};
    int64_t id = 0, attnId = 0, ffnId = 0;

    DecoderLayerImpl(const LlmConfig& c, const std::vector<int>* ranking, double skew) {
        norm1 = register_module("norm1", RmsNorm(c.dim));
        norm2 = register_module("norm2", RmsNorm(c.dim));
        attn = register_module("attn", Attention(c));
        if (ranking)
            moe = register_module("moe", Moe(c, *ranking, skew));
        else
            ffn = register_module("ffn", SwiGlu(c.dim, c.ffn));
    }

    torch::Tensor forward(torch::Tensor x, int pos0, const Rope& rope, int layer,
                          const ForwardHooks& hooks) {
        Recorder* rec = hooks.recorder;
        ProbeScope s(rec, id);
        {
            ProbeScope a(rec, attnId);
            x = x + attn->forward(norm1(x), pos0, rope, layer, hooks);
        }
        ProbeScope f(rec, ffnId);
        return x + (moe ? moe->forward(norm2(x), rec, layer, hooks) : ffn(norm2(x)));
    }
};
TORCH_MODULE(DecoderLayer);

} // namespace

struct VlmModel::Impl : torch::nn::Module {
    VlmConfig cfg;
    Registry reg;
    // vision
    torch::nn::Conv2d patchEmbed{nullptr};
    torch::Tensor posEmbed;
    std::vector<VitBlock> vit;
    torch::nn::LayerNorm vitNorm{nullptr};
    // projector
    torch::nn::Linear proj1{nullptr}, proj2{nullptr};
    // decoder
    torch::nn::Embedding tokEmbed{nullptr};
    std::vector<DecoderLayer> layers;
    RmsNorm finalNorm{nullptr};
    torch::nn::Linear lmHead{nullptr};
    std::unique_ptr<Rope> rope;
    int cached = 0;
    int64_t idVision = 0, idPatch = 0, idVitNorm = 0, idProj = 0, idLlm = 0, idEmbed = 0,
            idNorm = 0, idHead = 0;

    explicit Impl(const VlmConfig& c);
    void initWeights();
};

VlmModel::Impl::Impl(const VlmConfig& c) : cfg(c) {
    const auto& v = c.vision;
    const auto& l = c.llm;
    patchEmbed = register_module(
        "patch_embed",
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, v.dim, v.patch).stride(v.patch)));
    posEmbed = register_parameter("pos_embed", torch::zeros({v.patches(), v.dim}));
    const int64_t visionId = idVision = reg.add("vision", "VisionEncoder", std::nullopt);
    idPatch = reg.add("vision.patch_embed", "PatchEmbed", visionId,
                      countParams(*patchEmbed) + posEmbed.numel());
    for (int i = 0; i < v.layers; ++i) {
        auto b = register_module("vit" + std::to_string(i), VitBlock(v));
        const std::string path = "vision.block." + std::to_string(i);
        b->id = reg.add(path, "VitBlock", visionId, countParams(*b));
        b->attnId = reg.add(path + ".attn", "Attention", b->id,
                            countParams(*b->qkv) + countParams(*b->proj) + countParams(*b->ln1));
        b->mlpId = reg.add(path + ".mlp", "Mlp", b->id,
                           countParams(*b->fc1) + countParams(*b->fc2) + countParams(*b->ln2));
        vit.push_back(b);
    }
    vitNorm =
        register_module("vit_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({v.dim})));
    idVitNorm = reg.add("vision.norm", "LayerNorm", visionId, countParams(*vitNorm));
    reg.setParams(
        visionId, countParams(*patchEmbed) + posEmbed.numel() + countParams(*vitNorm) + [&] {
            int64_t n = 0;
            for (auto& b : vit)
                n += countParams(*b);
            return n;
        }());

    proj1 = register_module("proj1", linear(v.dim, c.projectorHidden, true));
    proj2 = register_module("proj2", linear(c.projectorHidden, l.dim, true));
    idProj =
        reg.add("projector", "Projector", std::nullopt, countParams(*proj1) + countParams(*proj2));

    const int64_t llmId = idLlm = reg.add("llm", "Decoder", std::nullopt);
    tokEmbed = register_module("tok_embed", torch::nn::Embedding(l.vocab, l.dim));
    idEmbed = reg.add("llm.embed", "Embedding", llmId, countParams(*tokEmbed));
    int64_t llmParams = countParams(*tokEmbed);
    size_t moeIndex = 0;
    for (int i = 0; i < l.layers; ++i) {
        const std::vector<int>* ranking = l.isMoe(i) ? &c.expertRanking.at(moeIndex++) : nullptr;
        auto layer =
            register_module("layer" + std::to_string(i), DecoderLayer(l, ranking, c.routingSkew));
        const std::string path = "llm.layer." + std::to_string(i);
        layer->id = reg.add(path, "DecoderLayer", llmId, countParams(*layer));
        layer->attnId = reg.add(path + ".attn", "Attention", layer->id,
                                countParams(*layer->attn) + countParams(*layer->norm1));
        if (layer->moe) {
            layer->ffnId = reg.add(path + ".moe", "MoE", layer->id,
                                   countParams(*layer->moe) + countParams(*layer->norm2));
            layer->moe->gateId =
                reg.add(path + ".moe.gate", "Router", layer->ffnId, countParams(*layer->moe->gate));
            for (int e = 0; e < l.experts; ++e)
                layer->moe->expertIds.push_back(
                    reg.add(path + ".moe.expert." + std::to_string(e), "Expert", layer->ffnId,
                            countParams(*layer->moe->experts[size_t(e)])));
        } else {
            layer->ffnId = reg.add(path + ".mlp", "Mlp", layer->id,
                                   countParams(*layer->ffn) + countParams(*layer->norm2));
        }
        llmParams += countParams(*layer);
        layers.push_back(layer);
    }
    finalNorm = register_module("final_norm", RmsNorm(l.dim));
    idNorm = reg.add("llm.norm", "RMSNorm", llmId, countParams(*finalNorm));
    lmHead = register_module("lm_head", linear(l.dim, l.vocab, false));
    idHead = reg.add("llm.lm_head", "Linear", llmId, countParams(*lmHead));
    reg.setParams(llmId, llmParams + countParams(*finalNorm) + countParams(*lmHead));
    rope = std::make_unique<Rope>(l.maxSeq, l.headDim(), l.ropeTheta);
    initWeights();
}

// GPT-style initialisation from a generator seeded by the config, so a preset
// and seed always give the same weights. Router and query/key weights get a
// larger scale so routing and attention depend on the token, not only on the
// skew bias or a uniform softmax.
void VlmModel::Impl::initWeights() {
    auto gen = at::detail::createCPUGenerator(cfg.seed + 0x9E3779B97F4A7C15ull);
    torch::NoGradGuard noGrad;
    for (auto& item : named_parameters()) {
        const std::string& name = item.key();
        auto& p = item.value();
        const bool isBias = name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0;
        const bool isNorm =
            name.find("norm") != std::string::npos || name.find(".ln") != std::string::npos;
        if (isNorm)
            p.fill_(isBias ? 0.0 : 1.0);
        else if (isBias)
            p.zero_();
        else if (name.find("gate.weight") != std::string::npos ||
                 name.find("wq.weight") != std::string::npos ||
                 name.find("wk.weight") != std::string::npos ||
                 name.find("qkv.weight") != std::string::npos)
            // Unit-variance logits: attention and routing depend on the input, as in a trained
            // model.
            p.normal_(0.0, 1.0 / std::sqrt(double(p.size(1))), gen);
        else
            p.normal_(0.0, 0.02, gen);
    }
}

VlmModel::VlmModel(const VlmConfig& config) : d(std::make_unique<Impl>(config)) {
    d->eval();
    reset();
}
VlmModel::~VlmModel() = default;

const VlmConfig& VlmModel::config() const {
    return d->cfg;
}
const std::vector<ModuleRow>& VlmModel::modules() const {
    return d->reg.rows;
}
int64_t VlmModel::parameterCount() const {
    return countParams(*d);
}

torch::Tensor VlmModel::encodeImage(const torch::Tensor& pixels, const ForwardHooks& hooks) {
    Recorder* rec = hooks.recorder;
    ProbeScope s(rec, d->idVision);
    torch::Tensor x;
    {
        ProbeScope p(rec, d->idPatch);
        x = d->patchEmbed(pixels).flatten(2).squeeze(0).transpose(0, 1) + d->posEmbed; // [N, D]
    }
    for (auto& b : d->vit)
        x = b->forward(x, rec);
    ProbeScope n(rec, d->idVitNorm);
    return d->vitNorm(x);
}

torch::Tensor VlmModel::project(const torch::Tensor& features, const ForwardHooks& hooks) {
    ProbeScope s(hooks.recorder, d->idProj);
    return d->proj2(torch::gelu(d->proj1(features)));
}

torch::Tensor VlmModel::forward(const std::vector<int>& ids, const torch::Tensor& visual,
                                size_t visualAt, const ForwardHooks& hooks) {
    Recorder* rec = hooks.recorder;
    ProbeScope s(rec, d->idLlm);
    torch::Tensor x;
    {
        ProbeScope e(rec, d->idEmbed);
        std::vector<int64_t> v(ids.begin(), ids.end());
        auto text = d->tokEmbed(torch::tensor(v, torch::kLong));
        if (visual.defined()) {
            const auto at = int64_t(std::min(visualAt, ids.size()));
            x = torch::cat({text.narrow(0, 0, at), visual, text.narrow(0, at, text.size(0) - at)},
                           0);
        } else {
            x = text;
        }
    }
    const int pos0 = d->cached;
    for (size_t i = 0; i < d->layers.size(); ++i)
        x = d->layers[i]->forward(x, pos0, *d->rope, int(i), hooks);
    d->cached = pos0 + int(x.size(0));
    torch::Tensor last;
    {
        ProbeScope n(rec, d->idNorm);
        last = d->finalNorm(x.narrow(0, x.size(0) - 1, 1));
    }
    ProbeScope h(rec, d->idHead);
    return d->lmHead(last).squeeze(0);
}

void VlmModel::reset() {
    for (auto& l : d->layers)
        l->attn->reset(torch::TensorOptions().dtype(torch::kFloat));
    d->cached = 0;
}

int VlmModel::cachedPositions() const {
    return d->cached;
}

} // namespace mvp
