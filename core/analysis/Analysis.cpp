#include "core/analysis/Analysis.h"

#include "core/analysis/Findings.h"
#include "core/analysis/PatchMetrics.h"
#include "core/analysis/SampleMemory.h"
#include "core/session/ModuleRoles.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace mvp {

const char* toString(Severity s) {
    switch (s) {
    case Severity::Critical:
        return "critical";
    case Severity::Warning:
        return "warning";
    case Severity::Info:
        break;
    }
    return "info";
}

const char* toString(FindingView v) {
    switch (v) {
    case FindingView::Heatmap:
        return "heatmap";
    case FindingView::Moe:
        return "moe";
    case FindingView::Modules:
        return "modules";
    case FindingView::Roofline:
        return "roofline";
    case FindingView::Timeline:
        return "timeline";
    case FindingView::Heads:
        return "heads";
    case FindingView::Session:
        break;
    }
    return "session";
}

std::string selectionText(const FindingTarget& t) {
    std::string out;
    auto add = [&](const char* key, const std::string& value) {
        if (value.empty()) return;
        if (!out.empty()) out += ';';
        out.append(key).append("=").append(value);
    };
    add("layer", t.layer ? std::to_string(*t.layer) : "");
    add("expert", t.expert ? std::to_string(*t.expert) : "");
    add("module", t.module);
    add("metric", t.metric);
    add("phase", t.phase ? phaseName(*t.phase) : "");
    return out;
}

std::vector<std::string> heatmapMetrics() {
    std::vector<std::string> names;
    for (const auto& m : heatMetrics())
        names.emplace_back(m.name);
    return names;
}

namespace {

// A module's FLOPs, DRAM bytes and kernel time from the GPU's counters
// (--hw-counters: the run metrics hw.<path>.*), where all three were read.
std::optional<RooflinePoint> countedPoint(const std::string& path,
                                          const std::vector<RunMetricRow>& metrics,
                                          const DeviceCeiling& host) {
    const std::string at = "hw." + path + ".";
    std::optional<double> flops, bytes, ns;
    for (const auto& m : metrics) {
        if (m.name.compare(0, at.size(), at) != 0) continue;
        const std::string what = m.name.substr(at.size());
        if (what == "flops") flops = m.value;
        if (what == "dram_bytes") bytes = m.value;
        if (what == "gpu_ns") ns = m.value;
    }
    if (!flops || !bytes || !ns || *bytes <= 0 || *ns <= 0) return std::nullopt;
    RooflinePoint p = rooflinePoint(path, int64_t(*flops), int64_t(*bytes), int64_t(*ns), host);
    p.counted = true;
    return p;
}

// Roofline points for the modules worth a dot: the roots and their children,
// counted where the GPU's counters were read, else estimated.
std::vector<RooflinePoint> moduleRoofline(const ModuleCostTree& tree, const DeviceCeiling& host,
                                          const std::vector<RunMetricRow>& metrics) {
    std::vector<RooflinePoint> out;
    auto add = [&](const ModuleCost& n) {
        if (auto counted = countedPoint(n.module.path, metrics, host))
            out.push_back(std::move(*counted));
        else if (n.calls > 0 && n.bytes > 0 && n.flopsKnown)
            out.push_back(rooflinePoint(n.module.path, n.flops, n.bytes, n.totalNs, host));
    };
    for (size_t r : tree.roots) {
        add(tree.nodes[r]);
        for (size_t c : tree.nodes[r].children)
            add(tree.nodes[c]);
    }
    return out;
}

std::vector<RooflinePoint> opRoofline(const std::vector<OpTotal>& totals,
                                      const DeviceCeiling& host) {
    std::map<std::string, OpTotal> byName; // over every phase
    for (const auto& t : totals) {
        OpTotal& n = byName[t.name];
        n.flops += t.flops;
        n.bytes += t.bytes;
        n.ns += t.ns;
        n.knownNs += t.knownNs;
    }
    std::vector<RooflinePoint> out;
    for (const auto& [name, t] : byName)
        // An op whose FLOPs are unknown has no place on a roofline.
        if (t.bytes > 0 && t.knownNs > 0)
            out.push_back(rooflinePoint(name, t.flops, t.bytes, t.ns, host));
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.ns > y.ns; });
    return out;
}

} // namespace

namespace {
// The side of the image the model sees (its input size), not the file's.
int modelInputSide(const RunData& d) {
    if (d.grid && d.grid->inputSize > 0) return d.grid->inputSize;
    return std::min(d.imageWidth, d.imageHeight);
}
} // namespace

namespace {
// One meter's energy per inference (energy.<domain>_j) and per phase
// (energy.<phase>.<domain>_j), or the note of `unavailable` saying why not.
struct EnergyReading {
    std::optional<double> joules;
    std::string note;
    std::map<Phase, double> byPhase;
};
EnergyReading readEnergy(const RunData& d, const PhaseSummary& phases, const std::string& domain,
                         const std::string& unavailable) {
    EnergyReading r;
    if (const auto* e = findMetric(d, "energy." + domain + "_j")) {
        r.joules = e->value;
        r.note = e->note;
        for (const auto& p : phases.phases)
            if (const auto* j = findMetric(d, "energy." + phaseName(p.phase) + "." + domain + "_j"))
                r.byPhase[p.phase] = j->value;
    } else if (const auto* why = findMetric(d, unavailable)) {
        r.note = why->note;
    }
    return r;
}

// Energy per inference and per phase of the CPU packages and, on a CUDA
// run, of the GPU, or why there is none.
void addEnergy(RunAnalysis& a, const RunData& d) {
    auto cpu = readEnergy(d, a.phases, "package", "energy.available");
    if (!cpu.joules && cpu.note.empty())
        cpu.note = "n/a (recorded before mvprof read energy counters)";
    a.energyJ = cpu.joules;
    a.energyNote = std::move(cpu.note);
    a.energyByPhase = std::move(cpu.byPhase);
    auto gpu = readEnergy(d, a.phases, "gpu", "energy.gpu_available");
    a.gpuEnergyJ = gpu.joules;
    a.gpuEnergyNote = std::move(gpu.note);
    a.gpuEnergyByPhase = std::move(gpu.byPhase);
}

// The GPU memory the run's tensors held, where its allocator was read.
void addGpuMemory(RunAnalysis& a, const RunData& d) {
    if (const auto use = gpuMemoryUse(d)) {
        a.gpuPeakBytes = use->peakBytes;
        a.gpuStartBytes = use->startBytes;
        a.gpuMemoryNote = findMetric(d, "gpu.peak_allocated_bytes")->note;
    } else if (const auto* why = findMetric(d, "gpu.memory_available")) {
        a.gpuMemoryNote = why->note;
    }
}

void addCrossModal(RunAnalysis& a, const RunData& d) {
    // Cross-modal attention: each decoder layer's prefill attention reads the
    // visual and text tokens once in and once out (§4, B = 1, fp32).
    int visual = 0, text = 0;
    for (const auto& t : d.tokens)
        if (t.phase == Phase::Prefill) (t.modality == Modality::Visual ? visual : text) += 1;
    if (visual > 0 && d.llmDim > 0) {
        std::unordered_map<int64_t, const ModuleRow*> byId;
        for (const auto& m : d.modules)
            byId[m.id] = &m;
        for (const auto& n : a.modules.nodes) {
            const ModuleRow& m = n.module;
            // Decoder attention with a layer, whatever the model calls it.
            if (m.role != ModuleRole::Attention || !m.layer ||
                !withinRole(m, ModuleRole::Llm, byId))
                continue;
            int64_t ns = 0;
            for (const auto& s : d.spans)
                if (s.module == m.id && s.phase == Phase::Prefill) ns += s.endNs - s.startNs;
            if (ns <= 0) continue;
            a.crossModal.push_back(
                {*m.layer, ns,
                 crossModalBandwidth(visual, d.llmDim, text, d.llmDim, 4, double(ns) * 1e-9)});
        }
    }
}

// The KV regions the attention heatmap's hot patches make.
void addKvRegions(RunAnalysis& a, const RunData& d) {
    if (auto it = a.heatmaps.find("attention"); it != a.heatmaps.end()) {
        const HeatGrid n = normalised(it->second);
        const auto regions = thresholdRegions(n.values, n.rows, n.cols, 0.5);
        std::vector<std::vector<bool>> masks; // over sequence positions
        a.kv.sequenceLength = int64_t(d.tokens.size());
        const auto patchOf = patchOfPosition(d);
        for (const auto& r : regions) {
            std::vector<bool> m(size_t(a.kv.sequenceLength), false);
            for (const auto& [position, p] : patchOf) {
                const auto pos = size_t(position);
                if (p >= 0 && size_t(p) < r.size() && r[size_t(p)] && pos < m.size()) m[pos] = true;
            }
            masks.push_back(std::move(m));
        }
        a.kv.regions = int(regions.size());
        a.kv.shareRatio = kvShareRatio(masks, a.kv.sequenceLength);
    }
}

// The `n` top-level ops with the most time, summed over phases.
std::vector<OpTotal> topOps(const std::vector<OpTotal>& totals, size_t n) {
    std::vector<OpTotal> out = opTotalsByName(totals);
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.ns > y.ns; });
    if (out.size() > n) out.resize(n);
    return out;
}

// What the run lacks or how it ended, for the report's notes.
void addNotes(RunAnalysis& a, const RunData& d) {
    if (!d.importFormat.empty()) {
        a.notes.push_back("imported from a trace: no routing, image or attention maps (the MoE, "
                          "heatmap and head views need an mvprof capture)");
        if (a.phases.phases.empty())
            a.notes.push_back("no phases: a trace does not mark them, so its ops and spans are "
                              "outside every phase");
        if (!a.host) a.notes.push_back("no device ceilings recorded: no roofline");
        return;
    }
    if (d.run.status == RunStatus::Incomplete)
        a.notes.push_back("the run is incomplete (its capture was stopped or killed): figures "
                          "cover what was recorded");
    if (d.run.status == RunStatus::Failed) a.notes.push_back("the run failed: " + d.run.error);
    if (!d.run.probes)
        a.notes.push_back(
            "captured without probes (--no-probes): phases only, no modules, ops or routing");
    if (d.run.probes && d.routing.empty()) {
        const RunMetricRow* observed = findMetric(d, "roles.routing_observed");
        a.notes.push_back(!d.userModel ? "no MoE routing recorded: the model has no MoE layers"
                          : observed   ? "no MoE routing recorded: " + observed->note
                                       : "no MoE routing recorded: name the model's router and "
                                         "expert modules in its manifest's \"roles\" "
                                         "(docs/user-models.md)");
    }
    if (const RunMetricRow* attn = findMetric(d, "roles.attention_observed");
        attn && attn->value == 0)
        a.notes.push_back("no attention heatmap: " + attn->note);
    if (!d.grid) a.notes.push_back("no image patch grid recorded: no heatmaps");
    if (d.attnMaps.empty() && !d.userModel)
        a.notes.push_back("no per-head attention maps (capture with --attn-layers): no head "
                          "redundancy or saliency");
    if (a.phases.phases.empty())
        a.notes.push_back("no phases recorded");
    else if (std::none_of(a.phases.phases.begin(), a.phases.phases.end(),
                          [](auto& p) { return p.phase == Phase::Decode; }))
        a.notes.push_back("no decode steps: decode figures are empty");
    if (d.experts == 1) a.notes.push_back("a single expert: balance statistics are trivially even");
    if (!a.host) a.notes.push_back("no device ceilings recorded: no roofline");
}

} // namespace

std::vector<OpTotal> opTotalsByName(const std::vector<OpTotal>& totals) {
    std::map<std::string, OpTotal> byName;
    for (const auto& t : totals) {
        OpTotal& sum = byName[t.name];
        sum.name = t.name;
        sum.calls += t.calls, sum.flops += t.flops, sum.bytes += t.bytes;
        sum.ns += t.ns, sum.knownNs += t.knownNs;
    }
    std::vector<OpTotal> out;
    out.reserve(byName.size());
    for (auto& [name, t] : byName)
        out.push_back(std::move(t));
    return out;
}

RunAnalysis analyseRun(const RunData& d, const AnalysisOptions& opt) {
    RunAnalysis a;
    a.run = d.run;
    a.phases = summarisePhases(d.phases);
    addPhaseCosts(a.phases, d.opTotals);
    a.leafFlops = d.leafFlops;
    const int64_t wall = d.run.wallNs > 0 ? d.run.wallNs : a.phases.wallNs;
    a.modules = buildModuleCosts(d.modules, d.spans, wall);
    if (d.hasDeviceActivity)
        addDeviceTime(a.modules, d.spans, d.deviceNsBySpan);
    else
        addSpanDeviceTime(a.modules, d.spans); // CUDA events, where the run has no trace
    a.ops = d.opCount;
    a.topOps = topOps(d.opTotals, 12);
    if (!d.importFormat.empty())
        a.importedFrom = (d.importedFrom.empty() ? std::string("a trace") : d.importedFrom) + " (" +
                         d.importFormat + ")";
    a.parameters = d.parameters;
    a.weightsFile = d.weightsFile;
    a.weightsSha256 = d.weightsSha256;
    a.weightsSeed = d.weightsSeed;
    addEnergy(a, d);
    addGpuMemory(a, d);
    if (a.parameters == 0)
        for (const auto& n : a.modules.nodes)
            if (!n.module.parent) a.parameters += n.module.params;

    if (!d.routing.empty()) {
        a.moe = analyseMoe(d.routing, d.experts, opt.moe, opt.window);
        a.gateExpert = gateExpertTimes(d.modules, d.spans);
    }
    for (const auto& [layer, maps] : d.attnMaps)
        a.heads.push_back(headRedundancy(layer, maps));

    a.references = datasheetDevices();
    if (d.device && d.device->peakFlops > 0 && d.device->peakBytesPerS > 0) {
        a.host = ceilingOf(*d.device);
        a.moduleRoofline = moduleRoofline(a.modules, *a.host, d.runMetrics);
        a.opRoofline = opRoofline(d.opTotals, *a.host);
    }

    addCrossModal(a, d);

    a.heatmaps = computePatchMetrics(d);
    addKvRegions(a, d);

    // Batch advice calibrated on this sample: its memory beyond the weights.
    double entropy = 0;
    for (const auto& l : a.moe)
        entropy += l.total.entropyBits / double(a.moe.size());
    int textTokens = 0;
    for (const auto& t : d.tokens)
        textTokens += t.modality == Modality::Text;
    const SampleMemory memory = sampleMemory(d, a.parameters);
    a.batch =
        adviseBatch(memory.sampleBytes, modelInputSide(d), textTokens, entropy, memory.freeBytes);
    a.batch.onGpu = memory.onGpu;

    addNotes(a, d);
    a.kv.resampling = resamplingFromMetrics(d.runMetrics);
    a.findings = findingsFor(d, a);
    return a;
}

} // namespace mvp
