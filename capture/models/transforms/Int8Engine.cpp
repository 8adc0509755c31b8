#include "capture/models/transforms/Int8Engine.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <algorithm>
#include <chrono>

namespace mvp {

namespace {
// The quantized ops are registered with the dispatcher, not exposed as C++
// functions: call them boxed, as TorchScript does.
c10::OperatorHandle op(const char* name) {
    return c10::Dispatcher::singleton().findSchemaOrThrow(name, "");
}
} // namespace

namespace {
// Weight copies a trial may hold for one kind of kernel (float32, or one int8
// engine). In the model each layer reads its own weights once per step, so a
// call rarely finds its weight in cache; timing one weight over and over
// would (a 512×512 float32 GEMV runs 10× faster from L2 than from memory) and
// would favour float32 by as much. So every layer of a shape gets its own
// copy, as far as this budget goes.
constexpr int64_t kTrialCopyBytes = int64_t(192) << 20;

int copiesWithin(int64_t bytesPerCopy, int layers, int64_t budget) {
    return int(std::clamp<int64_t>(budget / std::max<int64_t>(1, bytesPerCopy), 1, layers));
}

// Per shape, the median over `passes` passes (after a warm-up pass) of the
// mean time of its calls, in ns. A pass makes one call per copy, the shapes
// interleaved as a model's layers interleave them: call(shape, copy).
template <typename Call>
std::vector<double> passMedians(const std::vector<int>& copies, int passes, Call&& call) {
    const int most = *std::max_element(copies.begin(), copies.end());
    std::vector<std::vector<double>> perShape(copies.size());
    for (int pass = -1; pass < passes; ++pass) {
        std::vector<double> sum(copies.size(), 0.0);
        for (int c = 0; c < most; ++c)
            for (size_t i = 0; i < copies.size(); ++i) {
                if (c >= copies[i]) continue;
                const auto start = std::chrono::steady_clock::now();
                call(i, c);
                sum[i] += double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - start)
                                     .count());
            }
        if (pass >= 0)
            for (size_t i = 0; i < copies.size(); ++i)
                perShape[i].push_back(sum[i] / copies[i]);
    }
    std::vector<double> out;
    for (auto& t : perShape) {
        std::sort(t.begin(), t.end());
        out.push_back(t[t.size() / 2]);
    }
    return out;
}
} // namespace

const char* engineName(at::QEngine e) {
    switch (e) {
    case at::QEngine::FBGEMM:
        return "fbgemm";
    case at::QEngine::X86:
        return "x86";
    case at::QEngine::ONEDNN:
        return "onednn";
    case at::QEngine::QNNPACK:
        return "qnnpack";
    default:
        return "none";
    }
}

const ShapeTrial* Int8EngineChoice::trialOf(int64_t out, int64_t in) const {
    for (const auto& t : shapes)
        if (t.out == out && t.in == in) return &t;
    return nullptr;
}

namespace {
constexpr int64_t kTrialRows = 128; // prefill rows timed; the time is scaled to all of them

struct EngineTimes {
    std::vector<double> prefill, one; // per shape, ns (prefill scaled to its rows)
    double prefillTotal = 0, oneTotal = 0;
};

// Weight copies for the trial: per shape, as many as its layers and the
// budget allow (each shape's share in proportion to its layers' bytes), and
// the inputs: the prefill's rows and one row, as wide as the shape.
struct TrialWeights {
    std::vector<std::vector<torch::Tensor>> dense, int8;
    std::vector<int> counts, copies;
    std::vector<torch::Tensor> rows, one;
};

TrialWeights trialWeights(const std::vector<std::pair<std::pair<int64_t, int64_t>, int>>& shapes,
                          const torch::Tensor& input) {
    int64_t fp32Bytes = 0;
    for (const auto& [shape, count] : shapes)
        fp32Bytes += shape.first * shape.second * 4 * count;
    const double share =
        std::min(1.0, double(kTrialCopyBytes) / double(std::max<int64_t>(1, fp32Bytes)));
    TrialWeights w;
    for (const auto& [shape, count] : shapes) {
        const int64_t bytes = shape.first * shape.second * 4;
        const int n = copiesWithin(bytes, count, int64_t(share * double(bytes) * count));
        w.dense.emplace_back();
        w.int8.emplace_back();
        for (int k = 0; k < n; ++k) {
            w.dense.back().push_back(torch::randn({shape.first, shape.second}) * 0.02);
            w.int8.back().push_back(quantisePerChannelInt8(w.dense.back().back()));
        }
        w.counts.push_back(count);
        w.copies.push_back(n);
        w.rows.push_back(input.narrow(1, 0, shape.second).contiguous());
        w.one.push_back(w.rows.back().narrow(0, 0, 1).contiguous());
    }
    return w;
}

// One kernel's times per shape (ns per call): on the prefill's rows, scaled
// to all of them, and on one row. kernel(x, shape, copy) runs one call.
template <typename Kernel>
EngineTimes timeKernel(const TrialWeights& w, double scale, Kernel&& kernel) {
    EngineTimes t;
    t.prefill = passMedians(w.copies, 3, [&](size_t i, int c) { kernel(w.rows[i], i, size_t(c)); });
    t.one = passMedians(w.copies, 5, [&](size_t i, int c) { kernel(w.one[i], i, size_t(c)); });
    for (size_t i = 0; i < w.copies.size(); ++i) {
        t.prefill[i] *= scale;
        t.prefillTotal += w.counts[i] * t.prefill[i];
        t.oneTotal += w.counts[i] * t.one[i];
    }
    return t;
}

EngineTimes timeEngine(at::QEngine engine, const TrialWeights& w, double scale) {
    std::vector<std::vector<c10::IValue>> packed(w.int8.size());
    for (size_t i = 0; i < w.int8.size(); ++i)
        for (const auto& q : w.int8[i])
            packed[i].push_back(prepackInt8(q, torch::Tensor(), engine));
    return timeKernel(w, scale, [&](const torch::Tensor& x, size_t i, size_t c) {
        (void)linearDynamicInt8(x, packed[i][c]);
    });
}

// Float32's times per shape, as the trial's shapes.
std::vector<ShapeTrial>
float32Trial(const TrialWeights& w,
             const std::vector<std::pair<std::pair<int64_t, int64_t>, int>>& shapes, double scale) {
    const EngineTimes fp32 = timeKernel(w, scale, [&](const torch::Tensor& x, size_t i, size_t c) {
        (void)torch::nn::functional::linear(x, w.dense[i][c]);
    });
    std::vector<ShapeTrial> out;
    for (size_t i = 0; i < shapes.size(); ++i) {
        ShapeTrial t;
        t.out = shapes[i].first.first;
        t.in = shapes[i].first.second;
        t.fp32Prefill = fp32.prefill[i];
        t.fp32One = fp32.one[i];
        out.push_back(t);
    }
    return out;
}
} // namespace

std::optional<Int8EngineChoice>
chooseInt8Engines(const std::vector<std::pair<std::pair<int64_t, int64_t>, int>>& shapes,
                  const Int8Workload& w) {
    if (shapes.empty()) return std::nullopt;
    c10::InferenceMode inference;
    at::RecordFunctionGuard unrecorded(false); // the trial is not the model's work
    int64_t widest = 0;
    for (const auto& [shape, count] : shapes)
        widest = std::max(widest, shape.second);
    const int64_t rows = std::clamp<int64_t>(w.prefillRows, 1, kTrialRows);
    const double scale = double(std::max<int64_t>(1, w.prefillRows)) / double(rows);
    const auto input = torch::randn({rows, widest});
    const TrialWeights trial = trialWeights(shapes, input);
    Int8EngineChoice c;
    c.shapes = float32Trial(trial, shapes, scale);
    const auto& counts = trial.counts;
    std::optional<EngineTimes> large, small;
    std::string trials;
    for (const at::QEngine engine : at::globalContext().supportedQEngines()) {
        if (engine == at::QEngine::NoQEngine) continue;
        EngineTimes t = timeEngine(engine, trial, scale);
        trials += std::string(trials.empty() ? "" : "; ") + engineName(engine) + " " +
                  std::to_string(int64_t(t.prefillTotal / 1e3)) + " µs per prefill, " +
                  std::to_string(int64_t(t.oneTotal / 1e3)) + " µs per decode step";
        if (!large || t.prefillTotal < large->prefillTotal) c.large = engine, large = t;
        if (!small || t.oneTotal < small->oneTotal) c.small = engine, small = t;
    }
    if (!large) return std::nullopt;
    double fp32Prefill = 0, fp32One = 0;
    for (size_t i = 0; i < c.shapes.size(); ++i) {
        c.shapes[i].int8Prefill = large->prefill[i];
        c.shapes[i].int8One = small->one[i];
        fp32Prefill += counts[i] * c.shapes[i].fp32Prefill;
        fp32One += counts[i] * c.shapes[i].fp32One;
    }
    trials += "; float32 " + std::to_string(int64_t(fp32Prefill / 1e3)) + " and " +
              std::to_string(int64_t(fp32One / 1e3)) + " µs";
    c.note = std::string(c.split() ? "prefill calls on " : "every call on ") +
             engineName(c.large) +
             (c.split() ? std::string(", calls of ≤ ") + std::to_string(kSmallCallRows) +
                              " rows on " + engineName(c.small) +
                              " (each weight packed for both, its bytes counted twice)"
                        : std::string()) +
             ", by a trial of the model's " + std::to_string(c.shapes.size()) +
             " layer shapes (" + trials + ")";
    return c;
}

torch::Tensor quantisePerChannelInt8(const torch::Tensor& w) {
    auto f = w.to(torch::kFloat).contiguous();
    auto scale = (f.abs().amax(1) / 127.0).clamp_min(1e-8).to(torch::kDouble);
    auto zero = torch::zeros({f.size(0)}, torch::kLong);
    return at::quantize_per_channel(f, scale, zero, 0, at::kQInt8);
}

c10::IValue prepackInt8(const torch::Tensor& qweight, const torch::Tensor& bias,
                        at::QEngine engine) {
    static const c10::OperatorHandle prepack = op("quantized::linear_prepack");
    at::globalContext().setQEngine(engine); // prepack packs for the global engine
    std::vector<c10::IValue> stack{qweight, bias.defined() ? c10::IValue(bias.to(torch::kFloat).contiguous())
                                                    : c10::IValue()};
    prepack.callBoxed(&stack);
    return stack.at(0);
}

torch::Tensor linearDynamicInt8(const torch::Tensor& x, const c10::IValue& packed) {
    static const c10::OperatorHandle linear = op("quantized::linear_dynamic");
    const auto in = x.size(-1);
    auto flat = x.to(torch::kFloat).reshape({-1, in}).contiguous();
    std::vector<c10::IValue> stack{flat, packed, false};
    linear.callBoxed(&stack);
    auto y = stack.at(0).toTensor();
    std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
    shape.back() = y.size(-1);
    return y.reshape(shape).to(x.scalar_type());
}

} // namespace mvp
