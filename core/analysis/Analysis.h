#pragma once
// The one analysis API: everything about a run that the report and the GUI
// show, computed from plain data by pure functions. No SQL here or in views:
// loadRunData (RunData.h) reads the session once, analyseRun does the rest.

#include "core/Provenance.h"
#include "core/Result.h"
#include "core/analysis/BatchAdvisor.h"
#include "core/analysis/HeadStats.h"
#include "core/analysis/Heatmap.h"
#include "core/analysis/Kv.h"
#include "core/analysis/ModuleCosts.h"
#include "core/analysis/MoeStats.h"
#include "core/analysis/Roofline.h"
#include "core/analysis/RunData.h"
#include "core/session/Records.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mvp {

struct AnalysisOptions {
    MoeThresholds moe;
    int window = 0; // tokens per window for per-window expert statistics; 0 = whole run only
};

enum class Severity { Info, Warning, Critical };
const char* toString(Severity s);

struct Evidence {
    std::string name;
    double value = 0;
    Provenance provenance = Provenance::Measured;
};

// The view a finding points at, and what to select there.
enum class FindingView { Heatmap, Moe, Modules, Roofline, Timeline, Heads, Session };
const char* toString(FindingView v);

struct FindingTarget {
    FindingView view = FindingView::Session;
    std::optional<int> layer, expert; // a decoder layer, an expert of it
    std::string module;               // a module path
    std::string metric;               // a heatmap metric
    std::optional<Phase> phase;       // a phase to zoom the timeline to
};
// "layer=1;expert=3": the JSON report's form of the selection.
std::string selectionText(const FindingTarget& t);

// A diagnosis with the numbers behind it and what to do.
struct Finding {
    std::string id; // stable, e.g. "moe.overloaded.L1.E3"
    Severity severity = Severity::Info;
    std::string title, detail, suggestion;
    std::vector<Evidence> evidence;
    FindingTarget target;
};

struct CrossModalBandwidth {
    int layer = 0;
    int64_t ns = 0;
    double bytesPerS = 0; // required (predicted from the model, measured time)
};

struct KvSummary {
    int regions = 0;       // hot-attention regions (normalised attention ≥ 0.5)
    double shareRatio = 0; // |∪ regions| / L
    int64_t sequenceLength = 0;
    // Per decoder layer against the baseline (Kv.h), stored with a what-if
    // that changed the visual tokens or the KV cache; empty otherwise.
    std::vector<LayerResampling> resampling;
};

struct RunAnalysis {
    RunInfo run;
    int64_t parameters = 0;
    // A built-in preset's weights (RunData): a file and its SHA-256, or the
    // seed of a random initialisation; neither for user models and imports.
    std::string weightsFile, weightsSha256;
    std::optional<uint64_t> weightsSeed;
    std::optional<double> energyJ;         // package energy per inference (measured, RAPL), if read
    std::string energyNote;                // how it was measured, or why there is none
    std::map<Phase, double> energyByPhase; // package J per phase (measured), if read
    std::optional<double> gpuEnergyJ;      // the GPU's per inference (measured, NVML), if read
    std::string gpuEnergyNote;             // how, or why there is none; empty: not a GPU run
    std::map<Phase, double> gpuEnergyByPhase; // the GPU's J per phase (measured), if read
    // On a CUDA run, libtorch's caching allocator (measured): the most bytes
    // tensors held during the run, and as it began, if read; gpuMemoryNote
    // says how, or why there are none (empty: not a GPU run).
    std::optional<double> gpuPeakBytes, gpuStartBytes;
    std::string gpuMemoryNote;
    PhaseSummary phases;
    ModuleCostTree modules;
    int64_t ops = 0;
    std::vector<OpTotal> topOps; // top-level ops by name over all phases, most time first (≤ 12)
    std::string importedFrom;    // "FILE (format)" for an imported trace, else empty
    std::vector<LayerMoeReport> moe;
    std::vector<GateExpertTime> gateExpert;
    std::vector<HeadRedundancy> heads;
    std::optional<DeviceCeiling> host;
    std::vector<DeviceCeiling> references;     // datasheet GPUs
    std::vector<RooflinePoint> moduleRoofline; // top-level modules and layers, on the host
    std::vector<RooflinePoint> opRoofline;     // aggregated by op name, on the host
    std::vector<LeafFlopsRow> leafFlops;       // where the arithmetic happened, by phase
    std::vector<CrossModalBandwidth> crossModal;
    KvSummary kv;
    BatchAdvice batch;
    std::map<std::string, HeatGrid> heatmaps; // metric → grid over all layers
    std::vector<Finding> findings;            // most severe first
    std::vector<std::string> notes;           // what is missing, in words
};

RunAnalysis analyseRun(const RunData& data, const AnalysisOptions& options = {});

// Top-level ops summed over phases by name, in name order (the op table).
std::vector<OpTotal> opTotalsByName(const std::vector<OpTotal>& totals);

// The heatmap metrics a run supports, in display order.
std::vector<std::string> heatmapMetrics();

} // namespace mvp
