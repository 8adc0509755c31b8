#include "capture/models/transforms/Int4Kernel.h"

#include "capture/models/transforms/BoxedOps.h"

#include <algorithm>
#include <cmath>
#include <torch/version.h>

namespace mvp {

// The pack and matmul ops of one device kind, and which codes the pack takes.
struct Int4KernelOps {
    std::string packName, mmName;
    std::optional<c10::OperatorHandle> pack, mm;
    // int32 [out, in], one code per element; else uint8 [out, in / 2], the
    // even column in the high nibble (CUDA from 2.5, and CPU in 2.5).
    bool int32Codes = true;
    std::string missing; // why there is none; empty where pack and mm exist
};

namespace {
constexpr bool kByteCodes = TORCH_VERSION_MAJOR > 2 ||
                            (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 5);

// The kernels' group sizes, and the bound on their disagreement with the
// dequantised weights: bfloat16 activations, scales and zeros round at 2⁻⁸
// relative, which leaves a layer's output within ~1 % here; a layout mistake
// (nibble order, tiling, zero point) is off by tens of percent.
constexpr int64_t kGroups[] = {32, 64, 128, 256};
constexpr double kMaxDisagreement = 0.03;

Int4KernelOps lookUp(bool cuda) {
    Int4KernelOps o;
    if (!cuda) { // CPU from 2.6: its own pair, which packs int32 codes itself
        o.packName = "aten::_convert_weight_to_int4pack_for_cpu";
        o.mmName = "aten::_weight_int4pack_mm_for_cpu";
        o.pack = findBoxedOp(o.packName);
        o.mm = findBoxedOp(o.mmName);
        if (o.pack && o.mm) return o;
    }
    o.packName = "aten::_convert_weight_to_int4pack";
    o.mmName = "aten::_weight_int4pack_mm";
    o.pack = findBoxedOp(o.packName);
    o.mm = findBoxedOp(o.mmName);
    o.int32Codes = !kByteCodes;
    if (!o.pack || !o.mm) {
        o.pack.reset(), o.mm.reset();
        o.missing = "this libtorch (" TORCH_VERSION ") has no " + o.mmName + " (libtorch 2.x has)";
    }
    return o;
}

const Int4KernelOps& opsFor(c10::Device device) {
    static const Int4KernelOps cpu = lookUp(false), cuda = lookUp(true);
    return device.is_cuda() ? cuda : cpu;
}

// The widest tiling along the input the kernel allows (innerKTiles · 16 divides it).
int64_t innerKTiles(int64_t in) {
    for (const int64_t t : {8, 4, 2})
        if (in % (t * 16) == 0) return t;
    return 2;
}

// The codes in the form the pack op takes: int32 as they are, or two to a
// byte with the even column in the high nibble.
torch::Tensor packInput(const torch::Tensor& codes, bool int32Codes) {
    if (int32Codes) return codes;
    using torch::indexing::None;
    using torch::indexing::Slice;
    const auto even = codes.index({Slice(), Slice(0, None, 2)});
    const auto odd = codes.index({Slice(), Slice(1, None, 2)});
    return even.bitwise_left_shift(4).bitwise_or(odd).to(torch::kUInt8).contiguous();
}

// ‖kernel − dequantised‖ / ‖dequantised‖ on a fixed probe input (bfloat16-exact).
double disagreement(const GroupCodes& c, const Int4Weight& w) {
    const auto options = torch::TensorOptions().dtype(torch::kFloat).device(c.packed.device());
    const auto x = torch::arange(4 * c.n, options).mul(0.37).sin().view({4, c.n});
    const auto exact = x.to(torch::kBFloat16).to(torch::kFloat);
    const auto want = torch::matmul(exact, dequantiseGroups(c).to(torch::kFloat).t());
    const auto got = int4Linear(x, w).to(torch::kFloat);
    const double norm = want.norm().item<double>();
    return norm > 0 ? (got - want).norm().item<double>() / norm : 0.0;
}
} // namespace

std::string int4ShapeProblem(const GroupCodes& c) {
    if (c.bits != 4) return "the codes are not 4-bit";
    if (c.packed.dim() != 2) return "the weight is not a matrix";
    if (std::find(std::begin(kGroups), std::end(kGroups), c.group) == std::end(kGroups))
        return "its group of " + std::to_string(c.group) + " (the kernel takes 32, 64, 128 or 256)";
    const int64_t out = c.packed.size(0), in = c.n;
    if (in % c.group || in % 32)
        return "its input width " + std::to_string(in) + " (a multiple of the group and of 32)";
    if (out % 8) return "its output width " + std::to_string(out) + " (a multiple of 8)";
    return {};
}

// mvp's codes hold q·scale + low, the even column in a byte's low nibble.
Int4KernelInputs int4KernelInputs(const GroupCodes& c) {
    const auto low = c.packed.bitwise_and(0x0F), high = c.packed.bitwise_right_shift(4);
    Int4KernelInputs in;
    in.codes = torch::stack({low, high}, 2).view({c.packed.size(0), c.n}).to(torch::kInt);
    const auto scale = c.scale.to(torch::kFloat);
    const auto zero = c.low.to(torch::kFloat) + 8 * scale;
    in.scaleAndZeros =
        torch::stack({scale, zero}, -1).transpose(0, 1).contiguous().to(torch::kBFloat16);
    return in;
}

int64_t Int4Weight::bytes() const {
    return packed.numel() * int64_t(packed.element_size()) +
           scaleAndZeros.numel() * int64_t(scaleAndZeros.element_size());
}

std::optional<std::string> int4KernelName(c10::Device device, std::string& why) {
    const Int4KernelOps& ops = opsFor(device);
    if (!ops.mm) {
        why = ops.missing;
        return std::nullopt;
    }
    return ops.mmName;
}

std::optional<Int4Weight> packInt4(const GroupCodes& codes, std::string& why) {
    const Int4KernelOps& ops = opsFor(codes.packed.device());
    if (!ops.mm) {
        why = ops.missing;
        return std::nullopt;
    }
    if (why = int4ShapeProblem(codes); !why.empty()) return std::nullopt;
    Int4Weight w;
    w.group = codes.group;
    w.ops = &ops;
    try {
        auto inputs = int4KernelInputs(codes);
        w.packed =
            callBoxedOp(*ops.pack, {packInput(inputs.codes, ops.int32Codes), innerKTiles(codes.n)});
        w.scaleAndZeros = std::move(inputs.scaleAndZeros);
        const double off = disagreement(codes, w);
        if (!(off <= kMaxDisagreement)) {
            why = ops.mmName + " disagrees with the dequantised weights by " +
                  std::to_string(int(std::lround(off * 100))) + " % (a layout this build of " +
                  "mvprof does not know)";
            return std::nullopt;
        }
    } catch (const std::exception& e) { // no kernel for this device or dtype in this build
        why = ops.mmName + " failed: " + firstLine(e);
        return std::nullopt;
    }
    return w;
}

torch::Tensor int4Linear(const torch::Tensor& x, const Int4Weight& w) {
    auto lead = x.sizes().vec();
    lead.pop_back();
    const auto rows = x.reshape({-1, x.size(-1)}).to(torch::kBFloat16).contiguous();
    const auto y = callBoxedOp(*w.ops->mm, {rows, w.packed, w.group, w.scaleAndZeros});
    lead.push_back(y.size(-1));
    return y.view(lead).to(x.scalar_type());
}

} // namespace mvp
