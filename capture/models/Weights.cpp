#include "capture/models/Weights.h"

#include "core/interop/Safetensors.h"
#include "core/interop/Sha256.h"

#include <cstring>
#include <optional>
#include <set>

namespace mvp {

namespace st = safetensors;

namespace {

std::optional<torch::ScalarType> floatType(st::Dtype d) {
    switch (d) {
    case st::Dtype::F32:
        return torch::kFloat;
    case st::Dtype::F16:
        return torch::kHalf;
    case st::Dtype::BF16:
        return torch::kBFloat16;
    case st::Dtype::F64:
        return torch::kDouble;
    default:
        return std::nullopt;
    }
}

std::vector<int64_t> shapeOf(const torch::Tensor& t) {
    return std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
}

// The file's tensor as a CPU tensor of its own dtype: copied, because the
// data section need not be aligned for the element type.
torch::Tensor tensorOf(const st::File& file, const st::Entry& e, torch::ScalarType type) {
    auto t = torch::empty(e.shape, torch::TensorOptions().dtype(type));
    const auto bytes = file.data(e);
    std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
    return t;
}

Error badWeights(const std::string& path, const std::string& what) {
    return makeError(ErrorCode::BadInput, "weights " + path + ": " + what);
}

// Every parameter present with its shape and a float dtype, no other tensor.
Status checkMatch(const st::File& file, const torch::nn::Module& module, const std::string& path,
                  const std::string& model) {
    std::set<std::string> wanted;
    for (const auto& p : module.named_parameters()) {
        wanted.insert(p.key());
        const st::Entry* e = file.find(p.key());
        const auto shape = shapeOf(p.value());
        if (!e)
            return badWeights(path, "tensor '" + p.key() + "' is missing (" + model + " needs " +
                                        st::shapeText(shape) + ")");
        if (e->shape != shape)
            return badWeights(path, "tensor '" + p.key() + "' has shape " +
                                        st::shapeText(e->shape) + " in the file but " + model +
                                        " needs " + st::shapeText(shape));
        if (!floatType(e->dtype))
            return badWeights(path, "tensor '" + p.key() + "' is " + st::dtypeName(e->dtype) +
                                        ": weights must be F32, F16, BF16 or F64");
    }
    for (const auto& e : file.header().tensors)
        if (!wanted.count(e.name))
            return badWeights(path, "tensor '" + e.name + "' " + st::shapeText(e.shape) +
                                        " is not a parameter of " + model +
                                        " (its names: docs/weights.md, or `mvprof-cli weights "
                                        "--model " +
                                        model + "`)");
    return Ok{};
}

} // namespace

Result<std::string> loadWeights(torch::nn::Module& module, const std::string& path,
                                const std::string& model, const std::string& expectedSha256) {
    auto file = st::File::read(path);
    if (!file) return file.error();
    const std::string sha = sha256Hex(file->bytes());
    if (!expectedSha256.empty() && sha != expectedSha256)
        return badWeights(path, "its SHA-256 is " + sha + " but the run it re-runs used " +
                                    expectedSha256 + ": the file changed since");
    if (auto s = checkMatch(*file, module, path, model); !s) return s.error();
    torch::NoGradGuard noGrad;
    for (auto& p : module.named_parameters()) {
        const st::Entry& e = *file->find(p.key());
        auto& param = p.value();
        param.copy_(tensorOf(*file, e, *floatType(e.dtype)).to(param.dtype()));
    }
    return sha;
}

Status saveWeights(const torch::nn::Module& module, const std::string& path,
                   const std::map<std::string, std::string>& metadata) {
    std::vector<torch::Tensor> keep; // owns the bytes the spans point at
    std::vector<st::TensorBytes> tensors;
    for (const auto& p : module.named_parameters()) {
        keep.push_back(p.value().detach().to(torch::kCPU, torch::kFloat).contiguous());
        const auto& t = keep.back();
        tensors.push_back({p.key(),
                           st::Dtype::F32,
                           shapeOf(t),
                           {static_cast<const uint8_t*>(t.data_ptr()), size_t(t.nbytes())}});
    }
    return st::write(path, tensors, metadata);
}

} // namespace mvp
