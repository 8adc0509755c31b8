#include "core/compare/Comparison.h"

#include "core/Format.h"
#include "core/analysis/HeadStats.h"
#include "core/analysis/PatchMetrics.h"
#include "core/analysis/SampleMemory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace mvp {

namespace {
std::vector<double> softmax(const std::vector<float>& l) {
    std::vector<double> p(l.size());
    if (l.empty()) return p;
    const double m = *std::max_element(l.begin(), l.end());
    double z = 0;
    for (size_t i = 0; i < l.size(); ++i)
        z += p[i] = std::exp(double(l[i]) - m);
    for (auto& x : p)
        x /= z;
    return p;
}

int visualTokens(const RunData& d) {
    int n = 0;
    for (const auto& t : d.tokens)
        n += t.modality == Modality::Visual;
    return n;
}

// Energy per inference: a GPU run's from its GPU's counter (NVML), else the
// CPU packages' (RAPL), where both runs have the same; or why there is none.
void setEnergy(Comparison& c, const RunData& base, const RunData& run) {
    struct Counter {
        const char *metric, *source;
        EnergyCounter kind;
    };
    for (const Counter& k :
         {Counter{"energy.gpu_j", "NVML GPU counter", EnergyCounter::Gpu},
          Counter{"energy.package_j", "RAPL package counter", EnergyCounter::CpuPackage}}) {
        const auto* a = findMetric(base, k.metric);
        const auto* b = findMetric(run, k.metric);
        if (!a || !b) continue;
        c.baseEnergyJ = a->value;
        c.runEnergyJ = b->value;
        c.energyCounter = k.kind;
        c.energy = "energy " + fmt("%.3g", a->value) + " J vs " + fmt("%.3g", b->value) +
                   " J per inference (measured, " + k.source + ")";
        return;
    }
    for (const RunData* d : {&run, &base})
        if (const auto* why = findMetric(*d, "energy.available"); why && !why->note.empty()) {
            c.energy = why->note;
            return;
        }
}

} // namespace

double klDivergence(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size() || a.empty()) return 0;
    const auto p = softmax(a), q = softmax(b);
    double kl = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (p[i] > 0) kl += p[i] * std::log(p[i] / std::max(q[i], 1e-300));
    return std::max(0.0, kl);
}

namespace {
// Each phase's stored time in both runs, in the order they first ran.
void comparePhases(Comparison& c, const RunData& base, const RunData& run) {
    std::map<Phase, PhaseComparison> phases;
    std::vector<Phase> order;
    auto add = [&](const std::vector<PhaseRow>& rows, bool isBase) {
        for (const auto& p : rows) {
            if (!phases.count(p.phase)) order.push_back(p.phase);
            auto& pc = phases[p.phase];
            pc.phase = p.phase;
            (isBase ? pc.baseNs : pc.runNs) += p.endNs - p.startNs;
        }
    };
    add(base.phases, true);
    add(run.phases, false);
    for (const auto& name : order)
        c.phases.push_back(phases[name]);
}

double prefillFlopsOf(const RunData& d) {
    double f = 0;
    for (const auto& t : d.opTotals)
        if (t.phase == Phase::Prefill) f += double(t.flops);
    return f;
}

void comparePrefillFlops(Comparison& c, const RunData& base, const RunData& run) {
    PrefillFlops p{prefillFlopsOf(base), prefillFlopsOf(run), std::nullopt, {}};
    if (p.base <= 0 || p.run <= 0) return;
    if (const auto* m = findMetric(run, "flops.fastv_formula_ratio")) {
        p.formulaRatio = m->value;
        p.formulaNote = m->note;
    }
    c.prefillFlops = p;
}

void compareOutputs(Comparison& c, const RunData& base, const RunData& run) {
    const OutputFidelity f = outputFidelity(base.stepOutputs, run.stepOutputs);
    c.fidelity = f.steps > 0;
    c.steps = f.steps;
    c.klMean = f.klMean;
    c.klMax = f.klMax;
    c.top1Agreement = f.top1Agreement;
    c.tokenMatch = f.tokenMatch;
}

// Mean cosine of the visual features of the patches both runs fed the decoder.
void compareVisionFeatures(Comparison& c, const RunData& base, const RunData& run) {
    if (!base.visionFeatures || !run.visionFeatures ||
        base.visionFeatures->cols != run.visionFeatures->cols)
        return;
    {
        const int cols = base.visionFeatures->cols;
        std::map<int, int> baseRow, runRow; // patch → feature row
        int i = 0;
        for (const auto& [pos, patch] : patchOfPosition(base))
            baseRow[patch] = i++;
        i = 0;
        for (const auto& [pos, patch] : patchOfPosition(run))
            runRow[patch] = i++;
        double sum = 0;
        int n = 0;
        for (const auto& [patch, r] : runRow) {
            const auto b = baseRow.find(patch);
            if (b == baseRow.end() || r >= run.visionFeatures->rows ||
                b->second >= base.visionFeatures->rows)
                continue;
            const auto row = [cols](const VisionFeatureRow& v, int k) {
                return std::vector<float>(v.data.begin() + long(k) * cols,
                                          v.data.begin() + long(k + 1) * cols);
            };
            sum += cosine(row(*base.visionFeatures, b->second), row(*run.visionFeatures, r));
            ++n;
        }
        c.visionCosine = n > 0 ? sum / n : 0;
    }
}
// A configuration's GPU memory where both runs read the allocator; else
// why not (a run on the CPU is not an error: the note stays empty).
void setGpuMemory(Comparison& c, const RunData& base, const RunData& run) {
    c.basePeakGpuBytes = gpuPeakBytes(base);
    c.runPeakGpuBytes = gpuPeakBytes(run);
    if (c.basePeakGpuBytes && c.runPeakGpuBytes) return;
    for (const RunData* d : {&base, &run})
        if (const auto* why = findMetric(*d, "gpu.memory_available"); why && c.gpuMemory.empty())
            c.gpuMemory = why->note;
    if (c.gpuMemory.empty() && (c.basePeakGpuBytes || c.runPeakGpuBytes))
        c.gpuMemory = "n/a: one of the runs did not read its GPU's allocator";
    c.basePeakGpuBytes.reset();
    c.runPeakGpuBytes.reset();
}
} // namespace

OutputFidelity outputFidelity(const std::vector<StepOutputRow>& baseline,
                              const std::vector<StepOutputRow>& whatIf) {
    OutputFidelity f;
    const size_t steps = std::min(baseline.size(), whatIf.size());
    f.steps = int(steps);
    int agree = 0, prefix = 0;
    bool diverged = false;
    for (size_t s = 0; s < steps; ++s) {
        const auto& a = baseline[s];
        const auto& b = whatIf[s];
        const double kl = klDivergence(a.logits, b.logits);
        f.klMean += kl / double(steps);
        f.klMax = std::max(f.klMax, kl);
        agree += a.token == b.token;
        diverged = diverged || a.token != b.token;
        prefix += !diverged;
    }
    if (steps > 0) {
        f.top1Agreement = double(agree) / double(steps);
        f.tokenMatch = double(prefix) / double(steps);
    }
    return f;
}

Comparison compareRuns(const RunData& base, const RunData& run) {
    Comparison c;
    c.baseRun = base.run.id;
    c.run = run.run.id;
    c.transform = run.run.transform;
    c.baseWallNs = base.run.wallNs;
    c.runWallNs = run.run.wallNs;
    c.basePeakRss = base.run.peakRssBytes;
    c.runPeakRss = run.run.peakRssBytes;
    setGpuMemory(c, base, run);
    c.baseQps = c.baseWallNs > 0 ? 1e9 / double(c.baseWallNs) : 0;
    c.runQps = c.runWallNs > 0 ? 1e9 / double(c.runWallNs) : 0;
    c.baseVisualTokens = visualTokens(base);
    c.runVisualTokens = visualTokens(run);
    auto value = [](const RunData& d, const char* name) -> std::optional<double> {
        if (const auto* m = findMetric(d, name)) return m->value;
        return std::nullopt;
    };
    c.baseWeightBytes = value(base, "weights.bytes");
    c.runWeightBytes = value(run, "weights.bytes");
    c.baseKvBytes = value(base, "kv.bytes");
    c.runKvBytes = value(run, "kv.bytes");
    if (const auto* p = findMetric(run, "latency.predicted_ns"); p && p->kind == "predicted") {
        c.predictedWallNs = p->value;
        c.predictionNote = p->note;
    }
    setEnergy(c, base, run);
    for (const auto& m : run.runMetrics)
        if (m.name != "weights.bytes" && m.name != "kv.bytes" && m.name != "latency.predicted_ns" &&
            m.name != "flops.fastv_formula_ratio" && m.name.rfind("energy.", 0) != 0 &&
            m.name.rfind("gpu.memory_", 0) != 0 && m.name.rfind("gpu.peak_", 0) != 0 &&
            m.name.rfind("resample.", 0) != 0)
            c.details.push_back(m);
    c.resampling = resamplingFromMetrics(run.runMetrics);
    c.modules = diffModules(base, run);
    c.ab = abTimings(run.repetitions);
    comparePhases(c, base, run);
    comparePrefillFlops(c, base, run);
    compareOutputs(c, base, run);
    compareVisionFeatures(c, base, run);
    return c;
}

} // namespace mvp
