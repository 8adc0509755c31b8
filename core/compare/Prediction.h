#pragma once
// Predicted figures for what-ifs whose gain this machine cannot measure
// (docs/diagnostics.md §9): a quantised matmul here dequantises to float32 first,
// so an int4 kernel's speed is predicted from the bytes it would move.

#include "core/analysis/Analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

// Where a faster kernel exists and was timed against float32 on a layer of
// the model's shape (int8: Int8Engine.h's trial), its time ratio per phase.
struct KernelRatios {
    double prefill = 1, decode = 1; // kernel time ÷ float32 time, on the prefill's rows / one row
};

// A probe module whose linears were quantised, with their weights' bytes and,
// where a kernel ran them, its time ratios on the module's own layer shapes.
struct QuantisedModule {
    std::string path; // e.g. "llm.layer.0.attn"
    int64_t fp32Bytes = 0, quantBytes = 0;
    std::optional<KernelRatios> kernelRatios;
};

struct LatencyPrediction {
    int64_t wallNs = 0; // predicted wall time of the what-if
    std::string note;   // the model, in words
};

// Roofline model per quantised module m and phase p, from the baseline's
// spans: T' = T · max(F/P, B'/BW) / max(F/P, B/BW) with B' = B − calls ·
// (fp32 − quantised weight bytes), scaled by the what-if's positions per
// phase; the what-if's measured time of m in p is replaced by T'. P and BW are
// the baseline's device ceilings. Where the what-if has A/B repetitions
// (whatIf.repetitions), the prediction starts from the what-if arm's median
// and every stored span time is first scaled by its phase's A/B median over
// the stored run's phase time, so that it is checked against the
// repetitions, not against two single passes. None without ceilings or
// quantised modules.
std::optional<LatencyPrediction>
predictQuantisedLatency(const RunData& baseline, const RunData& whatIf,
                        const std::vector<QuantisedModule>& modules);

// The same replacement with T' = T · ratio(phase) (prefill's ratio for
// prefill, decode's for decode, 1 elsewhere; each module's own, measured on
// its layers' shapes), scaled by positions and put into the A/B conditions
// as above: a cost model from the kernels timed apart from the model (on
// weights out of cache, Int8Engine.h), checked against the run. None unless
// every module has its ratios.
std::optional<LatencyPrediction>
predictFromKernelRatios(const RunData& baseline, const RunData& whatIf,
                        const std::vector<QuantisedModule>& modules);

} // namespace mvp
