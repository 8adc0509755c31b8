#include "capture/Flops.h"

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>

namespace mvp {

namespace {

using Shape = std::vector<int64_t>;

int64_t elements(const Shape& s) {
    return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<>());
}

// NumPy-style broadcast of two shapes (trailing dimensions aligned).
Shape broadcast(const Shape& a, const Shape& b) {
    Shape out(std::max(a.size(), b.size()), 1);
    for (size_t i = 0; i < out.size(); ++i) {
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        out[out.size() - 1 - i] = std::max(da, db);
    }
    return out;
}

// torch.matmul's rules, including 1-D operands and batch broadcasting.
std::optional<std::pair<int64_t, Shape>> matmulFlops(Shape a, Shape b) {
    if (a.empty() || b.empty()) return std::nullopt;
    const bool vecA = a.size() == 1, vecB = b.size() == 1;
    if (vecA) a.insert(a.begin(), 1);
    if (vecB) b.push_back(1);
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    if (b[b.size() - 2] != k) return std::nullopt;
    const Shape batch = broadcast(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
    Shape out = batch;
    if (!vecA) out.push_back(m);
    if (!vecB) out.push_back(n);
    return std::pair{2 * elements(batch) * m * n * k, out};
}

const OpArg* nth(const std::vector<OpArg>& args, size_t i, OpArg::Kind kind) {
    return i < args.size() && args[i].kind == kind ? &args[i] : nullptr;
}

int64_t listAt(const OpArg* a, size_t i, int64_t fallback) {
    if (!a || a->values.empty()) return fallback;
    return a->values[std::min(i, a->values.size() - 1)];
}

// conv(input, weight, bias, stride, padding, dilation, [transposed, output_padding,] groups)
std::optional<std::pair<int64_t, Shape>> convFlops(std::string_view name,
                                                   const std::vector<OpArg>& args) {
    const OpArg* in = nth(args, 0, OpArg::Tensor);
    const OpArg* w = nth(args, 1, OpArg::Tensor);
    if (!in || !w || in->values.size() < 3 || w->values.size() != in->values.size())
        return std::nullopt;
    const bool full = name == "aten::convolution" || name == "aten::_convolution";
    if (full && args.size() > 6 && args[6].kind == OpArg::Int && args[6].values.at(0) != 0)
        return std::nullopt; // transposed convolution: not modelled
    const OpArg* stride = nth(args, 3, OpArg::IntList);
    const OpArg* padding = nth(args, 4, OpArg::IntList);
    const OpArg* dilation = nth(args, 5, OpArg::IntList);
    const size_t groupsAt = full ? 8 : 6;
    const OpArg* g = nth(args, groupsAt, OpArg::Int);
    const int64_t groups = g && !g->values.empty() ? g->values[0] : 1;
    const Shape& x = in->values;
    const Shape& k = w->values;
    const int64_t batch = x[0], cin = x[1], cout = k[0];
    Shape out{batch, cout};
    int64_t window = 1;
    for (size_t d = 2; d < x.size(); ++d) {
        const size_t i = d - 2;
        const int64_t len =
            (x[d] + 2 * listAt(padding, i, 0) - listAt(dilation, i, 1) * (k[d] - 1) - 1) /
                listAt(stride, i, 1) +
            1;
        out.push_back(len);
        window *= k[d];
    }
    const int64_t spatial = elements(Shape(out.begin() + 2, out.end()));
    return std::pair{2 * batch * cout * spatial * (cin / std::max<int64_t>(groups, 1)) * window,
                     out};
}

struct PerElement {
    std::string_view name;
    int flops;
};
constexpr std::array kPerElement{
    PerElement{"aten::add", 1},         PerElement{"aten::add_", 1},
    PerElement{"aten::sub", 1},         PerElement{"aten::sub_", 1},
    PerElement{"aten::mul", 1},         PerElement{"aten::mul_", 1},
    PerElement{"aten::div", 1},         PerElement{"aten::div_", 1},
    PerElement{"aten::neg", 1},         PerElement{"aten::rsqrt", 1},
    PerElement{"aten::pow", 1},         PerElement{"aten::exp", 1},
    PerElement{"aten::sqrt", 1},        PerElement{"aten::mean", 1},
    PerElement{"aten::sum", 1},         PerElement{"aten::index_add_", 1},
    PerElement{"aten::softmax", 5},     PerElement{"aten::_softmax", 5},
    PerElement{"aten::log_softmax", 5}, PerElement{"aten::_log_softmax", 5},
    PerElement{"aten::layer_norm", 5},  PerElement{"aten::native_layer_norm", 5},
    PerElement{"aten::gelu", 8},        PerElement{"aten::silu", 4},
};

} // namespace

OpCost estimateOpCost(std::string_view name, const std::vector<OpArg>& args) {
    OpCost cost;
    int64_t inBytes = 0;
    int elemSize = 4;
    bool sawTensor = false;
    Shape firstShape;
    for (const auto& a : args)
        if (a.kind == OpArg::Tensor) {
            inBytes += elements(a.values) * a.elemSize;
            if (!sawTensor) {
                elemSize = a.elemSize;
                firstShape = a.values;
                sawTensor = true;
            }
        }
    std::optional<Shape> outShape;

    auto tensorAt = [&](size_t i) { return nth(args, i, OpArg::Tensor); };
    std::optional<std::pair<int64_t, Shape>> mm;
    if (name == "aten::mm" || name == "aten::matmul" || name == "aten::bmm") {
        if (tensorAt(0) && tensorAt(1)) mm = matmulFlops(tensorAt(0)->values, tensorAt(1)->values);
    } else if (name == "aten::addmm" || name == "aten::baddbmm") {
        if (tensorAt(1) && tensorAt(2)) mm = matmulFlops(tensorAt(1)->values, tensorAt(2)->values);
    } else if (name == "aten::linear") {
        // weight is [N, K]: the product is input · weightᵀ.
        if (tensorAt(0) && tensorAt(1) && tensorAt(1)->values.size() == 2) {
            const Shape& w = tensorAt(1)->values;
            mm = matmulFlops(tensorAt(0)->values, Shape{w[1], w[0]});
        }
    } else if (name.starts_with("aten::conv") || name == "aten::_convolution") {
        mm = convFlops(name, args);
    }
    if (mm) {
        cost.flops = mm->first;
        outShape = mm->second;
    } else if (sawTensor) {
        for (const auto& p : kPerElement)
            if (p.name == name) {
                Shape s = firstShape;
                // Reductions (mean, sum) read every input element once; binary ops broadcast.
                if (const OpArg* b = tensorAt(1); b && name != "aten::index_add_")
                    s = broadcast(s, b->values);
                cost.flops = int64_t(p.flops) * elements(s);
                outShape = s;
                break;
            }
    }
    cost.bytes = inBytes + elements(outShape.value_or(firstShape)) * elemSize * (sawTensor ? 1 : 0);
    return cost;
}

} // namespace mvp
