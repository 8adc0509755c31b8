#include "capture/models/transforms/VisualTokenMerge.h"

#include "capture/models/transforms/TensorVectors.h"

#include <stdexcept>

namespace mvp {

namespace {
torch::Tensor indexTensor(const std::vector<int64_t>& v, const torch::Device& device) {
    return torch::tensor(v, torch::kLong).to(device);
}
} // namespace

torch::Tensor visionZipFeatures(const torch::Tensor& x, const torch::Tensor& probs,
                                const torch::Tensor& keys, const VisionZipSplit& split,
                                VisionZipSelection& selection) {
    // Scores: summed over heads (as VisionZip sums its CLS row's), averaged
    // over the queries, standing in for the CLS row this encoder lacks.
    const auto scores = toDoubles(probs.sum(0).mean(0));
    const auto k = toDoubleRows(keys.mean(0)); // [N, hd]: utils.py's metric
    auto chosen = visionZipSelect(scores, k, split);
    if (!chosen) throw std::runtime_error(chosen.error().message);
    selection = std::move(chosen.value());
    const auto targets = indexTensor(selection.targets, x.device());
    auto sums = torch::zeros({int64_t(selection.targets.size()), x.size(1)}, x.options());
    auto counts = torch::zeros({int64_t(selection.targets.size()), 1}, x.options());
    if (!selection.merged.empty()) {
        const auto into = indexTensor(selection.into, x.device());
        sums.index_add_(0, into, x.index_select(0, indexTensor(selection.merged, x.device())));
        counts.index_add_(0, into, torch::ones({int64_t(selection.merged.size()), 1}, x.options()));
    }
    auto contextual = x.index_select(0, targets) + sums / counts.clamp_min(1);
    return torch::cat({x.index_select(0, indexTensor(selection.dominant, x.device())), contextual});
}

torch::Tensor tomeMerge(const torch::Tensor& x, const torch::Tensor& metric, int64_t r,
                        ToMeState& state) {
    using torch::indexing::None;
    using torch::indexing::Slice;
    const int64_t n = x.size(0);
    r = std::min(r, n / 2);
    if (r <= 0) return x;
    auto m = metric / metric.norm(2, -1, true);
    auto a = m.index({Slice(0, None, 2)}), b = m.index({Slice(1, None, 2)});
    auto [nodeMax, nodeIdx] = torch::matmul(a, b.t()).max(-1);
    const auto edge = std::get<1>(nodeMax.sort(/*stable=*/true, -1, /*descending=*/true));
    const auto unm = edge.narrow(0, r, edge.size(0) - r), src = edge.narrow(0, 0, r);
    const auto dst = nodeIdx.index_select(0, src);
    // merge_wavg: sums of x · size and of size, then their ratio.
    auto merge = [&](const torch::Tensor& t) {
        auto ta = t.index({Slice(0, None, 2)}), tb = t.index({Slice(1, None, 2)});
        return torch::cat({ta.index_select(0, unm), tb.index_add(0, dst, ta.index_select(0, src))});
    };
    auto weighted = merge(x * state.size);
    state.size = merge(state.size);
    const auto patches = state.patchOf;
    state.patchOf = torch::cat({patches.index({Slice(0, None, 2)}).index_select(0, unm),
                                patches.index({Slice(1, None, 2)})});
    return weighted / state.size;
}

} // namespace mvp
