#include "capture/config/Config.h"

#include "capture/config/Resources.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

namespace mvp {

bool LlmConfig::isMoe(int layer) const {
    return std::find(moeLayers.begin(), moeLayers.end(), layer) != moeLayers.end();
}

int64_t WeightTensor::elements() const {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

namespace {
// The names libtorch gives the parameters registered in VlmLayers.cpp and
// Vlm.cpp: a module's own parameters first, then its children's in the
// order they were registered.
struct WeightList {
    std::vector<WeightTensor>& out;
    void add(const std::string& name, std::vector<int64_t> shape) {
        out.push_back({name, std::move(shape)});
    }
    void linear(const std::string& name, int64_t in, int64_t out_, bool bias) {
        add(name + ".weight", {out_, in});
        if (bias) add(name + ".bias", {out_});
    }
    void layerNorm(const std::string& name, int64_t dim) {
        add(name + ".weight", {dim});
        add(name + ".bias", {dim});
    }
    void swiGlu(const std::string& name, int64_t dim, int64_t hidden) {
        linear(name + ".w1", dim, hidden, false);
        linear(name + ".w2", hidden, dim, false);
        linear(name + ".w3", dim, hidden, false);
    }
};
} // namespace

std::vector<WeightTensor> VlmConfig::weightTensors() const {
    std::vector<WeightTensor> all;
    WeightList w{all};
    const auto& v = vision;
    const auto& l = llm;
    w.add("pos_embed", {v.patches(), v.dim});
    w.add("patch_embed.weight", {v.dim, 3, v.patch, v.patch});
    w.add("patch_embed.bias", {v.dim});
    for (int i = 0; i < v.layers; ++i) {
        const std::string b = "vit" + std::to_string(i);
        w.layerNorm(b + ".ln1", v.dim);
        w.layerNorm(b + ".ln2", v.dim);
        w.linear(b + ".qkv", v.dim, 3 * v.dim, true);
        w.linear(b + ".proj", v.dim, v.dim, true);
        w.linear(b + ".fc1", v.dim, v.mlp, true);
        w.linear(b + ".fc2", v.mlp, v.dim, true);
    }
    w.layerNorm("vit_norm", v.dim);
    w.linear("proj1", v.dim, projectorHidden, true);
    w.linear("proj2", projectorHidden, l.dim, true);
    w.add("tok_embed.weight", {l.vocab, l.dim});
    const int64_t hd = l.headDim();
    for (int i = 0; i < l.layers; ++i) {
        const std::string d = "layer" + std::to_string(i);
        w.add(d + ".norm1.weight", {l.dim});
        w.add(d + ".norm2.weight", {l.dim});
        w.linear(d + ".attn.wq", l.dim, l.heads * hd, false);
        w.linear(d + ".attn.wk", l.dim, l.kvHeads * hd, false);
        w.linear(d + ".attn.wv", l.dim, l.kvHeads * hd, false);
        w.linear(d + ".attn.wo", l.heads * hd, l.dim, false);
        if (l.isMoe(i)) {
            w.linear(d + ".moe.gate", l.dim, l.experts, false);
            for (int e = 0; e < l.experts; ++e)
                w.swiGlu(d + ".moe.expert" + std::to_string(e), l.dim, l.expertFfn);
        } else {
            w.swiGlu(d + ".ffn", l.dim, l.ffn);
        }
    }
    w.add("final_norm.weight", {l.dim});
    w.linear("lm_head", l.dim, l.vocab, false);
    return all;
}

int64_t VlmConfig::parameterCount() const {
    int64_t n = 0;
    for (const auto& t : weightTensors())
        n += t.elements();
    return n;
}

std::string VlmConfig::toJson() const {
    nlohmann::json j;
    j["preset"] = preset;
    j["vision"] = {{"image_size", vision.imageSize}, {"patch", vision.patch}, {"dim", vision.dim},
                   {"layers", vision.layers},        {"heads", vision.heads}, {"mlp", vision.mlp}};
    j["projector_hidden"] = projectorHidden;
    j["llm"] = {
        {"vocab", llm.vocab},          {"dim", llm.dim},          {"layers", llm.layers},
        {"heads", llm.heads},          {"kv_heads", llm.kvHeads}, {"ffn", llm.ffn},
        {"expert_ffn", llm.expertFfn}, {"experts", llm.experts},  {"top_k", llm.topK},
        {"moe_layers", llm.moeLayers}, {"max_seq", llm.maxSeq},   {"rope_theta", llm.ropeTheta}};
    j["routing_skew"] = routingSkew;
    j["seed"] = seed;
    if (!weights.path.empty())
        j["weights"] = {{"file", std::filesystem::path(weights.path).filename().string()},
                        {"path", weights.path},
                        {"sha256", weights.sha256}};
    j["expert_ranking"] = expertRanking;
    j["parameters"] = parameterCount();
    return j.dump();
}

namespace {

VlmConfig tiny() {
    VlmConfig c;
    c.vision = {224, 14, 64, 2, 4, 256};
    c.projectorHidden = 64;
    c.llm.dim = 64;
    c.llm.layers = 2;
    c.llm.heads = 4;
    c.llm.kvHeads = 2;
    c.llm.ffn = 128;
    c.llm.expertFfn = 64;
    c.llm.experts = 4;
    c.llm.topK = 2;
    c.llm.moeLayers = {0, 1};
    c.llm.maxSeq = 512;
    return c;
}

VlmConfig small() {
    VlmConfig c;
    c.vision = {336, 14, 256, 6, 8, 1024};
    c.projectorHidden = 512;
    c.llm.dim = 512;
    c.llm.layers = 8;
    c.llm.heads = 8;
    c.llm.kvHeads = 2;
    c.llm.ffn = 1408;
    c.llm.expertFfn = 704;
    c.llm.experts = 8;
    c.llm.topK = 2;
    c.llm.moeLayers = {1, 3, 5, 7};
    c.llm.maxSeq = 1024;
    return c;
}

// ViT-L/14-336 + a Mixtral-style 7B-class decoder (8 experts, top-2, GQA 32/8).
VlmConfig llavaMoe7b() {
    VlmConfig c;
    c.vision = {336, 14, 1024, 24, 16, 4096};
    c.projectorHidden = 4096;
    c.llm.dim = 4096;
    c.llm.layers = 32;
    c.llm.heads = 32;
    c.llm.kvHeads = 8;
    c.llm.ffn = 14336;
    c.llm.expertFfn = 14336;
    c.llm.experts = 8;
    c.llm.topK = 2;
    c.llm.moeLayers.resize(32);
    std::iota(c.llm.moeLayers.begin(), c.llm.moeLayers.end(), 0);
    c.llm.maxSeq = 4096;
    c.llm.ropeTheta = 1e6;
    return c;
}

// The trained demonstration model (docs/training.md): a little wider and
// deeper than ref:tiny, patch 16 (196 visual tokens), MoE in the last two
// decoder layers, no routing skew (its router is trained). Its weights are
// the bundled checkpoint.
VlmConfig demo() {
    VlmConfig c;
    // 28-pixel patches, an 8 × 8 grid: a shape (28–70 px) covers one to three
    // patches a side, and training on two cores fits in an hour (docs/training.md).
    c.vision = {224, 28, 96, 3, 4, 256};
    c.projectorHidden = 128;
    c.llm.dim = 96;
    c.llm.layers = 3;
    c.llm.heads = 4;
    c.llm.kvHeads = 2;
    c.llm.ffn = 256;
    c.llm.expertFfn = 128;
    c.llm.experts = 4;
    c.llm.topK = 2;
    c.llm.moeLayers = {1, 2};
    c.llm.maxSeq = 512;
    c.routingSkew = 0;
    return c;
}
constexpr const char* kDemoCheckpoint = "models/ref-demo.safetensors";

// A fixed, platform-independent shuffle (std::shuffle's output is not
// specified by the standard, so it could differ between standard libraries).
std::vector<int> seededPermutation(int n, uint64_t seed) {
    std::vector<int> p(static_cast<size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    std::mt19937_64 rng(seed);
    for (int i = n - 1; i > 0; --i)
        std::swap(p[size_t(i)], p[size_t(rng() % uint64_t(i + 1))]);
    return p;
}

} // namespace

std::vector<std::string> presetNames() {
    return {"ref:tiny", "ref:small", "ref:llava-moe-7b", "ref:demo"};
}

Result<VlmConfig> presetConfig(const std::string& name, const PresetOverrides& o) {
    VlmConfig c;
    if (name == "ref:tiny")
        c = tiny();
    else if (name == "ref:small")
        c = small();
    else if (name == "ref:llava-moe-7b")
        c = llavaMoe7b();
    else if (name == "ref:demo")
        c = demo();
    else {
        std::string known;
        for (const auto& n : presetNames())
            known += (known.empty() ? "" : ", ") + n;
        return makeError(ErrorCode::NotFound,
                         "unknown model '" + name + "': choose one of " + known);
    }
    c.preset = name;
    if (o.layers) {
        if (*o.layers < 1) return makeError(ErrorCode::BadInput, "--layers must be at least 1");
        c.vision.layers = std::min(c.vision.layers, *o.layers);
        c.llm.layers = std::min(c.llm.layers, *o.layers);
        std::erase_if(c.llm.moeLayers, [&](int l) { return l >= c.llm.layers; });
    }
    if (o.routingSkew) {
        if (*o.routingSkew < 0 || *o.routingSkew > 20)
            return makeError(ErrorCode::BadInput, "--routing-skew must lie in [0, 20]");
        c.routingSkew = *o.routingSkew;
    }
    if (o.seed) c.seed = *o.seed;
    if (name == "ref:demo" && !o.weights && !o.seed) {
        // The trained checkpoint, unless a seed asks for random weights.
        const auto bundled = resourcePath(kDemoCheckpoint);
        if (!bundled)
            return makeError(ErrorCode::NotFound,
                             std::string("ref:demo's checkpoint resources/") + kDemoCheckpoint +
                                 " was not found: train one (`mvprof-cli train --out FILE`, "
                                 "docs/training.md) and pass --weights FILE, or set "
                                 "MVPROF_RESOURCES");
        c.weights.path = *bundled;
    }
    if (o.weights) {
        if (o.weights->empty()) return makeError(ErrorCode::BadInput, "--weights needs a file");
        std::error_code ec;
        const auto absolute = std::filesystem::absolute(*o.weights, ec);
        c.weights.path = ec ? *o.weights : absolute.lexically_normal().string();
        c.weights.sha256 = o.weightsSha256.value_or("");
    }
    if (o.maxSeq) {
        if (*o.maxSeq < 16 || *o.maxSeq > (1 << 16))
            return makeError(ErrorCode::BadInput, "--max-seq must lie in [16, 65536]");
        c.llm.maxSeq = *o.maxSeq;
    }
    for (size_t i = 0; i < c.llm.moeLayers.size(); ++i)
        c.expertRanking.push_back(seededPermutation(c.llm.experts, c.seed * 1000003 + i + 1));
    return c;
}

namespace tokens {
std::vector<int> encode(const std::string& text) {
    std::vector<int> ids;
    ids.reserve(text.size());
    for (unsigned char ch : text)
        ids.push_back(int(ch));
    return ids;
}

std::string decode(const std::vector<int>& ids) {
    std::string s;
    for (int id : ids) {
        if (id == kEos) break; // the text ends there; later steps are padding
        if (id >= 0 && id < 256) s.push_back(char(id));
    }
    return s;
}
} // namespace tokens

} // namespace mvp
