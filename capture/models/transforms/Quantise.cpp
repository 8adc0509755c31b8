#include "capture/models/transforms/Quantise.h"

#include "capture/models/transforms/Int8Engine.h"
#include "capture/models/transforms/Int8Kernel.h"
#include "capture/models/transforms/QuantiseTorch.h"

namespace mvp {

namespace {
torch::Tensor fromRows(const std::vector<float>& v, int rows, int cols) {
    return torch::from_blob(const_cast<float*>(v.data()), {rows, cols}, torch::kFloat).clone();
}
std::vector<float> toVector(const torch::Tensor& t) {
    auto c = t.to(torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

// Quantises `scaled` into q in `format`; returns the dequantised weights.
torch::Tensor quantiseInto(QuantisedWeight& q, const torch::Tensor& scaled, int bits, int group,
                           QuantFormat format) {
    if (format == QuantFormat::Int8PerChannel) {
        q.int8 = quantisePerChannelInt8(scaled);
        return q.int8.dequantize();
    }
    if (format == QuantFormat::Int8Symmetric) {
        q.int8Matmul = quantiseInt8Symmetric(scaled);
        return dequantiseInt8(*q.int8Matmul);
    }
    q.codes = quantiseGroups(scaled, bits, group);
    return dequantiseGroups(q.codes);
}

double outputMse(const torch::Tensor& x, const torch::Tensor& reference, const torch::Tensor& w) {
    return (torch::matmul(x, w.t()) - reference).pow(2).mean().item<double>();
}
} // namespace

AwqChoice awqQuantise(const torch::Tensor& weights, const torch::Tensor& inputs, int bits,
                      int group, int gridPoints, QuantFormat format) {
    torch::NoGradGuard noGrad;
    // The search runs in float32 whatever the model's dtype.
    const auto w = weights.to(torch::kFloat);
    const auto x = inputs.defined() ? inputs.to(torch::kFloat) : inputs;
    AwqChoice best;
    const bool calibrated = x.defined() && x.size(0) > 0;
    if (!calibrated) {
        (void)quantiseInto(best.weight, w, bits, group, format);
        return best;
    }
    auto reference = torch::matmul(x, w.t());
    auto meanAbs = x.abs().mean(0);
    const int points = std::max(2, gridPoints);
    for (int i = 0; i < points; ++i) {
        const double alpha = double(i) / double(points - 1);
        QuantisedWeight q;
        torch::Tensor scaled = w;
        if (i > 0) {
            // Normalised so the scales straddle 1 (as AWQ does), then held in
            // float16 exactly as stored.
            auto s = meanAbs.pow(alpha).clamp_min(1e-4);
            s = (s / (s.max() * s.min()).sqrt()).to(torch::kHalf);
            q.inputScale = s;
            scaled = w * s.to(torch::kFloat);
        }
        auto deq = quantiseInto(q, scaled, bits, group, format);
        if (q.inputScale.defined()) deq = deq / q.inputScale.to(torch::kFloat);
        const double mse = outputMse(x, reference, deq);
        if (i == 0) {
            best.mseRtn = best.mseAwq = mse;
            best.weight = q;
        } else if (mse < best.mseAwq) {
            best.mseAwq = mse;
            best.alpha = alpha;
            best.weight = q;
        }
    }
    return best;
}

QuantRoundTrip quantiseRoundTrip(const std::vector<float>& w, int rows, int cols, int bits,
                                 int group) {
    auto codes = quantiseGroups(fromRows(w, rows, cols), bits, group);
    QuantRoundTrip r;
    r.dequantised = toVector(dequantiseGroups(codes));
    r.scales = toVector(codes.scale);
    r.groups = int(codes.scale.size(-1));
    r.bytes = codes.bytes();
    return r;
}

AwqSearch awqSearch(const std::vector<float>& w, int rows, int cols, const std::vector<float>& x,
                    int n, int bits, int group, int gridPoints) {
    auto choice =
        awqQuantise(fromRows(w, rows, cols), fromRows(x, n, cols), bits, group, gridPoints);
    return AwqSearch{choice.alpha, choice.mseRtn, choice.mseAwq, choice.weight.bytes()};
}

} // namespace mvp
