// The comparison as text and JSON (docs/diagnostics.md §9). Where the what-if ran
// A/B repetitions, latency is shown as medians with intervals and the
// speed-up as a paired ratio, "within noise" when its interval holds 1.0.
#include "core/report/ComparisonText.h"

#include "core/Format.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp {

namespace {
std::string padLeft(const std::string& s, size_t n) {
    return s.size() < n ? std::string(n - s.size(), ' ') + s : s;
}
std::string padRight(const std::string& s, size_t n) {
    return s.size() < n ? s + std::string(n - s.size(), ' ') : s + " ";
}
std::string ratio(double a, double b) {
    return b > 0 ? fmt("%.2f×", a / b) : std::string("–");
}

std::string msInterval(const Interval& i) {
    return fmt("%.2f", i.median / 1e6) + " [" + fmt("%.2f", i.low / 1e6) + ", " +
           fmt("%.2f", i.high / 1e6) + "]";
}
std::string speedupText(const AbPhase& p) {
    return fmt("%.2f×", p.speedup.median) + " [" + fmt("%.2f", p.speedup.low) + ", " +
           fmt("%.2f", p.speedup.high) + "]" + (p.withinNoise() ? "  within noise" : "") +
           (p.control ? "  (noise control)" : "");
}

std::string unsteadyWarning(const AbTimings& ab) {
    std::string names;
    for (size_t i = 0; i < ab.unsteady.size(); ++i)
        names += (i ? ", " : "") + phaseName(ab.unsteady[i]);
    return "warning: " + names + (ab.unsteady.size() == 1 ? " is" : " are") +
           " untouched by these transforms, yet " + (ab.unsteady.size() == 1 ? "its" : "their") +
           " speed-up interval excludes 1.0: the machine was unsteady during the repetitions "
           "(other load, frequency changes). Re-run on a quieter machine or with more --reps.";
}

std::string abText(const AbTimings& ab) {
    std::string o = "  A/B repetitions (measured): " + std::to_string(ab.reps) +
                    " passes of each setup, interleaved in one process after warm-up, "
                    "without probes; median [" +
                    fmt("%.0f%%", 100 * ab.total.speedup.coverage) +
                    " interval, order statistics]; speed-up = baseline / what-if per pair\n";
    o += "  phase          baseline ms               what-if ms                speed-up\n";
    auto line = [&](const AbPhase& p) {
        o += "  " + padRight(p.name(), 15) + padRight(msInterval(p.baseline), 26) +
             padRight(msInterval(p.whatIf), 26) + speedupText(p) + "\n";
    };
    for (const auto& p : ab.phases)
        line(p);
    line(ab.total);
    if (!ab.unsteady.empty()) o += "  " + unsteadyWarning(ab) + "\n";
    return o;
}

std::string storedPhasesText(const Comparison& c) {
    std::string o =
        "  phase            baseline ms   what-if ms   speed-up (measured, one run each: "
        "no interval; re-run the what-if with --reps)\n";
    for (const auto& p : c.phases)
        o += "  " + padRight(phaseName(p.phase), 15) +
             padLeft(fmt("%.2f", double(p.baseNs) / 1e6), 12) +
             padLeft(fmt("%.2f", double(p.runNs) / 1e6), 13) + "   " +
             ratio(double(p.baseNs), double(p.runNs)) + "\n";
    return o;
}

std::string setupText(const Comparison& c) {
    auto mib = [](const std::optional<double>& b) {
        return b ? fmt("%.2f", *b / double(1 << 20)) : std::string("n/a");
    };
    std::string o = "  setup        latency ms   peak RSS MiB     QPS   J/inference   weights MiB  "
                    "  KV MiB   visual tokens\n";
    auto row = [&](const char* name, int64_t wall, int64_t rss, double qps,
                   const std::optional<double>& energy, const std::optional<double>& w,
                   const std::optional<double>& kv, int visual) {
        return std::string("  ") + name + fmt("%12.2f", double(wall) / 1e6) +
               fmt("%15.1f", double(rss) / (1 << 20)) + fmt("%8.2f", qps) +
               (energy ? fmt("%14.3g", *energy) : "           n/a") + padLeft(mib(w), 14) +
               padLeft(mib(kv), 10) + fmt("%16.0f", visual) + "\n";
    };
    o += row("baseline   ", c.baseWallNs, c.basePeakRss, c.baseQps, c.baseEnergyJ,
             c.baseWeightBytes, c.baseKvBytes, c.baseVisualTokens);
    o += row("what-if    ", c.runWallNs, c.runPeakRss, c.runQps, c.runEnergyJ, c.runWeightBytes,
             c.runKvBytes, c.runVisualTokens);
    if (c.basePeakGpuBytes && c.runPeakGpuBytes)
        o += "  peak GPU memory: baseline " + mib(c.basePeakGpuBytes) + " MiB, what-if " +
             mib(c.runPeakGpuBytes) +
             " MiB (derived: weights + what the run's tensors grew by, libtorch's allocator)\n";
    else if (!c.gpuMemory.empty())
        o += "  peak GPU memory: " + c.gpuMemory + "\n";
    if (c.predictedWallNs)
        o += "  what-if      " + fmt("%10.2f", *c.predictedWallNs / 1e6) +
             "  ← predicted latency (" + fmt("%+.0f%%", 100 * c.predictionError()) +
             (c.ab ? " vs the what-if's A/B median; " : " vs the stored run; ") + c.predictionNote +
             ")\n";
    const std::string speedup =
        c.ab
            ? "A/B speed-up " + speedupText(c.ab->total)
            : "speed-up " + ratio(double(c.baseWallNs), double(c.runWallNs)) + " from one run each";
    o += "  (the stored runs, probed, one pass each; measured unless marked predicted; QPS "
         "derived, 1/latency; " +
         speedup + "; " + c.energy + ")\n\n";
    return o;
}

std::string fidelityText(const Comparison& c) {
    if (!c.fidelity) return "\n  fidelity: n/a (a run has no stored step outputs)\n";
    return "\n  fidelity over " + std::to_string(c.steps) + " steps (measured): KL mean " +
           fmt("%.4g", c.klMean) + ", max " + fmt("%.4g", c.klMax) + "; top-1 agreement " +
           fmt("%.0f%%", 100 * c.top1Agreement) + "; tokens matching before the first divergence " +
           fmt("%.0f%%", 100 * c.tokenMatch) + "; vision feature cosine " +
           fmt("%.4f", c.visionCosine) + "\n";
}

std::string prefillFlopsText(const Comparison& c) {
    if (!c.prefillFlops) return {};
    const PrefillFlops& f = *c.prefillFlops;
    std::string o = "\n  LLM prefill FLOPs (estimated from op shapes): baseline " +
                    fmt("%.4g", f.base / 1e9) + " G, what-if " + fmt("%.4g", f.run / 1e9) +
                    " G, ratio " + fmt("%.4f", f.ratio()) + "\n";
    if (f.formulaRatio)
        o += "    FastV's formula predicts " + fmt("%.4f", *f.formulaRatio) +
             " (predicted: " + f.formulaNote + ")\n";
    return o;
}

nlohmann::json prefillFlopsJson(const PrefillFlops& f) {
    nlohmann::json j{{"baseline", f.base}, {"whatif", f.run}, {"ratio", f.ratio()}};
    if (f.formulaRatio)
        j["fastv_formula_ratio_predicted"] = {{"value", *f.formulaRatio}, {"note", f.formulaNote}};
    return j;
}

std::string detailsText(const Comparison& c) {
    if (c.details.empty()) return {};
    std::string o = "\n  what the transforms did:\n";
    for (const auto& m : c.details)
        o += "    " + padRight(m.name, 34) + fmt("%.6g", m.value) +
             (m.unit.empty() || m.unit == "count" || m.unit == "ratio" ? std::string()
                                                                       : " " + m.unit) +
             "  (" + m.kind + ": " + m.note + ")\n";
    return o;
}

std::string resamplingText(const Comparison& c) {
    if (c.resampling.empty()) return {};
    std::string o =
        "\n  resampling loss of the visual tokens (measured; v the value vectors attention "
        "reads, p the decode steps' attention over the patches both runs hold):\n"
        "  layer    Δcos mean     p95   L2 drift mean     p95    ΔKL mean      p95   "
        "attention lost\n";
    for (const auto& r : c.resampling)
        o += "  " + padRight("L" + std::to_string(r.layer), 7) +
             fmt("%11.4g", r.loss.deltaCos.mean) + fmt("%8.3g", r.loss.deltaCos.p95) +
             fmt("%16.4g", r.loss.relL2.mean) + fmt("%8.3g", r.loss.relL2.p95) +
             fmt("%12.4g", r.loss.deltaKl.mean) + fmt("%9.3g", r.loss.deltaKl.p95) +
             fmt("%16.1f%%", 100 * r.lostMass) + "\n";
    return o;
}

nlohmann::json resamplingJson(const Comparison& c) {
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& r : c.resampling)
        layers.push_back({{"layer", r.layer},
                          {"dcos", {{"mean", r.loss.deltaCos.mean}, {"p95", r.loss.deltaCos.p95}}},
                          {"l2_drift", {{"mean", r.loss.relL2.mean}, {"p95", r.loss.relL2.p95}}},
                          {"kl", {{"mean", r.loss.deltaKl.mean}, {"p95", r.loss.deltaKl.p95}}},
                          {"attention_lost", r.lostMass}});
    return layers;
}

// {"median", "ci95": [low, high], "reps", "coverage"} in milliseconds.
nlohmann::json msJson(const Interval& i) {
    return {{"median", i.median / 1e6},
            {"ci95", {i.low / 1e6, i.high / 1e6}},
            {"reps", i.n},
            {"coverage", i.coverage}};
}
nlohmann::json singleMsJson(int64_t ns) {
    return {{"median", double(ns) / 1e6}, {"ci95", nullptr}, {"reps", 1}, {"coverage", nullptr}};
}
nlohmann::json abPhaseJson(const AbPhase& p) {
    return {{"phase", p.name()},
            {"baseline", msJson(p.baseline)},
            {"whatif", msJson(p.whatIf)},
            {"speedup",
             {{"median", p.speedup.median},
              {"ci95", {p.speedup.low, p.speedup.high}},
              {"coverage", p.speedup.coverage}}},
            {"within_noise", p.withinNoise()},
            {"noise_control", p.control}};
}
// One run each: the figures without intervals, and no verdict on noise.
nlohmann::json storedPhaseJson(const std::string& phase, int64_t a, int64_t b) {
    return {{"phase", phase},
            {"baseline", singleMsJson(a)},
            {"whatif", singleMsJson(b)},
            {"speedup",
             {{"median", b > 0 ? double(a) / double(b) : 0.0},
              {"ci95", nullptr},
              {"coverage", nullptr}}},
            {"within_noise", nullptr},
            {"noise_control", nullptr}};
}

void addTimings(nlohmann::json& out, const Comparison& c) {
    nlohmann::json phases = nlohmann::json::array();
    out["time_unit"] = "ms";
    if (c.ab) {
        for (const auto& p : c.ab->phases)
            phases.push_back(abPhaseJson(p));
        out["total"] = abPhaseJson(c.ab->total);
        out["timing_method"] = "A/B: " + std::to_string(c.ab->reps) +
                               " interleaved unprobed passes of each setup in one process after "
                               "warm-up; medians with order-statistic intervals (exact coverage "
                               "given); speed-up = median of per-pair baseline / what-if";
        out["machine_steady"] = c.ab->unsteady.empty();
        if (!c.ab->unsteady.empty()) out["warning"] = unsteadyWarning(*c.ab);
    } else {
        for (const auto& p : c.phases)
            phases.push_back(storedPhaseJson(phaseName(p.phase), p.baseNs, p.runNs));
        out["total"] = storedPhaseJson("total", c.baseWallNs, c.runWallNs);
        out["timing_method"] = "one stored run each (no repetitions): no interval";
        out["machine_steady"] = nullptr;
    }
    out["phases"] = phases;
}

nlohmann::json modulesJson(const Comparison& c) {
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
    return modules;
}
} // namespace

std::string formatComparisonText(const Comparison& c) {
    std::string o = "What-if run " + std::to_string(c.run) + " (" + c.transform +
                    ") vs baseline run " + std::to_string(c.baseRun) + "\n\n";
    o += setupText(c);
    o += c.ab ? abText(*c.ab) : storedPhasesText(c);
    o += fidelityText(c);
    o += resamplingText(c);
    o += prefillFlopsText(c);
    o += detailsText(c);
    if (!c.modules.empty())
        o += "\n  modules, A = baseline, B = what-if (the stored runs):\n" +
             formatModuleDiffText(c.modules, 12);
    return o;
}

std::string formatComparisonJson(const Comparison& c) {
    auto optional = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json("n/a");
    };
    nlohmann::json out{
        {"baseline_run", c.baseRun},
        {"run", c.run},
        {"transform", c.transform},
        {"latency_ms_measured",
         {{"baseline", double(c.baseWallNs) / 1e6},
          {"whatif", double(c.runWallNs) / 1e6},
          {"note", "the stored runs, probed, one pass each"}}},
        {"peak_rss_bytes_measured", {{"baseline", c.basePeakRss}, {"whatif", c.runPeakRss}}},
        {"qps_derived", {{"baseline", c.baseQps}, {"whatif", c.runQps}}},
        {"energy_j_per_inference_measured",
         c.baseEnergyJ && c.runEnergyJ
             ? nlohmann::json{{"baseline", *c.baseEnergyJ},
                              {"whatif", *c.runEnergyJ},
                              {"counter",
                               c.energyCounter == EnergyCounter::Gpu ? "gpu" : "cpu_package"}}
             : nlohmann::json(c.energy)},
        {"visual_tokens", {{"baseline", c.baseVisualTokens}, {"whatif", c.runVisualTokens}}},
        {"fidelity_measured", c.fidelity ? nlohmann::json{{"steps", c.steps},
                                                          {"kl_mean", c.klMean},
                                                          {"kl_max", c.klMax},
                                                          {"top1_agreement", c.top1Agreement},
                                                          {"token_match", c.tokenMatch},
                                                          {"vision_cosine", c.visionCosine}}
                                         : nlohmann::json("n/a")}};
    addTimings(out, c);
    out["weight_bytes_measured"] = {{"baseline", optional(c.baseWeightBytes)},
                                    {"whatif", optional(c.runWeightBytes)}};
    out["kv_bytes_measured"] = {{"baseline", optional(c.baseKvBytes)},
                                {"whatif", optional(c.runKvBytes)}};
    if (c.basePeakGpuBytes && c.runPeakGpuBytes)
        out["peak_gpu_bytes_derived"] = {
            {"baseline", *c.basePeakGpuBytes},
            {"whatif", *c.runPeakGpuBytes},
            {"note", "weights + the most the run's tensors grew by (libtorch's allocator)"}};
    else if (!c.gpuMemory.empty())
        out["peak_gpu_bytes_derived"] = c.gpuMemory;
    if (c.predictedWallNs)
        out["latency_ms_predicted"] = {{"whatif", *c.predictedWallNs / 1e6},
                                       {"prediction_error", c.predictionError()},
                                       {"measured_ms", c.predictionMeasuredNs() / 1e6},
                                       {"measured_from", c.ab ? "ab_median" : "stored_run"},
                                       {"note", c.predictionNote}};
    nlohmann::json details = nlohmann::json::object();
    for (const auto& m : c.details)
        details[m.name] = {
            {"value", m.value}, {"unit", m.unit}, {"kind", m.kind}, {"note", m.note}};
    out["transform_details"] = details;
    if (!c.resampling.empty()) out["resampling_loss_measured"] = resamplingJson(c);
    if (c.prefillFlops) out["prefill_flops_estimated"] = prefillFlopsJson(*c.prefillFlops);
    out["module_diff"] = modulesJson(c);
    return out.dump(2, ' ', false,
                    nlohmann::json::error_handler_t::replace); // names need not be UTF-8
}

} // namespace mvp
