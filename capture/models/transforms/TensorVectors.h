#pragma once
// Tensors as the plain numbers the what-if methods' selections take
// (KvPolicies.h, TokenDrop.h, VisionZip.h). Internal to mvp_capture; torch.

#include <torch/torch.h>
#include <vector>

namespace mvp {

// Every element of `t`, in float64, row-major (copied to the host from any device).
inline std::vector<double> toDoubles(const torch::Tensor& t) {
    const auto d = t.to(torch::kCPU, torch::kDouble).contiguous();
    return {d.data_ptr<double>(), d.data_ptr<double>() + d.numel()};
}

// The rows of a 2-D `t`, in float64 (on the host).
inline std::vector<std::vector<double>> toDoubleRows(const torch::Tensor& t) {
    const auto d = t.to(torch::kCPU, torch::kDouble).contiguous();
    std::vector<std::vector<double>> out;
    for (int64_t i = 0; i < d.size(0); ++i)
        out.emplace_back(d[i].data_ptr<double>(), d[i].data_ptr<double>() + d.size(1));
    return out;
}

} // namespace mvp
