#pragma once
// A what-if against its baseline (docs/diagnostics.md §9): latency total and per
// phase, peak memory, throughput and fidelity, every figure labelled.

#include "core/analysis/Analysis.h"
#include "core/analysis/Kv.h"
#include "core/compare/AbTimings.h"
#include "core/compare/ModuleDiff.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct PhaseComparison {
    Phase phase = Phase::None;
    int64_t baseNs = 0, runNs = 0; // measured, one stored run each
};

// The LLM prefill's FLOPs, estimated from op shapes, where both runs have
// them; with the cost formula's ratio where the what-if's method has one
// (FastV's C(n), predicted: capture/whatif/TokenDrop.h).
struct PrefillFlops {
    double base = 0, run = 0;
    double ratio() const { return base > 0 ? run / base : 0; }
    std::optional<double> formulaRatio;
    std::string formulaNote;
};

enum class EnergyCounter { None, Gpu, CpuPackage };

struct Comparison {
    int64_t baseRun = 0, run = 0;
    std::string transform;
    int64_t baseWallNs = 0, runWallNs = 0;   // measured
    std::vector<PhaseComparison> phases;     // measured
    int64_t basePeakRss = 0, runPeakRss = 0; // measured (process peak RSS)
    // On a GPU whose allocator both runs read: the memory each configuration
    // needs there (derived, SampleMemory.h gpuPeakBytes: weights + what its
    // tensors grew by), else absent and gpuMemory says why.
    std::optional<double> basePeakGpuBytes, runPeakGpuBytes;
    std::string gpuMemory;
    double baseQps = 0, runQps = 0;                // 1 / wall time at batch 1 (derived)
    int baseVisualTokens = 0, runVisualTokens = 0; // what the decoder saw
    // Fidelity (measured): over the steps both runs produced.
    bool fidelity = false; // both runs stored their step outputs
    int steps = 0;
    double klMean = 0, klMax = 0; // KL(baseline ‖ what-if) of the next-token distributions
    double top1Agreement = 0;     // share of steps whose greedy token agrees
    double tokenMatch = 0;        // share of the generated tokens before the first divergence
    double visionCosine = 0;      // mean cosine of the visual features over the tokens both saw
    // Energy per inference (measured) where both runs have the same counter —
    // the GPU's (NVML) for GPU runs, else the CPU packages' (RAPL); else
    // `energy` says why not.
    std::optional<double> baseEnergyJ, runEnergyJ;
    EnergyCounter energyCounter = EnergyCounter::None;
    std::string energy = "n/a (no energy counter on this machine)";
    // Storage (measured, from tensor sizes); absent for runs that did not record it.
    std::optional<double> baseWeightBytes, runWeightBytes, baseKvBytes, runKvBytes;
    // The what-if's A/B repetitions, where it ran them: the latency figures to
    // trust (the stored runs above are one pass each, taken at different times).
    std::optional<AbTimings> ab;
    // The what-if's predicted latency, where a transform's gain cannot be
    // measured here, and its error against the measured latency: the what-if
    // arm's A/B median where there are repetitions, else the stored run.
    std::optional<double> predictedWallNs;
    std::string predictionNote;
    double predictionMeasuredNs() const { return ab ? ab->total.whatIf.median : double(runWallNs); }
    double predictionError() const { // (predicted − measured) / measured
        const double measured = predictionMeasuredNs();
        return predictedWallNs && measured > 0 ? (*predictedWallNs - measured) / measured : 0.0;
    }
    // Per decoder layer, how far the visual tokens moved (docs/diagnostics.md §7),
    // where the what-if changed them or the KV cache (measured).
    std::vector<LayerResampling> resampling;
    std::optional<PrefillFlops> prefillFlops;
    std::vector<RunMetricRow> details;  // the what-if's own run metrics (what its transforms found)
    std::vector<ModuleDiffRow> modules; // A = baseline, B = what-if
};

Comparison compareRuns(const RunData& baseline, const RunData& whatIf);

// How far one run's generated outputs moved from another's (measured), over
// the steps both produced: KL(baseline ‖ what-if) of each step's next-token
// distribution, the share of steps whose greedy token agrees, and the share
// before the first divergence.
struct OutputFidelity {
    int steps = 0;
    double klMean = 0, klMax = 0, top1Agreement = 0, tokenMatch = 0;
};
OutputFidelity outputFidelity(const std::vector<StepOutputRow>& baseline,
                              const std::vector<StepOutputRow>& whatIf);

// KL(p ‖ q) of softmax(a) and softmax(b), natural log.
double klDivergence(const std::vector<float>& logitsA, const std::vector<float>& logitsB);

} // namespace mvp
