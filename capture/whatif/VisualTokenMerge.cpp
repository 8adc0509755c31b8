#include "capture/whatif/VisualTokenMerge.h"

#include <stdexcept>

namespace mvp {

namespace {
std::vector<double> doubles(const torch::Tensor& t) {
    const auto d = t.to(torch::kDouble).contiguous();
    return {d.data_ptr<double>(), d.data_ptr<double>() + d.numel()};
}
torch::Tensor indexTensor(const std::vector<int64_t>& v) {
    return torch::tensor(v, torch::kLong);
}
} // namespace

torch::Tensor visionZipFeatures(const torch::Tensor& x, const torch::Tensor& probs,
                                const torch::Tensor& keys, const VisionZipSplit& split,
                                VisionZipSelection& selection) {
    // Scores: summed over heads (as VisionZip sums its CLS row's), averaged
    // over the queries, standing in for the CLS row this encoder lacks.
    const auto scores = doubles(probs.sum(0).mean(0));
    const auto meanKeys =
        keys.mean(0).to(torch::kDouble).contiguous(); // [N, hd], utils.py's metric
    std::vector<std::vector<double>> k;
    for (int64_t i = 0; i < meanKeys.size(0); ++i)
        k.push_back(doubles(meanKeys[i]));
    auto chosen = visionZipSelect(scores, k, split);
    if (!chosen) throw std::runtime_error(chosen.error().message);
    selection = std::move(chosen.value());
    const auto targets = indexTensor(selection.targets);
    auto sums = torch::zeros({int64_t(selection.targets.size()), x.size(1)}, x.options());
    auto counts = torch::zeros({int64_t(selection.targets.size()), 1}, x.options());
    if (!selection.merged.empty()) {
        const auto into = indexTensor(selection.into);
        sums.index_add_(0, into, x.index_select(0, indexTensor(selection.merged)));
        counts.index_add_(0, into, torch::ones({int64_t(selection.merged.size()), 1}, x.options()));
    }
    auto contextual = x.index_select(0, targets) + sums / counts.clamp_min(1);
    return torch::cat({x.index_select(0, indexTensor(selection.dominant)), contextual});
}

} // namespace mvp
