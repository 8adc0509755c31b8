// A small VLM-MoE written as TorchScript, saved with a manifest: the example
// of the user-model contract (docs/user-models.md) and the tests' fixture. Built
// with torch::jit::Module::define, so no Python is needed. What it makes
// inside (the causal mask) it makes on its inputs' device: it runs on a GPU too.
#include "capture/models/ExampleUserModel.h"

#include <ATen/CPUGeneratorImpl.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <torch/script.h>

namespace mvp {

namespace {
constexpr int kDim = 32, kVocab = 320, kImage = 224, kPatch = 14, kExperts = 4;

struct Init {
    at::Generator gen = at::detail::createCPUGenerator(20261129);
    torch::Tensor normal(std::vector<int64_t> shape, double sd) {
        return torch::empty(shape).normal_(0.0, sd, gen);
    }
};

// Leaf modules hold their weights as parameters: TorchScript's alias
// analysis in libtorch 1.13 grows steeply with the depth of nested module
// types, so the example stays four levels deep.
torch::jit::Module mlp(Init& init, const char* type, int hidden) {
    torch::jit::Module m(type);
    m.register_parameter("w1", init.normal({kDim, hidden}, 0.05), false);
    m.register_parameter("w2", init.normal({hidden, kDim}, 0.05), false);
    m.define(R"(
def forward(self, x):
    return torch.matmul(torch.gelu(torch.matmul(x, self.w1)), self.w2)
)");
    return m;
}

torch::jit::Module attention(Init& init, bool causal) {
    torch::jit::Module m("Attention");
    m.register_parameter("wqkv", init.normal({kDim, 3 * kDim}, 1.0 / std::sqrt(double(kDim))),
                         false);
    m.register_parameter("wo", init.normal({kDim, kDim}, 0.05), false);
    m.define(causal ? R"(
def forward(self, x):
    qkv = torch.matmul(x, self.wqkv).chunk(3, 1)
    s = torch.matmul(qkv[0], qkv[1].t()) / 5.656854
    t = s.size(0)
    s = s.masked_fill(torch.ones(t, t, device=s.device).triu(1) > 0.5, -1e9)
    return torch.matmul(torch.matmul(torch.softmax(s, -1), qkv[2]), self.wo)
)"
                    : R"(
def forward(self, x):
    qkv = torch.matmul(x, self.wqkv).chunk(3, 1)
    s = torch.matmul(qkv[0], qkv[1].t()) / 5.656854
    return torch.matmul(torch.matmul(torch.softmax(s, -1), qkv[2]), self.wo)
)");
    return m;
}

torch::jit::Module moe(Init& init) {
    torch::jit::Module m("MoE");
    m.register_parameter("gate", init.normal({kDim, kExperts}, 1.0 / std::sqrt(double(kDim))),
                         false);
    for (int e = 0; e < kExperts; ++e)
        m.register_module("expert" + std::to_string(e), mlp(init, "Expert", 2 * kDim));
    // Top-2 routing; each expert runs on the tokens routed to it.
    m.define(R"(
def forward(self, x):
    probs = torch.softmax(torch.matmul(x, self.gate), -1)
    top = torch.topk(probs, 2, -1)
    w = top[0] / top[0].sum(-1, True)
    out = torch.zeros_like(x)
    share = ((top[1] == 0).float() * w).sum(1)
    rows = share.nonzero().squeeze(1)
    out = out.index_add(0, rows, self.expert0.forward(x.index_select(0, rows)) * share.index_select(0, rows).unsqueeze(1))
    share = ((top[1] == 1).float() * w).sum(1)
    rows = share.nonzero().squeeze(1)
    out = out.index_add(0, rows, self.expert1.forward(x.index_select(0, rows)) * share.index_select(0, rows).unsqueeze(1))
    share = ((top[1] == 2).float() * w).sum(1)
    rows = share.nonzero().squeeze(1)
    out = out.index_add(0, rows, self.expert2.forward(x.index_select(0, rows)) * share.index_select(0, rows).unsqueeze(1))
    share = ((top[1] == 3).float() * w).sum(1)
    rows = share.nonzero().squeeze(1)
    out = out.index_add(0, rows, self.expert3.forward(x.index_select(0, rows)) * share.index_select(0, rows).unsqueeze(1))
    return out
)");
    return m;
}

torch::jit::Module block(Init& init, const char* type, bool decoder) {
    torch::jit::Module m(type);
    m.register_module("attn", attention(init, decoder));
    if (decoder)
        m.register_module("moe", moe(init));
    else
        m.register_module("mlp", mlp(init, "Mlp", 4 * kDim));
    m.define(decoder ? R"(
def forward(self, x):
    x = x + self.attn.forward(torch.layer_norm(x, [32]))
    return x + self.moe.forward(torch.layer_norm(x, [32]))
)"
                     : R"(
def forward(self, x):
    x = x + self.attn.forward(torch.layer_norm(x, [32]))
    return x + self.mlp.forward(torch.layer_norm(x, [32]))
)");
    return m;
}
} // namespace

Result<std::string> writeExampleUserModel(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return makeError(ErrorCode::BadInput, "cannot create " + dir + ": " + ec.message());
    try {
        Init init;
        torch::jit::Module vision("VisionEncoder");
        vision.register_parameter("patch_w", init.normal({kDim, 3, kPatch, kPatch}, 0.02), false);
        vision.register_parameter(
            "pos", init.normal({(kImage / kPatch) * (kImage / kPatch), kDim}, 0.02), false);
        vision.register_module("block0", block(init, "VitBlock", false));
        vision.register_module("block1", block(init, "VitBlock", false));
        vision.define(R"(
def forward(self, pixels):
    x = torch.conv2d(pixels, self.patch_w, None, [14, 14]).flatten(2).squeeze(0).transpose(0, 1) + self.pos
    x = self.block1.forward(self.block0.forward(x))
    return torch.layer_norm(x, [32])
)");
        torch::jit::Module llm("Decoder");
        llm.register_parameter("embed", init.normal({kVocab, kDim}, 0.5), false);
        llm.register_module("layer0", block(init, "DecoderLayer", true));
        llm.register_module("layer1", block(init, "DecoderLayer", true));
        llm.register_parameter("lm_head", init.normal({kDim, kVocab}, 0.05), false);
        llm.define(R"(
def forward(self, ids, visual, visual_at: int):
    text = torch.embedding(self.embed, ids)
    x = torch.cat([text[:visual_at], visual, text[visual_at:]], 0)
    x = self.layer1.forward(self.layer0.forward(x))
    return torch.matmul(torch.layer_norm(x[-1], [32]), self.lm_head)
)");
        torch::jit::Module model("ExampleVlm");
        model.register_module("vision", vision);
        model.register_module("projector", mlp(init, "Projector", kDim));
        model.register_module("llm", llm);
        model.define(R"(
def encode_image(self, pixels):
    return self.vision.forward(pixels)

def project(self, features):
    return self.projector.forward(features)

def forward(self, ids, visual, visual_at: int):
    return self.llm.forward(ids, visual, visual_at)
)");
        model.save((fs::path(dir) / "example-vlm.pt").string());
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal,
                         std::string("building the example model failed: ") + e.what());
    }
    const nlohmann::json manifest{{"format", "mvprof-model"},
                                  {"name", "example-vlm"},
                                  {"torchscript", "example-vlm.pt"},
                                  {"image_size", kImage},
                                  {"patch", kPatch},
                                  {"tokenizer", "bytes"},
                                  {"vocab", kVocab},
                                  {"bos", 256},
                                  {"max_seq", 512},
                                  // Its router is a parameter of the MoE block, not a module:
                                  // expert spans and attention are observable, routing is not.
                                  {"roles",
                                   {{"vision", "^vision$"},
                                    {"projector", "^projector$"},
                                    {"llm", "^llm$"},
                                    {"attention", "^llm\\.layer\\d+\\.attn$"},
                                    {"moe", "\\.moe$"},
                                    {"expert", "\\.moe\\.expert\\d+$"}}}};
    const std::string path = (fs::path(dir) / "example-vlm.json").string();
    std::ofstream out(path);
    out << manifest.dump(2) << "\n";
    if (!out) return makeError(ErrorCode::BadInput, "cannot write " + path);
    return path;
}

} // namespace mvp
