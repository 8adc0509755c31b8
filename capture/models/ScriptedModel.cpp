#include "capture/models/ScriptedModel.h"

#include "core/ErrorText.h"

#include <torch/cuda.h>

namespace mvp {

Result<std::unique_ptr<ScriptedModel>> ScriptedModel::load(const UserModelManifest& manifest,
                                                           torch::Device device) {
    torch::jit::Module m;
    try {
        // Its storages are put on the device as they are read: no host copy to move.
        m = torch::jit::load(manifest.torchscript, device);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::BadInput,
                         manifest.torchscript +
                             " is not a loadable TorchScript archive: " + firstLine(e));
    }
    for (const char* method : {"encode_image", "project", "forward"})
        if (!m.find_method(method))
            return makeError(ErrorCode::BadInput, manifest.torchscript + " has no method " +
                                                      method +
                                                      "(…): a user model needs encode_image, "
                                                      "project and forward (see docs/user-models.md)");
    m.eval();
    return std::unique_ptr<ScriptedModel>(new ScriptedModel(std::move(m), device));
}

torch::Tensor ScriptedModel::encodeImage(const torch::Tensor& pixels) {
    // The host → device copy of the image belongs to the vision phase.
    return module_.get_method("encode_image")({pixels.to(device_)}).toTensor();
}

torch::Tensor ScriptedModel::project(const torch::Tensor& features) {
    return module_.get_method("project")({features}).toTensor();
}

torch::Tensor ScriptedModel::forward(const std::vector<int>& ids, const torch::Tensor& visual,
                                     int visualAt) {
    std::vector<int64_t> v(ids.begin(), ids.end());
    auto out = module_
                   .get_method("forward")(
                       {torch::tensor(v, torch::kLong).to(device_), visual, int64_t(visualAt)})
                   .toTensor();
    return out.dim() == 2 ? out[out.size(0) - 1]
                          : out; // a model may return every position's logits
}

std::string ScriptedModel::rootType() const {
    const auto name = module_.type()->name();
    return name ? name->name() : std::string("Model");
}

void ScriptedModel::settle() const {
    if (device_.is_cuda()) torch::cuda::synchronize(device_.index());
}

ScriptedModel::ScriptedModel(torch::jit::Module m, torch::Device device)
    : module_(std::move(m)), device_(device) {
    for (const auto& item : module_.named_modules())
        if (!item.name.empty()) paths_.insert(item.name);
}

std::vector<std::string> ScriptedModel::modulePaths() const {
    return {paths_.begin(), paths_.end()};
}

std::optional<std::string> ScriptedModel::childPath(const std::string& parent,
                                                    const std::string& instance) const {
    const std::string direct = parent.empty() ? instance : parent + "." + instance;
    if (paths_.count(direct)) return direct;
    // parent.<container>.instance: the one container level the hierarchy skips.
    const std::string prefix = parent.empty() ? "" : parent + ".";
    for (auto it = paths_.lower_bound(prefix); it != paths_.end() && it->rfind(prefix, 0) == 0;
         ++it) {
        const std::string rest = it->substr(prefix.size());
        if (rest.find('.') != std::string::npos) continue; // a direct child only
        if (paths_.count(*it + "." + instance)) return *it + "." + instance;
    }
    return std::nullopt;
}

std::optional<int> ScriptedModel::intAttribute(const std::string& path,
                                               const std::vector<std::string>& names) const {
    const std::string parent = path.substr(0, std::min(path.size(), path.rfind('.')));
    for (const auto& m : module_.named_modules()) {
        if (m.name != path && !(m.name == parent && parent != path)) continue;
        for (const auto& n : names)
            if (m.value.hasattr(n)) {
                const auto v = m.value.attr(n);
                if (v.isInt() && v.toInt() > 0 && v.toInt() <= 1024) return int(v.toInt());
            }
    }
    return std::nullopt;
}

int64_t ScriptedModel::parameterCount() const {
    int64_t n = 0;
    for (const auto& p : module_.parameters())
        n += p.numel();
    return n;
}

int64_t ScriptedModel::weightBytes() const {
    int64_t n = 0;
    for (const auto& p : module_.parameters())
        n += p.numel() * int64_t(p.element_size());
    return n;
}

} // namespace mvp
