#pragma once
// A user's TorchScript VLM behind the contract of docs/user-models.md:
// encode_image(pixels) → [N, Dv], project(features) → [N, D],
// forward(ids, visual, visual_at) → next-token logits [vocab], run on the
// whole sequence at every step (the profiler sees no KV cache). On a GPU its
// parameters are loaded onto the device and its inputs copied there. Internal
// to mvp_capture; includes torch.

#include "capture/config/UserModel.h"

#include <optional>
#include <set>
#include <torch/script.h>

namespace mvp {

class ScriptedModel {
public:
    // Loads the archive onto `device` and checks the three methods exist.
    static Result<std::unique_ptr<ScriptedModel>> load(const UserModelManifest& manifest,
                                                       torch::Device device = torch::kCPU);

    torch::Tensor encodeImage(const torch::Tensor& pixels);
    torch::Tensor project(const torch::Tensor& features);
    torch::Tensor forward(const std::vector<int>& ids, const torch::Tensor& visual, int visualAt);

    std::string rootType() const; // the top module's type, for the module tree
    // Every submodule's path ("llm.blocks.0.moe.gate").
    std::vector<std::string> modulePaths() const;
    // The path of `parent`'s submodule `instance`, looking through containers
    // that have no forward of their own (ModuleList, ModuleDict); nullopt
    // when it has none. Two containers with a child of the same name: the
    // first in name order.
    std::optional<std::string> childPath(const std::string& parent,
                                         const std::string& instance) const;
    // The first of `names` that the module at `path` or its parent has as an
    // integer attribute (a router's top_k or num_experts_per_tok).
    std::optional<int> intAttribute(const std::string& path,
                                    const std::vector<std::string>& names) const;
    torch::Device device() const { return device_; }
    // Waits for the work queued on the model's GPU (nothing on the CPU).
    void settle() const;
    int64_t parameterCount() const;
    int64_t weightBytes() const;
    // The archive's module tree, for what-ifs that replace parameters.
    torch::jit::Module& module() { return module_; }

private:
    ScriptedModel(torch::jit::Module m, torch::Device device);
    torch::jit::Module module_;
    torch::Device device_;
    std::set<std::string> paths_;
};

} // namespace mvp
