#include "capture/models/Vlm.h"

#include "capture/models/VlmLayers.h"
#include "capture/models/Weights.h"
#include "capture/models/transforms/KvCompress.h"
#include "capture/models/transforms/KvMethods.h"
#include "capture/models/transforms/VisualTokenDrop.h"
#include "capture/models/transforms/VisualTokenMerge.h"

#include <ATen/CPUGeneratorImpl.h>
#include <cmath>
#include <numeric>
#include <type_traits>

namespace mvp {

VlmModel::Impl::Impl(const VlmConfig& c) : cfg(c) {
    const auto& v = c.vision;
    const auto& l = c.llm;
    patchEmbed = register_module(
        "patch_embed",
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, v.dim, v.patch).stride(v.patch)));
    posEmbed = register_parameter("pos_embed", torch::zeros({v.patches(), v.dim}));
    const int64_t visionId = idVision =
        reg.add("vision", "VisionEncoder", std::nullopt, 0, ModuleRole::Vision);
    idPatch = reg.add("vision.patch_embed", "PatchEmbed", visionId,
                      countParams(*patchEmbed) + posEmbed.numel());
    for (int i = 0; i < v.layers; ++i) {
        auto b = register_module("vit" + std::to_string(i), VitBlock(v));
        const std::string path = "vision.block." + std::to_string(i);
        b->id = reg.add(path, "VitBlock", visionId, countParams(*b));
        b->attnId = reg.add(path + ".attn", "Attention", b->id,
                            countParams(*b->qkv) + countParams(*b->proj) + countParams(*b->ln1),
                            ModuleRole::Attention, i);
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

    proj1 = register_module("proj1", Lin(v.dim, c.projectorHidden, true));
    proj2 = register_module("proj2", Lin(c.projectorHidden, l.dim, true));
    idProj = reg.add("projector", "Projector", std::nullopt,
                     countParams(*proj1) + countParams(*proj2), ModuleRole::Projector);

    const int64_t llmId = idLlm = reg.add("llm", "Decoder", std::nullopt, 0, ModuleRole::Llm);
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
                                countParams(*layer->attn) + countParams(*layer->norm1),
                                ModuleRole::Attention, i);
        if (layer->moe) {
            layer->ffnId =
                reg.add(path + ".moe", "MoE", layer->id,
                        countParams(*layer->moe) + countParams(*layer->norm2), ModuleRole::Moe, i);
            layer->moe->gateId = reg.add(path + ".moe.gate", "Router", layer->ffnId,
                                         countParams(*layer->moe->gate), ModuleRole::Router, i);
            for (int e = 0; e < l.experts; ++e)
                layer->moe->expertIds.push_back(reg.add(
                    path + ".moe.expert." + std::to_string(e), "Expert", layer->ffnId,
                    countParams(*layer->moe->experts[size_t(e)]), ModuleRole::Expert, i, e));
        } else {
            layer->ffnId = reg.add(path + ".mlp", "Mlp", layer->id,
                                   countParams(*layer->ffn) + countParams(*layer->norm2));
        }
        llmParams += countParams(*layer);
        layers.push_back(layer);
    }
    finalNorm = register_module("final_norm", RmsNorm(l.dim));
    idNorm = reg.add("llm.norm", "RMSNorm", llmId, countParams(*finalNorm));
    lmHead = register_module("lm_head", Lin(l.dim, l.vocab, false));
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

torch::Tensor VlmModel::Impl::positionTable(int64_t side) const {
    const int64_t grid = cfg.vision.gridSide();
    if (side == grid) return posEmbed;
    auto table = posEmbed.t().reshape({1, posEmbed.size(1), grid, grid});
    namespace F = torch::nn::functional;
    auto resized = F::interpolate(table, F::InterpolateFuncOptions()
                                             .size(std::vector<int64_t>{side, side})
                                             .mode(torch::kBilinear)
                                             .align_corners(false));
    return resized.reshape({posEmbed.size(1), side * side}).t();
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
Result<std::string> VlmModel::loadWeights(const WeightsSource& source) {
    return mvp::loadWeights(*d, source.path, d->cfg.preset, source.sha256);
}
Status VlmModel::saveWeights(const std::string& path,
                             const std::map<std::string, std::string>& metadata) const {
    return mvp::saveWeights(*d, path, metadata);
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
        auto patches = d->patchEmbed(pixels); // [1, D, side, side]
        x = patches.flatten(2).squeeze(0).transpose(0, 1) +
            d->positionTable(patches.size(2)); // [N, D]
    }
    VitTap tap;
    const bool tapLast = d->visionZip || hooks.lastVisionAttention;
    std::optional<ToMeState> tome;
    if (!d->tomeSchedule.empty())
        tome = ToMeState{d->tomeSchedule, torch::ones({x.size(0), 1}, x.options()),
                         torch::arange(x.size(0), x.options().dtype(torch::kLong))};
    for (size_t i = 0; i < d->vit.size(); ++i)
        x = d->vit[i]->forward(x, rec, tapLast && i + 1 == d->vit.size() ? &tap : nullptr,
                               tome ? &*tome : nullptr, i);
    if (tome) {
        const auto patches = tome->patchOf.to(torch::kCPU).contiguous();
        d->lastTomePatches.assign(patches.data_ptr<int64_t>(),
                                  patches.data_ptr<int64_t>() + patches.numel());
    }
    if (hooks.lastVisionAttention) hooks.lastVisionAttention(tap.probs, tap.keys);
    ProbeScope n(rec, d->idVitNorm);
    x = d->vitNorm(x);
    // VisionZip reads the layer whose output feeds the projector (LLaVA's
    // select_layer −2, CLIP's penultimate); here that is the last block.
    if (d->visionZip) x = visionZipFeatures(x, tap.probs, tap.keys, *d->visionZip, d->lastZip);
    return x;
}

torch::Tensor VlmModel::project(const torch::Tensor& features, const ForwardHooks& hooks) {
    ProbeScope s(hooks.recorder, d->idProj);
    return d->proj2(torch::gelu(d->proj1(features)));
}

torch::Tensor VlmModel::forward(const std::vector<int>& ids, const torch::Tensor& visual,
                                size_t visualAt, const ForwardHooks& hooks, bool allPositions) {
    Recorder* rec = hooks.recorder;
    ProbeScope s(rec, d->idLlm);
    torch::Tensor x;
    {
        ProbeScope e(rec, d->idEmbed);
        std::vector<int64_t> v(ids.begin(), ids.end());
        auto text = d->tokEmbed(torch::tensor(v, torch::kLong).to(device()));
        if (visual.defined()) {
            const auto at = int64_t(std::min(visualAt, ids.size()));
            x = torch::cat({text.narrow(0, 0, at), visual, text.narrow(0, at, text.size(0) - at)},
                           0);
        } else {
            x = text;
        }
    }
    const int pos0 = d->cached;
    const auto at = int64_t(std::min(visualAt, ids.size()));
    d->cached = pos0 + int(x.size(0)); // positions, whether or not their tokens are dropped
    if (d->tokenDrop && visual.defined() && pos0 == 0) {
        x = forwardDroppingVisual(*d, x, at, visual.size(0), hooks);
    } else {
        for (size_t i = 0; i < d->layers.size(); ++i)
            x = d->layers[i]->forward(x, pos0, *d->rope, int(i), hooks);
    }
    if (d->kvCompression && visual.defined() && pos0 == 0) {
        // KV compression acts on the prefill's cache, before the first decode step.
        for (auto& layer : d->layers)
            compressKvCache(layer->attn->cache, at, visual.size(0), *d->kvCompression,
                            hooks.measureKvError ? &d->kvReport : nullptr, rec);
    }
    torch::Tensor last;
    {
        ProbeScope n(rec, d->idNorm);
        last = d->finalNorm(allPositions ? x : x.narrow(0, x.size(0) - 1, 1));
    }
    ProbeScope h(rec, d->idHead);
    auto logits = d->lmHead(last);
    return allPositions ? logits : logits.squeeze(0);
}

torch::Tensor VlmModel::forwardBranches(const std::vector<int>& prefixIds,
                                        const torch::Tensor& visual,
                                        const std::vector<std::vector<int>>& branches,
                                        const ForwardHooks& hooks) {
    reset();
    std::vector<int64_t> ids(prefixIds.begin(), prefixIds.end());
    const int64_t prefix = int64_t(ids.size()) + visual.size(0);
    // Per row: its RoPE position and which branch it belongs to (−1: the prefix).
    std::vector<int64_t> positions(static_cast<size_t>(prefix));
    std::vector<int64_t> branchOf(static_cast<size_t>(prefix), -1);
    std::iota(positions.begin(), positions.end(), int64_t(0));
    for (size_t b = 0; b < branches.size(); ++b)
        for (size_t i = 0; i < branches[b].size(); ++i) {
            ids.push_back(branches[b][i]);
            positions.push_back(prefix + int64_t(i));
            branchOf.push_back(int64_t(b));
        }
    const auto dev = device();
    const auto text = d->tokEmbed(torch::tensor(ids, torch::kLong).to(dev));
    const auto at = int64_t(prefixIds.size());
    auto x = torch::cat({text.narrow(0, 0, at), visual, text.narrow(0, at, text.size(0) - at)}, 0);
    const auto rows = torch::tensor(branchOf, torch::kLong);
    LayerPass pass;
    pass.ropePositions = torch::tensor(positions, torch::kLong).to(dev);
    pass.sequencePositions = torch::arange(x.size(0), pass.ropePositions.options());
    // A branch's row may not see another branch's slots; the prefix is everyone's.
    pass.blocked = (rows.unsqueeze(1) != rows.unsqueeze(0)).logical_and(rows.unsqueeze(0) >= 0)
                       .to(dev);
    d->cached = int(x.size(0));
    for (size_t i = 0; i < d->layers.size(); ++i)
        x = d->layers[i]->forward(x, 0, *d->rope, int(i), hooks, &pass);
    return d->lmHead(d->finalNorm(x));
}

namespace {
// Casts (a dtype) or moves (a device) the model, and what Module::to does not
// reach: the position tables, the routing bias, the KV caches' settings.
template <typename Where> void relocate(VlmModel::Impl& d, const Where& where) {
    torch::NoGradGuard noGrad;
    d.to(where);
    d.rope->cos = d.rope->cos.to(where);
    d.rope->sin = d.rope->sin.to(where);
    for (auto& l : d.layers) {
        if constexpr (std::is_same_v<Where, torch::Device>)
            l->attn->cache.device = where;
        else
            l->attn->cache.dtype = where;
        if (l->moe) l->moe->bias = l->moe->bias.to(where);
    }
}
} // namespace

void VlmModel::setDtype(torch::ScalarType dtype) {
    relocate(*d, dtype);
    reset();
}

void VlmModel::setDevice(const torch::Device& device) {
    relocate(*d, device);
    reset();
}

torch::Device VlmModel::device() const {
    return d->tokEmbed->weight.device(); // the embedding is never quantised nor released
}

void VlmModel::settle() const {
    if (const auto dev = device(); dev.is_cuda()) torch::cuda::synchronize(dev.index());
}

void VlmModel::reset() {
    for (auto& l : d->layers) {
        l->attn->cache.reset();
        if (d->kvMethod) installKvMethod(l->attn->cache, *d->kvMethod);
    }
    d->cached = 0;
}

int64_t VlmModel::weightBytes() const {
    int64_t n = 0;
    for (const auto& p : d->parameters())
        n += p.numel() * int64_t(p.element_size());
    for (const auto& m : d->modules(/*include_self=*/false))
        if (const auto* lin = m->as<LinImpl>(); lin && lin->quant) n += lin->quant->bytes();
    return n;
}

int64_t VlmModel::kvBytes() const {
    int64_t n = 0;
    for (const auto& l : d->layers)
        n += l->attn->cache.bytes();
    return n;
}

VlmModel::Impl& VlmModel::impl() {
    return *d;
}

int VlmModel::cachedPositions() const {
    return d->cached;
}

} // namespace mvp
