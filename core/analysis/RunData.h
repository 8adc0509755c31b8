#pragma once
// One run's rows as the session stores them, read once (loadRunData) and
// checked across tables; every analysis and comparison works on this.

#include "core/Result.h"
#include "core/session/Records.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mvp {

class SessionReader;

// The rows of one run, as stored.
struct RunData {
    RunInfo run;
    std::vector<ModuleRow> modules;
    std::vector<PhaseRow> phases;
    std::vector<SpanRow> spans;
    std::vector<OpTotal> opTotals;       // top-level ops by phase and name
    std::vector<LeafFlopsRow> leafFlops; // FLOPs by the innermost op that computed them
    int64_t opCount = 0;
    std::vector<TokenRow> tokens;
    std::vector<RoutingRow> routing;
    std::vector<PatchMetricRow> attention; // metric "attention": all text queries
    std::vector<PatchMetricRow> attentionPrefill, attentionDecode; // split by the query's phase
    // "answer_attention": from the queries that generate the answer (the
    // prompt's last position, the decode steps up to EOS); none in older sessions.
    std::vector<PatchMetricRow> answerAttention;
    std::vector<PatchMetricRow>
        tokensKept; // "tokens.kept": 1 where a decoder layer's input held the patch's token
    std::map<int, std::vector<AttnMapRow>> attnMaps; // by layer; only --attn-layers
    std::optional<PatchGridRow> grid;
    std::optional<DeviceRow> device;
    std::vector<StepOutputRow> stepOutputs;
    std::optional<VisionFeatureRow> visionFeatures;
    std::vector<RunMetricRow> runMetrics;   // weight / KV bytes, what-if statistics
    std::vector<RepetitionRow> repetitions; // a what-if's A/B timings (Records.h)
    // An eval run's set and items (capture/run/EvalWhatIf.h); none for a capture.
    std::optional<EvalSetRow> evalSet;
    std::vector<EvalItemRow> evalItems;
    bool isEval() const { return evalSet.has_value(); }
    // GPU time of the kernels, copies and fills attributed to each span
    // (device_activity); empty, with hasDeviceActivity false, for CPU runs.
    std::unordered_map<int64_t, int64_t> deviceNsBySpan;
    bool hasDeviceActivity = false;
    int imageWidth = 0, imageHeight = 0; // of the original file; 0 without an image
    // From the config JSON (0 when absent).
    int experts = 0, topK = 0, llmDim = 0, llmHeads = 0;
    int64_t parameters = 0;
    // A built-in preset's weights: the safetensors file it loaded (its name
    // and SHA-256), or none and the seed of its random initialisation.
    std::string weightsFile, weightsSha256;
    std::optional<uint64_t> weightsSeed;
    bool userModel = false; // a TorchScript or Python user model (not a built-in preset)
    // An imported trace (TraceImport.h): its file and format ("chrome-trace"); empty for a capture.
    std::string importedFrom, importFormat;
};

Result<RunData> loadRunData(SessionReader& reader, int64_t runId);

// The run metric called `name`, if the run has one.
const RunMetricRow* findMetric(const RunData& run, const std::string& name);

} // namespace mvp
