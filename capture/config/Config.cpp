#include "capture/config/Config.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

namespace mvp {

bool LlmConfig::isMoe(int layer) const {
    return std::find(moeLayers.begin(), moeLayers.end(), layer) != moeLayers.end();
}

int64_t VlmConfig::parameterCount() const {
    const auto& v = vision;
    const int64_t vit = int64_t(3) * v.patch * v.patch * v.dim + v.dim +
                        int64_t(v.patches()) * v.dim +
                        v.layers * (4 * (int64_t(v.dim) * v.dim + v.dim) +
                                    2 * int64_t(v.dim) * v.mlp + v.mlp + v.dim + 4 * v.dim) +
                        2 * v.dim;
    const int64_t proj = int64_t(v.dim) * projectorHidden + projectorHidden +
                         int64_t(projectorHidden) * llm.dim + llm.dim;
    const auto& l = llm;
    const int64_t kv = int64_t(l.kvHeads) * l.headDim();
    const int64_t attn = 2 * int64_t(l.dim) * l.dim + 2 * int64_t(l.dim) * kv;
    int64_t dec = int64_t(l.vocab) * l.dim * 2 + l.dim;
    for (int i = 0; i < l.layers; ++i) {
        dec += attn + 2 * l.dim;
        dec += l.isMoe(i) ? int64_t(l.experts) * (3 * int64_t(l.dim) * l.expertFfn) +
                                int64_t(l.dim) * l.experts
                          : 3 * int64_t(l.dim) * l.ffn;
    }
    return vit + proj + dec;
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
    return {"ref:tiny", "ref:small", "ref:llava-moe-7b"};
}

Result<VlmConfig> presetConfig(const std::string& name, const PresetOverrides& o) {
    VlmConfig c;
    if (name == "ref:tiny")
        c = tiny();
    else if (name == "ref:small")
        c = small();
    else if (name == "ref:llava-moe-7b")
        c = llavaMoe7b();
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
    for (int id : ids)
        if (id >= 0 && id < 256) s.push_back(char(id));
    return s;
}
} // namespace tokens

} // namespace mvp
