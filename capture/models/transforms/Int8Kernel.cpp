#include "capture/models/transforms/Int8Kernel.h"

#include "capture/models/transforms/BoxedOps.h"

#include <ATen/record_function.h>
#include <cmath>
#include <map>
#include <mutex>
#include <torch/version.h>
#include <utility>

namespace mvp {

// The int8 matmul found for one device kind, and how it is called.
struct Int8MatmulOps {
    enum class Kind { None, WeightOnly, RowQuantised };
    Kind kind = Kind::None;
    std::string name;
    std::optional<c10::OperatorHandle> op;
    std::string missing; // why there is none
};

namespace {
constexpr const char* kWeightOnly = "aten::_weight_int8pack_mm";
constexpr const char* kRowQuantised = "aten::_int_mm";
// _int_mm on CUDA takes more than 16 rows; 32 keeps them a multiple of 8.
constexpr int64_t kMinRows = 32;
// int8 codes round a weight by ≤ half a step (|w|max/254) and _int_mm's row
// codes the activations as much: a layer's output stays within ~1 % here,
// where a layout or scale mistake is off by tens of percent.
constexpr double kMaxDisagreement = 0.03;

// A deterministic input whose values bfloat16 holds exactly enough.
torch::Tensor probeInput(int64_t rows, int64_t in, c10::Device device) {
    return torch::arange(rows * in, torch::TensorOptions().dtype(torch::kFloat).device(device))
        .mul(0.37)
        .sin()
        .view({rows, in});
}

// The scales the kernel takes: the weight-only kernel's in the dtype it
// computes in, _int_mm's rescaling in float32.
torch::Tensor kernelScale(const Int8MatmulOps& ops, const torch::Tensor& scale,
                          torch::ScalarType computeIn) {
    return ops.kind == Int8MatmulOps::Kind::WeightOnly ? scale.to(computeIn)
                                                       : scale.to(torch::kFloat);
}

torch::Tensor runKernel(const Int8MatmulOps& ops, const torch::Tensor& x, const Int8Weight& w) {
    if (ops.kind == Int8MatmulOps::Kind::RowQuantised)
        return rowQuantisedLinear(
            x, w,
            [&](const torch::Tensor& xq, const torch::Tensor& wt) {
                return callBoxedOp(*ops.op, {xq, wt});
            },
            kMinRows);
    auto lead = x.sizes().vec();
    lead.pop_back();
    const auto rows = x.reshape({-1, x.size(-1)}).to(w.scale.scalar_type()).contiguous();
    const auto y = callBoxedOp(*ops.op, {rows, w.codes, w.scale});
    lead.push_back(y.size(-1));
    return y.view(lead).to(x.scalar_type());
}

// Whether `candidate` runs on `device` for activations in `dtype` at all
// (libtorch registers an op for every backend's dispatcher, a kernel only
// for some, and a kernel may take only some dtypes): a small product.
bool runsOn(Int8MatmulOps& candidate, c10::Device device, torch::ScalarType dtype,
            std::string& why) {
    try {
        auto w = quantiseInt8Symmetric(probeInput(32, 64, device));
        w.scale = kernelScale(candidate, w.scale, dtype);
        (void)runKernel(candidate, probeInput(4, 64, device).to(dtype), w);
        return true;
    } catch (const std::exception& e) {
        why += (why.empty() ? "" : "; ") + candidate.name + " has no kernel here (" + firstLine(e) +
               ")";
        return false;
    }
}

Int8MatmulOps lookUp(c10::Device device, torch::ScalarType dtype) {
    c10::InferenceMode inference;
    at::RecordFunctionGuard unrecorded(false); // the trial is not the model's work
    Int8MatmulOps found;
    std::string why;
    for (const auto& [kind, name] : {std::pair{Int8MatmulOps::Kind::WeightOnly, kWeightOnly},
                                     std::pair{Int8MatmulOps::Kind::RowQuantised, kRowQuantised}}) {
        Int8MatmulOps candidate;
        candidate.kind = kind;
        candidate.name = name;
        candidate.op = findBoxedOp(name);
        if (!candidate.op) continue;
        if (runsOn(candidate, device, dtype, why)) return candidate;
    }
    found.missing = why.empty() ? std::string("this libtorch (" TORCH_VERSION ") has neither ") +
                                      kWeightOnly + " nor " + kRowQuantised + " (libtorch 2.x has)"
                                : why;
    return found;
}

// Found once per device kind and activation dtype (the map's nodes never move).
const Int8MatmulOps& opsFor(c10::Device device, torch::ScalarType dtype) {
    static std::mutex mutex;
    static std::map<std::pair<c10::DeviceType, torch::ScalarType>, Int8MatmulOps> found;
    std::lock_guard lock(mutex);
    const auto key = std::pair{device.type(), dtype};
    auto it = found.find(key);
    if (it == found.end()) it = found.emplace(key, lookUp(device, dtype)).first;
    return it->second;
}

// ‖kernel − dequantised‖ / ‖dequantised‖ on a fixed probe input.
double disagreement(const Int8Weight& w) {
    const auto x = probeInput(4, w.codes.size(1), w.codes.device());
    const auto want = torch::matmul(x, dequantiseInt8(w).t());
    const auto got = runKernel(*w.ops, x, w).to(torch::kFloat);
    const double norm = want.norm().item<double>();
    return norm > 0 ? (got - want).norm().item<double>() / norm : 0.0;
}
} // namespace

int64_t Int8Weight::bytes() const {
    return codes.numel() * int64_t(codes.element_size()) +
           scale.numel() * int64_t(scale.element_size());
}

Int8Weight quantiseInt8Symmetric(const torch::Tensor& w) {
    const auto f = w.to(torch::kFloat);
    Int8Weight q;
    const auto scale = f.abs().amax(1, true).clamp_min(1e-8).div(127.0);
    q.codes = f.div(scale).round().clamp(-127, 127).to(torch::kChar).contiguous();
    q.scale = scale.squeeze(1);
    return q;
}

torch::Tensor dequantiseInt8(const Int8Weight& w) {
    return w.codes.to(torch::kFloat) * w.scale.to(torch::kFloat).unsqueeze(1);
}

std::optional<std::string> int8MatmulName(c10::Device device, torch::ScalarType dtype,
                                          std::string& why) {
    const Int8MatmulOps& ops = opsFor(device, dtype);
    if (!ops.op) {
        why = ops.missing;
        return std::nullopt;
    }
    return ops.name;
}

std::string int8ShapeProblem(const Int8Weight& w) {
    if (w.codes.dim() != 2) return "the weight is not a matrix";
    const int64_t out = w.codes.size(0), in = w.codes.size(1);
    if (in % 8) return "its input width " + std::to_string(in) + " (a multiple of 8)";
    if (out % 8) return "its output width " + std::to_string(out) + " (a multiple of 8)";
    return {};
}

bool attachInt8Matmul(Int8Weight& w, torch::ScalarType computeIn, std::string& why) {
    const Int8MatmulOps& ops = opsFor(w.codes.device(), computeIn);
    if (!ops.op) {
        why = ops.missing;
        return false;
    }
    if (why = int8ShapeProblem(w); !why.empty()) return false;
    c10::InferenceMode inference;
    at::RecordFunctionGuard unrecorded(false); // the check is not the model's work
    Int8Weight candidate = w;
    candidate.ops = &ops;
    candidate.scale = kernelScale(ops, w.scale, computeIn);
    try {
        const double off = disagreement(candidate);
        if (!(off <= kMaxDisagreement)) {
            why = ops.name + " disagrees with the dequantised weights by " +
                  std::to_string(int(std::lround(off * 100))) + " %";
            return false;
        }
    } catch (const std::exception& e) { // e.g. a shape this build's kernel refuses
        why = ops.name + " failed: " + firstLine(e);
        return false;
    }
    w = std::move(candidate);
    return true;
}

torch::Tensor int8Linear(const torch::Tensor& x, const Int8Weight& w) {
    if (w.ops) return runKernel(*w.ops, x, w);
    // No kernel: the matmul on the dequantised weights (the gain predicted).
    return torch::matmul(x, dequantiseInt8(w).to(x.scalar_type()).t());
}

torch::Tensor rowQuantisedLinear(const torch::Tensor& x, const Int8Weight& w,
                                 const IntMatmul& intMatmul, int64_t minRows) {
    auto lead = x.sizes().vec();
    lead.pop_back();
    const auto rows = x.reshape({-1, x.size(-1)}).to(torch::kFloat);
    const int64_t n = rows.size(0);
    const auto rowScale = rows.abs().amax(1, true).clamp_min(1e-12).div(127.0); // [n, 1]
    auto codes = rows.div(rowScale).round().clamp(-127, 127).to(torch::kChar);
    if (n < minRows) codes = torch::constant_pad_nd(codes, {0, 0, 0, minRows - n});
    const auto product = intMatmul(codes, w.codes.t()); // int32 [max(n, minRows), out]
    const auto y =
        product.narrow(0, 0, n).to(torch::kFloat).mul(rowScale).mul(w.scale.to(torch::kFloat));
    lead.push_back(y.size(-1));
    return y.view(lead).to(x.scalar_type());
}

} // namespace mvp
