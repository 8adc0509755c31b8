#include "core/compare/Prediction.h"

#include "core/compare/AbTimings.h"

#include <algorithm>
#include <map>

namespace mvp {

namespace {
struct Cost {
    int64_t ns = 0, flops = 0, bytes = 0, calls = 0;
};

// Per (module path, phase): time, FLOPs, bytes and calls of its spans.
std::map<std::pair<std::string, Phase>, Cost> costsByPhase(const RunData& run) {
    std::map<int64_t, std::string> path;
    for (const auto& m : run.modules)
        path[m.id] = m.path;
    std::map<std::pair<std::string, Phase>, Cost> out;
    for (const auto& s : run.spans) {
        auto& c = out[{path[s.module], s.phase}];
        c.ns += s.endNs - s.startNs;
        c.flops += s.flops;
        c.bytes += s.bytes;
        c.calls += 1;
    }
    return out;
}

// Factors that put a stored run's span times into the conditions of the
// interleaved A/B repetitions: per phase, the arm's median over the stored
// run's time of that phase (the stored runs are one probed pass each, taken
// minutes apart; a busy machine during one of them must not skew the
// prediction). Without repetitions every factor is 1 and the stored what-if
// wall is the starting point.
struct Conditions {
    std::map<Phase, double> base, whatIf;
    std::optional<double> whatIfWallNs; // the what-if arm's median total
    std::string note() const {
        return whatIfWallNs ? "; from the what-if's A/B median, stored span times scaled to the "
                              "repetitions' phase medians"
                            : "; from the stored what-if run";
    }
};

std::map<Phase, double> storedPhaseNs(const RunData& run) {
    std::map<Phase, double> ns;
    for (const auto& p : run.phases)
        ns[p.phase] += double(p.endNs - p.startNs);
    return ns;
}

Conditions abConditions(const RunData& base, const RunData& whatIf) {
    Conditions c;
    const auto ab = abTimings(whatIf.repetitions);
    if (!ab) return c;
    const auto storedBase = storedPhaseNs(base), storedWhatIf = storedPhaseNs(whatIf);
    auto factor = [](const std::map<Phase, double>& stored, Phase p, double median) {
        const auto it = stored.find(p);
        return it != stored.end() && it->second > 0 ? median / it->second : 1.0;
    };
    for (const auto& p : ab->phases) {
        if (!p.phase) continue;
        c.base[*p.phase] = factor(storedBase, *p.phase, p.baseline.median);
        c.whatIf[*p.phase] = factor(storedWhatIf, *p.phase, p.whatIf.median);
    }
    c.whatIfWallNs = ab->total.whatIf.median;
    return c;
}

double at(const std::map<Phase, double>& m, Phase p) {
    const auto it = m.find(p);
    return it != m.end() ? it->second : 1.0;
}

std::map<Phase, int> positionsByPhase(const RunData& run) {
    std::map<Phase, int> n;
    for (const auto& t : run.tokens)
        n[t.phase] += 1;
    return n;
}
// The what-if's wall time (its A/B median where it has repetitions) with each
// quantised module's measured time in each phase replaced by its baseline
// time × factor(module, phase, baseline cost), scaled by the what-if's
// positions in that phase over the baseline's, every stored time put into
// the repetitions' conditions first. A factor ≤ 0 leaves that module and
// phase as measured. The note says where the prediction started from.
template <typename Factor>
LatencyPrediction replacedWall(const RunData& base, const RunData& whatIf,
                               const std::vector<QuantisedModule>& modules, Factor factor) {
    const auto baseCosts = costsByPhase(base), runCosts = costsByPhase(whatIf);
    const auto basePositions = positionsByPhase(base), runPositions = positionsByPhase(whatIf);
    const Conditions conditions = abConditions(base, whatIf);
    double wall = conditions.whatIfWallNs.value_or(double(whatIf.run.wallNs));
    for (const auto& m : modules)
        for (const auto& [key, b] : baseCosts) {
            if (key.first != m.path || b.ns <= 0) continue;
            const Phase phase = key.second;
            const double f = factor(m, phase, b);
            if (f <= 0) continue;
            const auto bp = basePositions.find(phase), rp = runPositions.find(phase);
            const double scale =
                (bp != basePositions.end() && rp != runPositions.end() && bp->second > 0)
                    ? double(rp->second) / double(bp->second)
                    : 1.0;
            const auto measured = runCosts.find(key);
            wall += double(b.ns) * at(conditions.base, phase) * f * scale -
                    (measured != runCosts.end()
                         ? double(measured->second.ns) * at(conditions.whatIf, phase)
                         : 0.0);
        }
    return {int64_t(std::max(0.0, wall)), conditions.note()};
}
} // namespace

std::optional<LatencyPrediction>
predictQuantisedLatency(const RunData& base, const RunData& whatIf,
                        const std::vector<QuantisedModule>& modules) {
    if (!base.device || base.device->peakFlops <= 0 || base.device->peakBytesPerS <= 0 ||
        modules.empty() || whatIf.run.wallNs <= 0)
        return std::nullopt;
    const double peak = base.device->peakFlops, bw = base.device->peakBytesPerS;
    // The roofline ratio of bytes moved once the weights are the packed ones.
    auto roofline = [&](const QuantisedModule& m, Phase, const Cost& b) {
        const double weightSaving = double(b.calls) * double(m.fp32Bytes - m.quantBytes);
        const double bytesAfter = std::max(0.0, double(b.bytes) - weightSaving);
        const double before = std::max(double(b.flops) / peak, double(b.bytes) / bw);
        const double after = std::max(double(b.flops) / peak, bytesAfter / bw);
        return before > 0 ? after / before : 0.0;
    };
    LatencyPrediction p = replacedWall(base, whatIf, modules, roofline);
    p.note = "predicted for an int4/int8 kernel that reads the packed weights: the quantised "
             "modules' measured time (float32 kernels here) replaced by the baseline's, scaled "
             "by the roofline ratio of bytes moved" +
             p.note;
    return p;
}

std::optional<LatencyPrediction>
predictFromKernelRatios(const RunData& base, const RunData& whatIf,
                        const std::vector<QuantisedModule>& modules) {
    if (modules.empty() || whatIf.run.wallNs <= 0) return std::nullopt;
    for (const auto& m : modules)
        if (!m.kernelRatios) return std::nullopt;
    auto measuredKernels = [](const QuantisedModule& m, Phase phase, const Cost&) {
        return phase == Phase::Prefill  ? m.kernelRatios->prefill
               : phase == Phase::Decode ? m.kernelRatios->decode
                                        : 1.0;
    };
    LatencyPrediction p = replacedWall(base, whatIf, modules, measuredKernels);
    p.note = "the quantised modules' baseline time × their layers' int8 ÷ float32 kernel time, "
             "measured in passes over a copy of each layer's weights, out of cache as in the model "
             "(prefill's rows, one row)" +
             p.note;
    return p;
}

} // namespace mvp
