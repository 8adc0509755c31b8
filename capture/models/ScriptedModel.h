#pragma once
// A user's TorchScript VLM behind the contract of USER_MODELS.md:
// encode_image(pixels) → [N, Dv], project(features) → [N, D],
// forward(ids, visual, visual_at) → next-token logits [vocab], run on the
// whole sequence at every step (the profiler sees no KV cache). Internal to
// mvp_capture; includes torch.

#include "capture/models/UserModel.h"

#include <optional>
#include <torch/script.h>

namespace mvp {

class ScriptedModel {
public:
    // Loads the archive and checks the three methods exist.
    static Result<std::unique_ptr<ScriptedModel>> load(const UserModelManifest& manifest);

    torch::Tensor encodeImage(const torch::Tensor& pixels);
    torch::Tensor project(const torch::Tensor& features);
    torch::Tensor forward(const std::vector<int>& ids, const torch::Tensor& visual, int visualAt);

    std::string rootType() const; // the top module's type, for the module tree
    // Every submodule's path ("llm.layer0.moe.gate"), as the hierarchy names them.
    std::vector<std::string> modulePaths() const;
    // The first of `names` that the module at `path` or its parent has as an
    // integer attribute (a router's top_k or num_experts_per_tok).
    std::optional<int> intAttribute(const std::string& path,
                                    const std::vector<std::string>& names) const;
    int64_t parameterCount() const;
    int64_t weightBytes() const;

private:
    explicit ScriptedModel(torch::jit::Module m) : module_(std::move(m)) {}
    torch::jit::Module module_;
};

} // namespace mvp
