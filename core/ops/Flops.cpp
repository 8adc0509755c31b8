#include "core/ops/Flops.h"

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>

namespace mvp {

namespace {

using Shape = Dims;
using ShapeFlops = std::optional<std::pair<int64_t, Shape>>; // FLOPs and the output's shape

int64_t elements(const Shape& s) {
    return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<>());
}

int64_t tensorBytes(const OpArg& a) {
    if (a.kind == OpArg::TensorList) {
        int64_t n = 0;
        for (const auto& t : a.items)
            n += tensorBytes(t);
        return n;
    }
    return a.kind == OpArg::Tensor ? elements(a.values) * a.elemSize : 0;
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
ShapeFlops matmulFlops(Shape a, Shape b) {
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
const Shape* shapeAt(const std::vector<OpArg>& args, size_t i) {
    const OpArg* a = nth(args, i, OpArg::Tensor);
    return a ? &a->values : nullptr;
}

int64_t listAt(const OpArg* a, size_t i, int64_t fallback) {
    if (!a || a->values.empty()) return fallback;
    return a->values[std::min(i, a->values.size() - 1)];
}

// The output length of a sliding window (convolution, pooling).
int64_t windowOut(int64_t in, int64_t kernel, int64_t stride, int64_t pad, int64_t dilation) {
    return (in + 2 * pad - dilation * (kernel - 1) - 1) / std::max<int64_t>(stride, 1) + 1;
}

// conv(input, weight, bias, stride, padding, dilation, [transposed, output_padding,] groups)
ShapeFlops convFlops(std::string_view name, const std::vector<OpArg>& args) {
    const Shape* x = shapeAt(args, 0);
    const Shape* k = shapeAt(args, 1);
    if (!x || !k || x->size() < 3 || k->size() != x->size()) return std::nullopt;
    const bool full = name == "aten::convolution" || name == "aten::_convolution";
    if (full && args.size() > 6 && args[6].kind == OpArg::Int && args[6].values.at(0) != 0)
        return std::nullopt; // transposed convolution: not modelled
    const OpArg* stride = nth(args, 3, OpArg::IntList);
    const OpArg* padding = nth(args, 4, OpArg::IntList);
    const OpArg* dilation = nth(args, 5, OpArg::IntList);
    // conv2d(..., padding="same") passes a string: its inner convolution has the numbers.
    if (!padding) return std::nullopt;
    const OpArg* g = nth(args, full ? 8 : 6, OpArg::Int);
    const int64_t groups = g && !g->values.empty() ? g->values[0] : 1;
    const int64_t batch = (*x)[0], cin = (*x)[1], cout = (*k)[0];
    Shape out{batch, cout};
    int64_t window = 1;
    for (size_t d = 2; d < x->size(); ++d) {
        const size_t i = d - 2;
        out.push_back(windowOut((*x)[d], (*k)[d], listAt(stride, i, 1), listAt(padding, i, 0),
                                listAt(dilation, i, 1)));
        window *= (*k)[d];
    }
    const int64_t spatial = elements(Shape(out.begin() + 2, out.end()));
    return std::pair{2 * batch * cout * spatial * (cin / std::max<int64_t>(groups, 1)) * window,
                     out};
}

// _native_multi_head_attention(query [B,L,E], key [B,S,E], value [B,S,E], embed_dim,
// num_head, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, …): the q/k/v and
// output projections, QKᵀ and PV.
ShapeFlops nativeMhaFlops(const std::vector<OpArg>& args) {
    const Shape* q = shapeAt(args, 0);
    const Shape* k = shapeAt(args, 1);
    if (!q || !k || q->size() != 3 || k->size() != 3) return std::nullopt;
    const int64_t b = (*q)[0], l = (*q)[1], e = (*q)[2], s = (*k)[1];
    const int64_t projections = 2 * b * e * e * (2 * l + 2 * s);
    const int64_t attention = 2 * (2 * b * l * s * e);
    return std::pair{projections + attention, *q};
}

// scaled_dot_product_attention(query [..,L,E], key [..,S,E], value [..,S,Ev], …):
// QKᵀ and PV over every head; a causal mask is not discounted.
ShapeFlops sdpaFlops(const std::vector<OpArg>& args) {
    const Shape* q = shapeAt(args, 0);
    const Shape* k = shapeAt(args, 1);
    const Shape* v = shapeAt(args, 2);
    if (!q || !k || !v || q->size() < 2 || k->size() != q->size() || v->size() != q->size())
        return std::nullopt;
    const int64_t batch = elements(Shape(q->begin(), q->end() - 2));
    const int64_t l = (*q)[q->size() - 2], e = q->back(), s = (*k)[k->size() - 2], ev = v->back();
    Shape out(q->begin(), q->end() - 1);
    out.push_back(ev);
    return std::pair{2 * batch * l * s * e + 2 * batch * l * s * ev, out};
}

// max_pool2d / avg_pool2d(self, kernel_size, stride, padding, [dilation]): one
// operation per window element and output element.
ShapeFlops poolFlops(std::string_view name, const std::vector<OpArg>& args) {
    const Shape* x = shapeAt(args, 0);
    const OpArg* kernel = nth(args, 1, OpArg::IntList);
    if (!x || x->size() < 3 || !kernel || kernel->values.empty()) return std::nullopt;
    const OpArg* stride = nth(args, 2, OpArg::IntList);
    const OpArg* padding = nth(args, 3, OpArg::IntList);
    const OpArg* dilation = name.starts_with("aten::max") ? nth(args, 4, OpArg::IntList) : nullptr;
    Shape out(x->begin(), x->end() - 2);
    int64_t window = 1;
    for (size_t i = 0; i < 2; ++i) {
        const int64_t k = listAt(kernel, i, 1);
        const int64_t s = stride && !stride->values.empty() ? listAt(stride, i, k) : k;
        out.push_back(windowOut((*x)[x->size() - 2 + i], k, s, listAt(padding, i, 0),
                                listAt(dilation, i, 1)));
        window *= k;
    }
    return std::pair{elements(out) * window, out};
}

ShapeFlops matmulFamily(std::string_view name, const std::vector<OpArg>& args) {
    const Shape* a0 = shapeAt(args, 0);
    const Shape* a1 = shapeAt(args, 1);
    const Shape* a2 = shapeAt(args, 2);
    if (name == "aten::mm" || name == "aten::matmul" || name == "aten::bmm" || name == "aten::mv" ||
        name == "aten::dot")
        return a0 && a1 ? matmulFlops(*a0, *a1) : std::nullopt;
    if (name == "aten::addmm" || name == "aten::baddbmm" || name == "aten::addmv")
        return a1 && a2 ? matmulFlops(*a1, *a2) : std::nullopt;
    if (name == "aten::addbmm") {
        // Σ over the batch of mat1[b] · mat2[b], into one [M, N].
        auto r = a1 && a2 ? matmulFlops(*a1, *a2) : std::nullopt;
        if (r && r->second.size() == 3) r->second.erase(r->second.begin());
        return r;
    }
    if (name == "aten::linear") {
        // weight is [N, K]: the product is input · weightᵀ.
        if (!a0 || !a1 || a1->size() != 2) return std::nullopt;
        return matmulFlops(*a0, Shape{(*a1)[1], (*a1)[0]});
    }
    if (name == "aten::_weight_int4pack_mm" || name == "aten::_weight_int4pack_mm_for_cpu") {
        // x [M, K] · Wᵀ, W's tiled codes in a layout of their own: N is the
        // scales-and-zeros' [K / group, N, 2] middle dimension.
        const Shape* sz = shapeAt(args, 3);
        if (!a0 || a0->empty() || !sz || sz->size() != 3) return std::nullopt;
        return matmulFlops(*a0, Shape{a0->back(), (*sz)[1]});
    }
    return std::nullopt;
}

constexpr std::array kConvOps{std::string_view("aten::conv1d"), std::string_view("aten::conv2d"),
                              std::string_view("aten::conv3d"),
                              std::string_view("aten::convolution"),
                              std::string_view("aten::_convolution")};
constexpr std::array kMatmulOps{std::string_view("aten::mm"),
                                std::string_view("aten::matmul"),
                                std::string_view("aten::bmm"),
                                std::string_view("aten::addmm"),
                                std::string_view("aten::baddbmm"),
                                std::string_view("aten::addbmm"),
                                std::string_view("aten::mv"),
                                std::string_view("aten::addmv"),
                                std::string_view("aten::dot"),
                                std::string_view("aten::linear"),
                                std::string_view("aten::_weight_int4pack_mm"),
                                std::string_view("aten::_weight_int4pack_mm_for_cpu")};
constexpr std::array kSdpaOps{std::string_view("aten::scaled_dot_product_attention"),
                              std::string_view("aten::_scaled_dot_product_attention_math"),
                              std::string_view("aten::_scaled_dot_product_flash_attention"),
                              std::string_view("aten::_scaled_dot_product_flash_attention_for_cpu"),
                              std::string_view("aten::_scaled_dot_product_efficient_attention"),
                              std::string_view("aten::_scaled_dot_product_cudnn_attention")};
constexpr std::array kPoolOps{std::string_view("aten::max_pool2d"),
                              std::string_view("aten::max_pool2d_with_indices"),
                              std::string_view("aten::avg_pool2d")};

struct PerElement {
    std::string_view name;
    int flops;
};
constexpr std::array kPerElement{
    PerElement{"aten::add", 1},
    PerElement{"aten::add_", 1},
    PerElement{"aten::sub", 1},
    PerElement{"aten::sub_", 1},
    PerElement{"aten::rsub", 1},
    PerElement{"aten::mul", 1},
    PerElement{"aten::mul_", 1},
    PerElement{"aten::div", 1},
    PerElement{"aten::div_", 1},
    PerElement{"aten::neg", 1},
    PerElement{"aten::rsqrt", 1},
    PerElement{"aten::pow", 1},
    PerElement{"aten::exp", 1},
    PerElement{"aten::sqrt", 1},
    PerElement{"aten::mean", 1},
    PerElement{"aten::sum", 1},
    PerElement{"aten::index_add_", 1},
    PerElement{"aten::relu", 1},
    PerElement{"aten::relu_", 1},
    PerElement{"aten::clamp", 1},
    PerElement{"aten::clamp_", 1},
    PerElement{"aten::hardtanh", 1},
    PerElement{"aten::hardtanh_", 1},
    PerElement{"aten::sigmoid", 4},
    PerElement{"aten::tanh", 4},
    PerElement{"aten::silu", 4},
    PerElement{"aten::silu_", 4},
    PerElement{"aten::gelu", 8},
    PerElement{"aten::softmax", 5},
    PerElement{"aten::_softmax", 5},
    PerElement{"aten::log_softmax", 5},
    PerElement{"aten::_log_softmax", 5},
    PerElement{"aten::layer_norm", 5},
    PerElement{"aten::native_layer_norm", 5},
    PerElement{"aten::batch_norm", 2},
    PerElement{"aten::_batch_norm_impl_index", 2},
    PerElement{"aten::native_batch_norm", 2},
    PerElement{"aten::_native_batch_norm_legit_no_training", 2},
    PerElement{"aten::adaptive_avg_pool2d", 1},
    PerElement{"aten::_adaptive_avg_pool2d", 1},
};

// Views and metadata: no data moves (reshape, flatten and contiguous only when
// their input is already contiguous; the probe checks).
constexpr std::array kViewOps{
    std::string_view("aten::view"),
    std::string_view("aten::_unsafe_view"),
    std::string_view("aten::view_as"),
    std::string_view("aten::reshape"),
    std::string_view("aten::reshape_as"),
    std::string_view("aten::_reshape_alias"),
    std::string_view("aten::flatten"),
    std::string_view("aten::unflatten"),
    std::string_view("aten::contiguous"),
    std::string_view("aten::narrow"),
    std::string_view("aten::select"),
    std::string_view("aten::slice"),
    std::string_view("aten::transpose"),
    std::string_view("aten::transpose_"),
    std::string_view("aten::t"),
    std::string_view("aten::t_"),
    std::string_view("aten::permute"),
    std::string_view("aten::movedim"),
    std::string_view("aten::swapaxes"),
    std::string_view("aten::numpy_T"),
    std::string_view("aten::unsqueeze"),
    std::string_view("aten::unsqueeze_"),
    std::string_view("aten::squeeze"),
    std::string_view("aten::squeeze_"),
    std::string_view("aten::expand"),
    std::string_view("aten::expand_as"),
    std::string_view("aten::as_strided"),
    std::string_view("aten::alias"),
    std::string_view("aten::detach"),
    std::string_view("aten::detach_"),
    std::string_view("aten::split"),
    std::string_view("aten::split_with_sizes"),
    std::string_view("aten::chunk"),
    std::string_view("aten::unbind"),
    std::string_view("aten::diagonal"),
    std::string_view("aten::unfold"),
    std::string_view("aten::empty"),
    std::string_view("aten::empty_like"),
    std::string_view("aten::empty_strided"),
    std::string_view("aten::lift_fresh"),
    std::string_view("aten::resolve_conj"),
    std::string_view("aten::resolve_neg"),
    std::string_view("aten::dropout"),
    std::string_view("aten::feature_dropout"),
    std::string_view("aten::size"),
    std::string_view("aten::stride"),
    std::string_view("aten::dim"),
    std::string_view("aten::numel"),
    std::string_view("aten::item"),
    std::string_view("aten::_local_scalar_dense"),
    std::string_view("aten::is_nonzero"),
    std::string_view("aten::set_"),
};
// Copies and fills: data moves, no arithmetic.
constexpr std::array kCopyOps{
    std::string_view("aten::copy_"),
    std::string_view("aten::clone"),
    std::string_view("aten::to"),
    std::string_view("aten::_to_copy"),
    std::string_view("aten::type_as"),
    std::string_view("aten::cat"),
    std::string_view("aten::concat"),
    std::string_view("aten::stack"),
    std::string_view("aten::zero_"),
    std::string_view("aten::fill_"),
    std::string_view("aten::zeros_like"),
    std::string_view("aten::ones_like"),
    std::string_view("aten::full_like"),
    std::string_view("aten::embedding"),
    std::string_view("aten::index_select"),
    std::string_view("aten::masked_fill"),
    std::string_view("aten::masked_fill_"),
    std::string_view("aten::repeat"),
    std::string_view("aten::repeat_interleave"),
};
constexpr std::array kFillOps{std::string_view("aten::zero_"), std::string_view("aten::fill_"),
                              std::string_view("aten::zeros_like"),
                              std::string_view("aten::ones_like"),
                              std::string_view("aten::full_like")};

template <typename List> bool contains(const List& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

const PerElement* perElement(std::string_view name) {
    for (const auto& p : kPerElement)
        if (p.name == name) return &p;
    return nullptr;
}

ShapeFlops arithmetic(std::string_view name, const OpTraits& t, const std::vector<OpArg>& args) {
    using F = OpTraits::Formula;
    switch (t.formula) {
    case F::None:
        return std::nullopt;
    case F::Matmul:
        return matmulFamily(name, args);
    case F::Conv:
        return convFlops(name, args);
    case F::Sdpa:
        return sdpaFlops(args);
    case F::NativeMha:
        return nativeMhaFlops(args);
    case F::Pool:
        return poolFlops(name, args);
    case F::AdaptivePool: {
        // One add per input element; the output is the requested size.
        const Shape* s = shapeAt(args, 0);
        const OpArg* size = nth(args, 1, OpArg::IntList);
        if (!s || !size || size->values.size() != 2 || s->size() < 2) return std::nullopt;
        Shape out(s->begin(), s->end() - 2);
        out.insert(out.end(), size->values.begin(), size->values.end());
        return std::pair{elements(*s), out};
    }
    case F::PerElement:
    case F::IndexAdd: {
        const Shape* first = shapeAt(args, 0);
        if (!first) return std::nullopt;
        // Reductions (mean, sum) read every input element once; binary ops broadcast.
        const Shape* b = t.formula == F::PerElement ? shapeAt(args, 1) : nullptr;
        Shape s = b ? broadcast(*first, *b) : *first;
        return std::pair{int64_t(t.perElementFlops) * elements(s), s};
    }
    }
    return std::nullopt;
}

// embedding(weight, indices) · index_select(self, dim, index): the rows
// gathered, read and written, plus the index.
int64_t gatheredBytes(const std::vector<OpArg>& args, bool embedding) {
    const Shape* table = shapeAt(args, 0);
    const OpArg* index = nth(args, embedding ? 1 : 2, OpArg::Tensor);
    if (!table || table->empty() || !index) return 0;
    const auto rank = int64_t(table->size());
    int64_t d = 0;
    if (const OpArg* dim = nth(args, 1, OpArg::Int); !embedding && dim)
        d = std::clamp<int64_t>(dim->values[0] < 0 ? dim->values[0] + rank : dim->values[0], 0,
                                rank - 1);
    const int64_t rowElems = elements(*table) / std::max<int64_t>((*table)[size_t(d)], 1);
    return tensorBytes(*index) + 2 * elements(index->values) * rowElems * args[0].elemSize;
}

// Bytes of the ops that move data without arithmetic.
int64_t copyBytes(std::string_view name, const std::vector<OpArg>& args) {
    const OpArg* first = args.empty() ? nullptr : &args[0];
    for (const auto& a : args)
        if (a.kind == OpArg::Tensor || a.kind == OpArg::TensorList) {
            first = &a;
            break;
        }
    if (!first) return 0;
    if (contains(kFillOps, name)) return tensorBytes(*first); // written once
    if (name == "aten::copy_") {
        const OpArg* src = nth(args, 1, OpArg::Tensor);
        return tensorBytes(*first) + (src ? tensorBytes(*src) : 0);
    }
    if (name == "aten::embedding" || name == "aten::index_select")
        return gatheredBytes(args, name == "aten::embedding");
    // clone, to, cat, stack, contiguous or reshape of a strided tensor, masked_fill,
    // repeat: read every input, write as much.
    int64_t in = 0;
    for (const auto& a : args)
        in += tensorBytes(a);
    return 2 * in;
}

} // namespace

OpTraits opTraits(std::string_view name) {
    using F = OpTraits::Formula;
    OpTraits t;
    if (contains(kViewOps, name)) {
        t.cls = OpClass::View;
        return t;
    }
    if (contains(kCopyOps, name)) {
        t.cls = OpClass::Copy;
        return t;
    }
    t.cls = OpClass::Arithmetic;
    if (contains(kMatmulOps, name)) {
        t.formula = F::Matmul;
    } else if (contains(kConvOps, name)) {
        t.formula = F::Conv;
    } else if (contains(kSdpaOps, name)) {
        t.formula = F::Sdpa;
    } else if (name == "aten::_native_multi_head_attention") {
        t.formula = F::NativeMha;
    } else if (contains(kPoolOps, name)) {
        t.formula = F::Pool;
    } else if (const PerElement* p = perElement(name)) {
        t.perElementFlops = p->flops;
        t.formula = name == "aten::adaptive_avg_pool2d" || name == "aten::_adaptive_avg_pool2d"
                        ? F::AdaptivePool
                    : name == "aten::index_add_" ? F::IndexAdd
                                                 : F::PerElement;
    } else {
        t.cls = OpClass::Other;
    }
    return t;
}

OpClass classifyOp(std::string_view name) {
    return opTraits(name).cls;
}

OpCost estimateOpCost(std::string_view name, const std::vector<OpArg>& args) {
    return estimateOpCost(name, opTraits(name), args);
}

OpCost estimateOpCost(std::string_view name, const OpTraits& traits,
                      const std::vector<OpArg>& args) {
    const OpClass cls = traits.cls;
    OpCost cost;
    const OpArg* firstTensor = nullptr;
    for (const auto& a : args)
        if (a.kind == OpArg::Tensor) {
            firstTensor = &a;
            break;
        }
    if (cls == OpClass::View) {
        cost.flops = 0;
        // reshape, flatten and contiguous copy a strided input.
        const bool copies = firstTensor && !firstTensor->contiguous &&
                            (name == "aten::reshape" || name == "aten::flatten" ||
                             name == "aten::contiguous" || name == "aten::reshape_as");
        cost.bytes = copies ? 2 * tensorBytes(*firstTensor) : 0;
        return cost;
    }
    if (cls == OpClass::Copy) {
        cost.flops = 0;
        cost.bytes = copyBytes(name, args);
        return cost;
    }
    int64_t inBytes = 0;
    for (const auto& a : args)
        inBytes += tensorBytes(a);
    std::optional<Shape> outShape;
    if (cls == OpClass::Arithmetic)
        if (auto r = arithmetic(name, traits, args)) {
            cost.flops = r->first;
            outShape = r->second;
        }
    if (!outShape && firstTensor) outShape = firstTensor->values;
    const int elemSize = firstTensor ? firstTensor->elemSize : 4;
    cost.bytes = inBytes + (outShape ? elements(*outShape) * elemSize : 0);
    return cost;
}

CallFlops callFlops(const ChildCalls& nested, const std::optional<int64_t>& ownFlops,
                    bool arithmetic) {
    if (nested.arithmetic) return {nested.flops, true, false};
    if (ownFlops) return {*ownFlops, true, arithmetic};
    if (nested.count > 0 && nested.unknown == 0) return {nested.flops, true, false};
    return {};
}

void addNestedCall(ChildCalls& parent, const CallFlops& call, bool arithmetic,
                   const ChildCalls& nested) {
    parent.count += 1;
    if (call.known)
        parent.flops += call.flops;
    else
        parent.unknown += 1;
    parent.arithmetic = parent.arithmetic || arithmetic || nested.arithmetic;
}

} // namespace mvp
