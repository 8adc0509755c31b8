#pragma once
// Capturing one image + prompt through a model into a session: the front
// door of capture/run/. Plain C++ header: the CLI and tests use it without
// seeing torch.

#include "capture/config/CaptureOptions.h"
#include "capture/config/UserModel.h"
#include "capture/whatif/Transforms.h"
#include "core/Result.h"
#include "core/analysis/Kv.h"
#include "core/image/Image.h"
#include "core/session/Records.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

class SessionWriter;

struct CaptureProgress {
    // What is under way: a phase of the run, or the work a what-if does around it.
    enum class Stage { Phase, Transforming, Repetitions, Done };
    Stage stage = Stage::Phase;
    Phase phase = Phase::Preprocess; // for Stage::Phase: the phase about to run
    int step = 0, steps = 0;
    double fraction = 0; // of the whole run, estimated
    // "vision", "decode" … or "transforming", "repetitions", "done" (the jsonl word).
    std::string name() const;
};
using ProgressFn = std::function<void(const CaptureProgress&)>;

struct CaptureResult {
    int64_t run = 0;
    RunStatus status = RunStatus::Complete;
    std::string outputText;
    std::vector<int> outputTokens;
    int64_t wallNs = 0;
    int64_t opsRecorded = 0;
    int64_t peakRssBytes = 0;
};

// What rewriting the model found: run metrics to store with the what-if and,
// for the latency prediction, the quantised modules' weight bytes.
struct ModelTransformOutcome {
    std::vector<RunMetricRow> metrics;
    std::vector<QuantisedModule> quantised;
    bool int8Kernels = false; // W8 runs libtorch's int8 engine: its latency is measured
    bool int4Kernels = false; // W4 runs (on some layers) libtorch's int4 matmul: measured
    bool int8Matmul = false;  // W8 runs (on some layers) libtorch's int8 matmul on a GPU: measured
    // Where the transform decides which patches' tokens reach the decoder
    // (VisionZip, on this image): one per visual token, in the decoder's order.
    std::vector<int> visualPatches;
};

// Everything checked and loaded that can be before a model exists.
struct PreparedCapture {
    CaptureOptions options;
    VlmConfig config;
    RgbImage image;                  // decoded, full resolution
    std::vector<uint8_t> imageBytes; // the file, re-decoded inside `preprocess`
    std::vector<int> promptIds;
    int sequenceLength = 0; // BOS + patches + prompt + steps
    int pixelSide = 0;      // the side the model's input is resized to; 0: the config's image size
    std::optional<UserModelManifest> userModel; // set for a TorchScript user model
};

// The patch grid a capture's heatmaps are drawn on: a user model's manifest
// may give its rows and columns, else the config's image size over its patch
// size, squared.
struct PatchGridSize {
    int rows = 0, cols = 0;
    int patches() const { return rows * cols; }
};
PatchGridSize patchGridOf(const PreparedCapture& p);

// Validates the options (model, steps, prompt vs context, attention layers,
// device, image) without touching the output path. Cheap: no model is built.
Result<PreparedCapture> prepareCapture(const CaptureOptions& options);
// Replaces the prepared image and prompt, checked as prepareCapture checks
// them (the prompt fits the context, the image decodes); `imageData`, when
// given, holds the file's bytes. Leaves `p` unchanged on an error.
Status setInput(PreparedCapture& p, const std::string& imagePath, const std::string& prompt,
                const std::vector<uint8_t>* imageData = nullptr);

// What an eval item's pass keeps besides its tokens and times.
struct ItemObservation {
    bool logits = false;    // every step's logits (ItemPass::steps), for fidelity
    // The attention patch metrics: the built-in model's, or a TorchScript
    // model's through its attention roles (none without). Slows the pass.
    bool attention = false;
};

// What one unrecorded pass generated, and its phase times.
struct ItemPass {
    std::vector<int> tokens; // every decode step's choice (prefill's first)
    std::string text;        // up to the first EOS (tokens::decode)
    std::vector<PhaseTime> times;
    std::vector<StepOutputRow> steps;        // with ItemObservation::logits
    std::vector<PatchMetricRow> patchMetrics; // with ItemObservation::attention: as a run stores them
    std::optional<VisionFeatureRow> visionFeatures; // with either observation: what the decoder got
    int visualTokens = 0;                    // the decoder saw
};

// A built model ready to run a prepared capture, possibly several times
// (the overhead benchmark interleaves probed and unprobed runs).
class Capturer {
public:
    static Result<std::unique_ptr<Capturer>> create(PreparedCapture prepared);
    ~Capturer();

    Result<CaptureResult> run(SessionWriter& writer, bool probes, const ProgressFn& progress = {},
                              const RunTransform& transform = {});
    // One unrecorded pass of the whole pipeline — the same phases, visual
    // tokens and decode steps as run() — timed by phase on a steady clock with
    // no probes and no rows: the unit of a what-if's A/B repetitions.
    Result<std::vector<PhaseTime>> timedPass(const RunTransform& transform = {});
    // The same pass on another image and prompt (an eval set's item: the
    // model stays loaded), keeping what it generated. Later runs and passes
    // use this input too.
    Result<ItemPass> itemPass(const std::string& imagePath, const std::string& prompt,
                              const RunTransform& transform = {},
                              const ItemObservation& observe = {});
    // One unrecorded pass observing the visual tokens as the decoder holds
    // them (per layer: their value vectors after the prefill, each decode
    // step's attention over the patches), for a what-if's resampling loss.
    // The built-in model only.
    Result<VisualTokenObservation> observeVisualTokens(const RunTransform& transform = {});
    const PreparedCapture& prepared() const;
    int64_t parameterCount() const;
    // The run row a run of this model would begin with (its configuration,
    // this process, now), for runs written elsewhere: an eval run's.
    RunInfo runInfo(bool probes, const RunTransform& transform = {}) const;
    // How the next runs watch a GPU — CUPTI tracing and device timing — so
    // that one process can interleave runs with and without (the tracing
    // cost benchmark). Nothing changes on the CPU.
    void setGpuObservation(bool traceGpu, cuda::DeviceTiming timing);

    // Rewrites the model for a what-if, in this order: vision MLP channel
    // pruning (sensitivity by autograd on the baseline tokens), cold-expert
    // freezing, weight quantisation (AWQ calibrated on the baseline's inputs),
    // KV compression (applied after each prefill). Once per Capturer. On a
    // user model only weight quantisation of its LLM's linears (ScriptedQuant.h).
    Result<ModelTransformOutcome> transformModel(const ModelTransforms& t);

    struct Impl; // capture/run/CapturerImpl.h: the run/ files' shared state

private:
    explicit Capturer(std::unique_ptr<Impl> impl);
    Result<CaptureResult> runScripted(SessionWriter& writer, bool probes,
                                      const ProgressFn& progress, const RunTransform& transform);
    Result<ModelTransformOutcome> transformScripted(const ModelTransforms& t);
    std::unique_ptr<Impl> d;
};

// Builds the built-in model of `config` (its seeded weights, or the file it
// names) and writes its weights as safetensors: the file `--weights` takes,
// a starting point for training or for another tool's checkpoint.
Status writeModelWeights(const VlmConfig& config, const std::string& path);

// prepare → open the output → build the model → run → close. On an error
// before the run began, no output file is left behind.
Result<CaptureResult> capture(const CaptureOptions& options, const ProgressFn& progress = {});

} // namespace mvp
