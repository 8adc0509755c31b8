#include "core/analysis/Comparison.h"

#include "core/analysis/HeadStats.h"
#include "core/analysis/PatchMetrics.h"

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
        n += t.modality == "visual";
    return n;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string padLeft(const std::string& s, size_t n) {
    return s.size() < n ? std::string(n - s.size(), ' ') + s : s;
}
// Energy per inference from both runs' RAPL metrics, or why there is none.
void setEnergy(Comparison& c, const RunData& base, const RunData& run) {
    const auto* a = findMetric(base, "energy.package_j");
    const auto* b = findMetric(run, "energy.package_j");
    if (a && b) {
        c.baseEnergyJ = a->value;
        c.runEnergyJ = b->value;
        c.energy = "energy " + fmt("%.3g", a->value) + " J vs " + fmt("%.3g", b->value) +
                   " J per inference (measured, RAPL package counter)";
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

Comparison compareRuns(const RunData& base, const RunData& run) {
    Comparison c;
    c.baseRun = base.run.id;
    c.run = run.run.id;
    c.transform = run.run.transform;
    c.baseWallNs = base.run.wallNs;
    c.runWallNs = run.run.wallNs;
    c.basePeakRss = base.run.peakRssBytes;
    c.runPeakRss = run.run.peakRssBytes;
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
            m.name.rfind("energy.", 0) != 0)
            c.details.push_back(m);
    c.modules = diffModules(base, run);
    std::map<std::string, PhaseComparison> phases;
    std::vector<std::string> order;
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

    const size_t steps = std::min(base.stepOutputs.size(), run.stepOutputs.size());
    c.fidelity = steps > 0;
    c.steps = int(steps);
    int agree = 0;
    bool diverged = false;
    int prefix = 0;
    for (size_t s = 0; s < steps; ++s) {
        const auto& a = base.stepOutputs[s];
        const auto& b = run.stepOutputs[s];
        const double kl = klDivergence(a.logits, b.logits);
        c.klMean += kl / double(steps);
        c.klMax = std::max(c.klMax, kl);
        if (a.token == b.token) ++agree;
        if (!diverged && a.token == b.token)
            ++prefix;
        else
            diverged = true;
    }
    if (steps > 0) {
        c.top1Agreement = double(agree) / double(steps);
        c.tokenMatch = double(prefix) / double(steps);
    }
    // Visual features of the patches both runs fed the decoder.
    if (base.visionFeatures && run.visionFeatures &&
        base.visionFeatures->cols == run.visionFeatures->cols) {
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
    return c;
}

std::string formatComparisonText(const Comparison& c) {
    auto ms = [](int64_t ns) { return fmt("%.2f", double(ns) / 1e6); };
    auto ratio = [](double a, double b) { return b > 0 ? fmt("%.2f×", a / b) : std::string("–"); };
    auto mib = [](const std::optional<double>& b) {
        return b ? fmt("%.2f", *b / double(1 << 20)) : std::string("n/a");
    };
    std::string o = "What-if run " + std::to_string(c.run) + " (" + c.transform +
                    ") vs baseline run " + std::to_string(c.baseRun) + "\n\n";
    o += "  setup        latency ms   peak RSS MiB     QPS   J/inference   weights MiB    KV MiB   "
         "visual tokens\n";
    std::string energyText;
    auto row = [&](const char* name, int64_t wall, int64_t rss, double qps,
                   const std::optional<double>& w, const std::optional<double>& kv, int visual) {
        return std::string("  ") + name + fmt("%12.2f", double(wall) / 1e6) +
               fmt("%15.1f", double(rss) / (1 << 20)) + fmt("%8.2f", qps) + energyText +
               padLeft(mib(w), 14) + padLeft(mib(kv), 10) + fmt("%16.0f", visual) + "\n";
    };
    energyText = c.baseEnergyJ ? fmt("%14.3g", *c.baseEnergyJ) : "           n/a";
    o += row("baseline   ", c.baseWallNs, c.basePeakRss, c.baseQps, c.baseWeightBytes,
             c.baseKvBytes, c.baseVisualTokens);
    energyText = c.runEnergyJ ? fmt("%14.3g", *c.runEnergyJ) : "           n/a";
    o += row("what-if    ", c.runWallNs, c.runPeakRss, c.runQps, c.runWeightBytes, c.runKvBytes,
             c.runVisualTokens);
    if (c.predictedWallNs)
        o += "  what-if      " + fmt("%10.2f", *c.predictedWallNs / 1e6) +
             "  ← predicted latency (" + fmt("%+.0f%%", 100 * c.predictionError()) +
             " vs measured; " + c.predictionNote + ")\n";
    o += "  (measured unless marked predicted; QPS derived, 1/latency; speed-up " +
         ratio(double(c.baseWallNs), double(c.runWallNs)) + "; " + c.energy + ")\n\n";
    o += "  phase            baseline ms   what-if ms   speed-up (measured)\n";
    for (const auto& p : c.phases)
        o += "  " + p.phase + std::string(p.phase.size() < 15 ? 15 - p.phase.size() : 1, ' ') +
             padLeft(ms(p.baseNs), 12) + padLeft(ms(p.runNs), 13) + "   " +
             ratio(double(p.baseNs), double(p.runNs)) + "\n";
    if (c.fidelity)
        o += "\n  fidelity over " + std::to_string(c.steps) + " steps (measured): KL mean " +
             fmt("%.4g", c.klMean) + ", max " + fmt("%.4g", c.klMax) + "; top-1 agreement " +
             fmt("%.0f%%", 100 * c.top1Agreement) +
             "; tokens matching before the first divergence " + fmt("%.0f%%", 100 * c.tokenMatch) +
             "; vision feature cosine " + fmt("%.4f", c.visionCosine) + "\n";
    else
        o += "\n  fidelity: n/a (a run has no stored step outputs)\n";
    if (!c.details.empty()) {
        o += "\n  what the transforms did:\n";
        for (const auto& m : c.details)
            o += "    " + m.name + std::string(m.name.size() < 34 ? 34 - m.name.size() : 1, ' ') +
                 fmt("%.6g", m.value) +
                 (m.unit.empty() || m.unit == "count" || m.unit == "ratio" ? std::string()
                                                                           : " " + m.unit) +
                 "  (" + m.kind + ": " + m.note + ")\n";
    }
    if (!c.modules.empty())
        o += "\n  modules, A = baseline, B = what-if:\n" + formatModuleDiffText(c.modules, 12);
    return o;
}

std::string formatComparisonJson(const Comparison& c) {
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& p : c.phases)
        phases.push_back({{"phase", p.phase},
                          {"baseline_ms_measured", double(p.baseNs) / 1e6},
                          {"whatif_ms_measured", double(p.runNs) / 1e6}});
    const nlohmann::json j{
        {"baseline_run", c.baseRun},
        {"run", c.run},
        {"transform", c.transform},
        {"latency_ms_measured",
         {{"baseline", double(c.baseWallNs) / 1e6}, {"whatif", double(c.runWallNs) / 1e6}}},
        {"peak_rss_bytes_measured", {{"baseline", c.basePeakRss}, {"whatif", c.runPeakRss}}},
        {"qps_derived", {{"baseline", c.baseQps}, {"whatif", c.runQps}}},
        {"energy_j_per_inference_measured",
         c.baseEnergyJ && c.runEnergyJ
             ? nlohmann::json{{"baseline", *c.baseEnergyJ}, {"whatif", *c.runEnergyJ}}
             : nlohmann::json(c.energy)},
        {"visual_tokens", {{"baseline", c.baseVisualTokens}, {"whatif", c.runVisualTokens}}},
        {"phases", phases},
        {"fidelity_measured", c.fidelity ? nlohmann::json{{"steps", c.steps},
                                                          {"kl_mean", c.klMean},
                                                          {"kl_max", c.klMax},
                                                          {"top1_agreement", c.top1Agreement},
                                                          {"token_match", c.tokenMatch},
                                                          {"vision_cosine", c.visionCosine}}
                                         : nlohmann::json("n/a")}};
    auto optional = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json("n/a");
    };
    nlohmann::json out = j;
    out["weight_bytes_measured"] = {{"baseline", optional(c.baseWeightBytes)},
                                    {"whatif", optional(c.runWeightBytes)}};
    out["kv_bytes_measured"] = {{"baseline", optional(c.baseKvBytes)},
                                {"whatif", optional(c.runKvBytes)}};
    if (c.predictedWallNs)
        out["latency_ms_predicted"] = {{"whatif", *c.predictedWallNs / 1e6},
                                       {"prediction_error", c.predictionError()},
                                       {"note", c.predictionNote}};
    nlohmann::json details = nlohmann::json::object();
    for (const auto& m : c.details)
        details[m.name] = {
            {"value", m.value}, {"unit", m.unit}, {"kind", m.kind}, {"note", m.note}};
    out["transform_details"] = details;
    nlohmann::json modules = nlohmann::json::array();
    for (const auto& r : c.modules)
        modules.push_back({{"path", r.path},
                           {"kind", r.kind},
                           {"baseline_ms", double(r.aNs) / 1e6},
                           {"whatif_ms", double(r.bNs) / 1e6},
                           {"delta_ms", double(r.deltaNs()) / 1e6},
                           {"delta_self_ms", double(r.bSelfNs - r.aSelfNs) / 1e6},
                           {"delta_flops", r.flopsComparable() ? nlohmann::json(r.deltaFlops())
                                                               : nlohmann::json(nullptr)},
                           {"delta_bytes", r.deltaBytes()},
                           {"ratio", r.ratio()}});
    out["module_diff"] = modules;
    return out.dump(2);
}

} // namespace mvp
