#include "capture/models/transforms/ModelTransforms.h"

#include "capture/models/transforms/Int4Kernel.h"
#include "capture/models/transforms/Int8Engine.h"
#include "capture/models/transforms/Int8Kernel.h"
#include "capture/models/transforms/QuantiseTorch.h"
#include "capture/whatif/ExpertSparsity.h"

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace mvp {

namespace {
// AWQ's search needs a sample, not every activation: rows evenly spread.
constexpr int64_t kCalibrationRows = 256;

torch::Tensor calibrationSample(std::vector<torch::Tensor>& rows) {
    if (rows.empty()) return torch::Tensor();
    auto x = torch::cat(rows, 0);
    rows.clear();
    if (x.size(0) <= kCalibrationRows) return x;
    auto idx = torch::linspace(0, double(x.size(0) - 1), kCalibrationRows)
                   .round()
                   .to(x.device(), torch::kLong);
    return x.index_select(0, idx);
}

void release(torch::Tensor& t) {
    torch::NoGradGuard noGrad;
    t.set_data(torch::empty({0}, t.options())); // set_data keeps the tensor's device
}

// Hands a searched int8 weight to the engine: packed with the layer's bias,
// the qint8 copy released.
void packForEngines(QuantisedWeight& q, const torch::Tensor& bias, const Int8EngineChoice& c) {
    const int64_t rows = q.int8.size(0);
    q.packedBytes = q.int8.numel() + rows * int64_t(sizeof(double) + sizeof(int64_t));
    q.packed = prepackInt8(q.int8, bias, c.large);
    if (c.split()) q.packedSmall = prepackInt8(q.int8, bias, c.small);
    q.int8 = torch::Tensor();
}

// W4's codes re-laid out for libtorch's int4 kernel where it takes them (the
// codes then released); the first reason a layer stays dequantised is kept.
void packForInt4(QuantisedWeight& q, QuantSummary& s) {
    std::string why;
    if (auto w = packInt4(q.codes, why)) {
        s.int4Kernel = int4KernelName(q.codes.packed.device(), why).value_or("");
        q.int4 = std::move(*w);
        q.codes.packed = q.codes.scale = q.codes.low = torch::Tensor();
        s.int4Layers += 1;
    } else if (s.int4Why.empty()) {
        s.int4Why = why;
    }
}

// W8's codes handed to libtorch's int8 matmul where it checks out (else they
// stay, dequantised per call); the first reason a layer does not is kept.
void packForInt8Matmul(QuantisedWeight& q, torch::ScalarType computeIn, QuantSummary& s) {
    std::string why;
    if (attachInt8Matmul(*q.int8Matmul, computeIn, why)) {
        s.int8Matmul = int8MatmulName(q.int8Matmul->codes.device(), computeIn, why).value_or("");
        s.int8MatmulLayers += 1;
    } else if (s.int8MatmulWhy.empty()) {
        s.int8MatmulWhy = why;
    }
}
} // namespace

namespace {
struct QuantTarget {
    std::string path; // the module it belongs to
    LinImpl* lin;
};

// Every decoder linear there is to quantise: attention, MLP, the experts not frozen.
std::vector<QuantTarget> decoderLinears(VlmModel::Impl& m) {
    std::vector<QuantTarget> targets;
    for (size_t i = 0; i < m.layers.size(); ++i) {
        auto& layer = m.layers[i];
        const std::string path = "llm.layer." + std::to_string(i);
        for (auto* lin : {layer->attn->wq.get(), layer->attn->wk.get(), layer->attn->wv.get(),
                          layer->attn->wo.get()})
            targets.push_back(QuantTarget{path + ".attn", lin});
        if (layer->moe) {
            for (size_t e = 0; e < layer->moe->experts.size(); ++e) {
                auto& x = layer->moe->experts[e];
                if (x->w1->weight.numel() == 0) continue; // frozen: nothing left to quantise
                for (auto* lin : {x->w1.get(), x->w2.get(), x->w3.get()})
                    targets.push_back(QuantTarget{path + ".moe.expert." + std::to_string(e), lin});
            }
        } else {
            for (auto* lin : {layer->ffn->w1.get(), layer->ffn->w2.get(), layer->ffn->w3.get()})
                targets.push_back(QuantTarget{path + ".mlp", lin});
        }
    }
    return targets;
}

// libtorch's int8 engines for W8, tried on every distinct layer shape; none
// without a workload or an engine that pays. Names them in `s`.
std::optional<Int8EngineChoice> int8Engines(const std::vector<QuantTarget>& targets, int bits,
                                            const std::optional<Int8Workload>& int8,
                                            QuantSummary& s) {
    if (bits != 8 || !int8 || targets.empty()) return std::nullopt;
    if (!targets.front().lin->weight.device().is_cpu()) {
        s.engineNote = "libtorch's quantized engines (fbgemm, onednn, qnnpack) run on the CPU, "
                       "not on this model's GPU";
        return std::nullopt;
    }
    // Every distinct layer shape, with how many layers have it.
    std::map<std::pair<int64_t, int64_t>, int> shapes;
    for (const auto& t : targets)
        shapes[{t.lin->weight.size(0), t.lin->weight.size(1)}] += 1;
    auto engines = chooseInt8Engines({shapes.begin(), shapes.end()}, *int8);
    if (engines) {
        s.engine = engines->split() ? std::string(engineName(engines->large)) + " + " +
                                          engineName(engines->small)
                                    : engineName(engines->large);
        s.engineNote = engines->note;
    }
    return engines;
}

// The codes W8 and W4 quantise to: int8 for the engine where it runs; int8
// for libtorch's int8 matmul where the model is off the CPU and it has one;
// else the group-wise codes.
QuantFormat quantFormat(const std::vector<QuantTarget>& targets, int bits, bool onEngine,
                        QuantSummary& s) {
    if (onEngine) return QuantFormat::Int8PerChannel;
    if (bits != 8 || targets.empty()) return QuantFormat::Groups;
    const torch::Tensor& weight = targets.front().lin->weight;
    if (weight.device().is_cpu()) return QuantFormat::Groups;
    if (!int8MatmulName(weight.device(), weight.scalar_type(), s.int8MatmulWhy))
        return QuantFormat::Groups;
    return QuantFormat::Int8Symmetric;
}
} // namespace

QuantSummary quantiseDecoder(VlmModel::Impl& m, int bits, int group, int gridPoints,
                             const std::function<void()>& calibrate,
                             const std::optional<Int8Workload>& int8) {
    std::vector<QuantTarget> targets = decoderLinears(m);
    std::vector<std::vector<torch::Tensor>> inputs(targets.size());
    for (size_t i = 0; i < targets.size(); ++i)
        targets[i].lin->calibration = &inputs[i];
    calibrate();
    for (auto& t : targets)
        t.lin->calibration = nullptr;

    QuantSummary s;
    const std::optional<Int8EngineChoice> engines = int8Engines(targets, bits, int8, s);
    const QuantFormat format = quantFormat(targets, bits, engines.has_value(), s);
    std::map<std::string, QuantisedModule> byModule;
    // Per module: Σ int8 and float32 trial times of its layers' shapes
    // (prefill int8, prefill float32, one row int8, one row float32).
    std::map<std::string, std::array<double, 4>> kernelTimes;
    for (size_t i = 0; i < targets.size(); ++i) {
        LinImpl& lin = *targets[i].lin;
        auto x = calibrationSample(inputs[i]);
        auto choice = awqQuantise(lin.weight.detach(), x, bits, group, gridPoints, format);
        const int64_t fp32 = lin.weight.numel() * int64_t(lin.weight.element_size());
        const int64_t rows = lin.weight.size(0), cols = lin.weight.size(1);
        lin.quant = std::make_shared<QuantisedWeight>(std::move(choice.weight));
        if (engines) packForEngines(*lin.quant, lin.bias, *engines);
        if (lin.quant->int8Matmul) packForInt8Matmul(*lin.quant, lin.weight.scalar_type(), s);
        if (bits == 4) packForInt4(*lin.quant, s);
        release(lin.weight);
        s.layers += 1;
        s.fp32Bytes += fp32;
        s.quantBytes += lin.quant->bytes();
        // One copy of the format, whatever the packs held: what a kernel reads per call.
        const int64_t oneCopy =
            lin.quant->bytes() - (lin.quant->packedSmall.isNone() ? 0 : lin.quant->packedBytes);
        s.formatBytes += oneCopy;
        if (x.defined()) {
            s.calibratedLayers += 1;
            s.mseRtn += choice.mseRtn;
            s.mseAwq += choice.mseAwq;
            s.meanAlpha += choice.alpha;
        }
        auto& mod = byModule[targets[i].path];
        mod.path = targets[i].path;
        mod.fp32Bytes += fp32;
        mod.quantBytes += oneCopy;
        if (engines)
            if (const ShapeTrial* t = engines->trialOf(rows, cols)) {
                auto& k = kernelTimes[targets[i].path];
                k[0] += t->int8Prefill, k[1] += t->fp32Prefill, k[2] += t->int8One,
                    k[3] += t->fp32One;
            }
    }
    if (s.calibratedLayers) s.meanAlpha /= s.calibratedLayers;
    for (auto& [path, mod] : byModule) {
        if (const auto k = kernelTimes.find(path);
            k != kernelTimes.end() && k->second[1] > 0 && k->second[3] > 0)
            mod.kernelRatios =
                KernelRatios{k->second[0] / k->second[1], k->second[2] / k->second[3]};
        s.modules.push_back(mod);
    }
    return s;
}

int64_t freezeExperts(VlmModel::Impl& m, const std::map<int, std::vector<int>>& frozen) {
    int64_t released = 0;
    for (const auto& [layer, experts] : frozen) {
        auto& moe = m.layers.at(size_t(layer))->moe;
        if (!moe || experts.empty()) continue;
        // On the router's device: the mask meets its logits there.
        auto mask =
            torch::zeros({int64_t(moe->experts.size())},
                         torch::TensorOptions().dtype(torch::kBool).device(moe->bias.device()));
        for (int e : experts) {
            mask[e] = true;
            for (auto* lin : {moe->experts[size_t(e)]->w1.get(), moe->experts[size_t(e)]->w2.get(),
                              moe->experts[size_t(e)]->w3.get()}) {
                released += lin->weightBytes();
                release(lin->weight);
            }
        }
        moe->frozen = mask;
    }
    return released;
}

namespace {
// The MoE layer's output on rows whose every expert output is known ([R, E,
// dim]), the router choosing among `subset` only (the others masked before
// the softmax, as pruning the router's rows does).
torch::Tensor mixOf(const MoeImpl& moe, const torch::Tensor& logits, const torch::Tensor& outputs,
                    const std::vector<int>& subset) {
    auto outside = torch::ones({logits.size(1)}, logits.options().dtype(torch::kBool));
    for (const int e : subset)
        outside[e] = false;
    auto probs =
        torch::softmax(logits.masked_fill(outside, -std::numeric_limits<float>::infinity()), -1);
    auto top = probs.topk(moe.topK, -1);
    auto w = std::get<0>(top) / std::get<0>(top).sum(-1, true);
    auto chosen = outputs.gather(
        1, std::get<1>(top).unsqueeze(-1).expand({outputs.size(0), moe.topK, outputs.size(2)}));
    return (w.unsqueeze(-1) * chosen).sum(1);
}
} // namespace

ExpertPruningSummary pruneExperts(VlmModel::Impl& m, int keep,
                                  const std::function<void()>& calibrate) {
    std::map<int, std::vector<torch::Tensor>> inputs;
    for (size_t l = 0; l < m.layers.size(); ++l)
        if (auto& moe = m.layers[l]->moe) moe->gate->calibration = &inputs[int(l)];
    calibrate();
    for (auto& l : m.layers)
        if (l->moe) l->moe->gate->calibration = nullptr;
    torch::NoGradGuard noGrad;
    ExpertPruningSummary s;
    std::map<int, std::vector<int>> frozen;
    for (auto& [layer, rows] : inputs) {
        MoeImpl& moe = *m.layers[size_t(layer)]->moe;
        const auto x = torch::cat(rows, 0);
        const auto logits = moe.gate(x) + moe.bias;
        std::vector<torch::Tensor> each;
        for (auto& e : moe.experts)
            each.push_back(e->forward(x));
        const auto outputs = torch::stack(each, 1); // [R, E, dim]
        const int experts = int(moe.experts.size());
        std::vector<int> all(static_cast<size_t>(experts));
        std::iota(all.begin(), all.end(), 0);
        const auto full = mixOf(moe, logits, outputs, all);
        const auto loss = [&](const std::vector<int>& subset) {
            return (mixOf(moe, logits, outputs, subset) - full).pow(2).sum().item<double>();
        };
        auto best = bestExpertSubset(experts, keep, loss);
        s.relativeError[layer] =
            std::sqrt(loss(best) / std::max(1e-30, full.pow(2).sum().item<double>()));
        for (int e = 0; e < experts; ++e)
            if (!std::binary_search(best.begin(), best.end(), e)) frozen[layer].push_back(e);
        s.kept[layer] = std::move(best);
    }
    s.releasedBytes = freezeExperts(m, frozen);
    return s;
}

ChannelSummary pruneVisionChannels(VlmModel::Impl& m, double fraction,
                                   const std::function<torch::Tensor()>& logLikelihood) {
    std::vector<torch::Tensor> params;
    for (auto& b : m.vit)
        params.insert(params.end(), {b->fc1->weight, b->fc1->bias, b->fc2->weight});
    auto loss = logLikelihood();
    auto grads = torch::autograd::grad({loss}, params);
    torch::NoGradGuard noGrad;
    ChannelSummary s;
    s.sensitivityMargin = std::numeric_limits<double>::infinity();
    int64_t removedParams = 0;
    for (size_t i = 0; i < m.vit.size(); ++i) {
        auto& b = m.vit[i];
        auto& w1 = b->fc1->weight;
        auto& b1 = b->fc1->bias;
        auto& w2 = b->fc2->weight;
        const auto &g1 = grads[3 * i], &gb = grads[3 * i + 1], &g2 = grads[3 * i + 2];
        auto sensitivity = (w1 * g1).abs().sum(1) + (b1 * gb).abs() + (w2 * g2).abs().sum(0);
        const int64_t hidden = w1.size(0);
        const int64_t removed =
            std::min<int64_t>(hidden - 1, std::llround(fraction * double(hidden)));
        const int64_t kept = hidden - removed;
        auto order = std::get<1>(sensitivity.sort(/*stable=*/true, 0, /*descending=*/true));
        auto keep = std::get<0>(order.narrow(0, 0, kept).sort()); // original channel order
        if (removed > 0)
            s.sensitivityMargin = std::min(
                s.sensitivityMargin, sensitivity.index_select(0, keep).min().item<double>() -
                                         sensitivity.index_select(0, order.narrow(0, kept, removed))
                                             .max()
                                             .item<double>());
        w1.set_data(w1.index_select(0, keep).clone());
        b1.set_data(b1.index_select(0, keep).clone());
        w2.set_data(w2.index_select(1, keep).clone());
        const int64_t perChannel = w1.size(1) + 1 + w2.size(0);
        removedParams += removed * perChannel;
        auto& rows = m.reg.rows;
        rows[size_t(b->mlpId - 1)].params -= removed * perChannel;
        rows[size_t(b->id - 1)].params -= removed * perChannel;
        s.removed += removed;
        s.kept += kept;
    }
    m.reg.rows[size_t(m.idVision - 1)].params -= removedParams;
    return s;
}

} // namespace mvp
