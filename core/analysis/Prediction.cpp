#include "core/analysis/Prediction.h"

#include <algorithm>
#include <map>

namespace mvp {

namespace {
struct Cost {
    int64_t ns = 0, flops = 0, bytes = 0, calls = 0;
};

// Per (module path, phase): time, FLOPs, bytes and calls of its spans.
std::map<std::pair<std::string, std::string>, Cost> costsByPhase(const RunData& run) {
    std::map<int64_t, std::string> path;
    for (const auto& m : run.modules)
        path[m.id] = m.path;
    std::map<std::pair<std::string, std::string>, Cost> out;
    for (const auto& s : run.spans) {
        auto& c = out[{path[s.module], s.phase}];
        c.ns += s.endNs - s.startNs;
        c.flops += s.flops;
        c.bytes += s.bytes;
        c.calls += 1;
    }
    return out;
}

std::map<std::string, int> positionsByPhase(const RunData& run) {
    std::map<std::string, int> n;
    for (const auto& t : run.tokens)
        n[t.phase] += 1;
    return n;
}
} // namespace

std::optional<LatencyPrediction>
predictQuantisedLatency(const RunData& base, const RunData& whatIf,
                        const std::vector<QuantisedModule>& modules) {
    if (!base.device || base.device->peakFlops <= 0 || base.device->peakBytesPerS <= 0 ||
        modules.empty() || whatIf.run.wallNs <= 0)
        return std::nullopt;
    const double peak = base.device->peakFlops, bw = base.device->peakBytesPerS;
    const auto baseCosts = costsByPhase(base), runCosts = costsByPhase(whatIf);
    const auto basePositions = positionsByPhase(base), runPositions = positionsByPhase(whatIf);
    double wall = double(whatIf.run.wallNs);
    for (const auto& m : modules) {
        for (const auto& [key, b] : baseCosts) {
            if (key.first != m.path || b.ns <= 0) continue;
            const std::string& phase = key.second;
            const double weightSaving = double(b.calls) * double(m.fp32Bytes - m.quantBytes);
            const double bytesAfter = std::max(0.0, double(b.bytes) - weightSaving);
            const double before = std::max(double(b.flops) / peak, double(b.bytes) / bw);
            const double after = std::max(double(b.flops) / peak, bytesAfter / bw);
            if (before <= 0) continue;
            const auto bp = basePositions.find(phase), rp = runPositions.find(phase);
            const double scale =
                (bp != basePositions.end() && rp != runPositions.end() && bp->second > 0)
                    ? double(rp->second) / double(bp->second)
                    : 1.0;
            const double predicted = double(b.ns) * (after / before) * scale;
            const auto measured = runCosts.find(key);
            wall += predicted - (measured != runCosts.end() ? double(measured->second.ns) : 0.0);
        }
    }
    LatencyPrediction p;
    p.wallNs = int64_t(std::max(0.0, wall));
    p.note = "predicted for an int4/int8 kernel that reads the packed weights: the quantised "
             "modules' measured time (float32 kernels here) replaced by the baseline's, scaled "
             "by the roofline ratio of bytes moved";
    return p;
}

std::optional<LatencyPrediction>
predictFromKernelRatios(const RunData& base, const RunData& whatIf,
                        const std::vector<QuantisedModule>& modules) {
    if (modules.empty() || whatIf.run.wallNs <= 0) return std::nullopt;
    for (const auto& m : modules)
        if (!m.kernelRatios) return std::nullopt;
    const auto baseCosts = costsByPhase(base), runCosts = costsByPhase(whatIf);
    const auto basePositions = positionsByPhase(base), runPositions = positionsByPhase(whatIf);
    double wall = double(whatIf.run.wallNs);
    for (const auto& m : modules)
        for (const auto& [key, b] : baseCosts) {
            if (key.first != m.path || b.ns <= 0) continue;
            const std::string& phase = key.second;
            const double ratio = phase == "prefill"  ? m.kernelRatios->prefill
                                 : phase == "decode" ? m.kernelRatios->decode
                                                     : 1.0;
            const auto bp = basePositions.find(phase), rp = runPositions.find(phase);
            const double scale =
                (bp != basePositions.end() && rp != runPositions.end() && bp->second > 0)
                    ? double(rp->second) / double(bp->second)
                    : 1.0;
            const auto measured = runCosts.find(key);
            wall += double(b.ns) * ratio * scale -
                    (measured != runCosts.end() ? double(measured->second.ns) : 0.0);
        }
    LatencyPrediction p;
    p.wallNs = int64_t(std::max(0.0, wall));
    p.note = "the quantised modules' baseline time × their layers' int8 ÷ float32 kernel time, "
             "measured on each layer shape in isolation (prefill's rows, one row)";
    return p;
}

} // namespace mvp
