#pragma once
// Capturer's private state, shared by CaptureRun.cpp (running) and
// CaptureTransforms.cpp (what-if model rewrites). Internal; includes torch.

#include "capture/cuda/RangeProfiler.h"
#include "capture/models/ScriptedModel.h"
#include "capture/models/Vlm.h"
#include "capture/run/Capture.h"
#include "capture/run/Pipeline.h"
#include "capture/run/ScratchSession.h"
#include "capture/run/ScriptRoles.h"

#include <functional>
#include <optional>

namespace mvp {

struct Capturer::Impl {
    PreparedCapture prep;
    std::unique_ptr<VlmModel> model;         // the built-in reference model, or
    std::unique_ptr<ScriptedModel> scripted; // a user's TorchScript model
    ImageRow storedImage; // of prep.image: stale after an itemPass until refreshed
    bool storedImageStale = false;
    DeviceRow device;
    bool transformed = false;
    // Where eval items' attention passes of a TorchScript model record (on first use).
    std::unique_ptr<ScratchSession> scratch;
};

// Brings impl.storedImage up to date with impl.prep's image (after itemPass).
Status refreshStoredImage(Capturer::Impl& impl);

// The prepared image as the model's input: resized and normalised (CLIP's
// mean and std, or a user model's) [1, 3, S, S].
torch::Tensor modelPixels(const PreparedCapture& prep);
// The built-in model's dtype from --dtype (float32, bfloat16, float16).
torch::ScalarType modelDtype(const CaptureOptions& o);

class Recorder;

// Every patch when `keep` is empty, else `keep` (spatial order).
std::vector<int> visiblePatches(const VlmConfig& cfg, const std::vector<int>& keep);
// One unprobed pass of the whole pipeline (Pipeline.h), timed by phase
// (CaptureTimed.cpp): warm-ups and A/B repetitions run these.
// With `chosen`, the tokens the pass generated go there.
std::vector<PhaseTime> timedReferencePass(VlmModel& model, const PreparedCapture& prep,
                                          const std::vector<int>& seen,
                                          std::vector<int>* chosen = nullptr);
std::vector<PhaseTime> timedScriptedPass(ScriptedModel& model, const PreparedCapture& prep,
                                         std::vector<int>* chosen = nullptr);

// A TorchScript model's module spans followed from its interpreter's
// hierarchy; with a role manifest, its router and attention modules
// observed into `roles` (ScriptRoles.h) over a grid of `gridPatches`.
void followScript(Recorder& rec, ScriptedModel& model, const UserModelManifest& manifest,
                  int gridPatches, std::optional<ScriptRoleObserver>& roles);
// An eval item's pass of a TorchScript model with its attention observed
// as a capture observes it: the roles' observer needs the module spans a
// Recorder follows, so the pass is recorded into `scratch`, a file nobody
// reads. Fills the pass's tokens, steps, visual tokens and patch metrics
// (none when the manifest names no attention role or no softmax was
// readable); returns its phase times.
std::vector<PhaseTime> attentionScriptedPass(ScriptedModel& model, const PreparedCapture& prep,
                                             ScratchSession& scratch, ItemPass& pass);

// A recorded run of the pipeline: ops on while it runs, its outcome (status,
// the first line of a failure, wall time, peak RSS, the text of `chosen`).
RunResult runRecorded(Recorder& rec, const PreparedCapture& prep, PipelineModel& model,
                      const PhaseMarks& marks, std::vector<int>& chosen);
// The metrics every recorded run stores: start memory, probe work, energy.
void addRecorderMetrics(Batch& rows, const Recorder& rec, const RunMetricRow& startMemory);
// The rows a run writes before it runs: modules, the stored image, the device,
// the patch grid (a user model's manifest may give its size).
Batch setupRows(int64_t run, const PreparedCapture& prep, const ImageRow& image,
                const DeviceRow& device, std::vector<ModuleRow> modules, int firstPatch);

// The phase marks of a recorded run: the Recorder's phase rows and the progress.
PhaseMarks recordedPhases(Recorder& rec, const ProgressFn& progress, int steps);

// What every run records about itself before it starts (its options, host,
// BLAS, threads, time).
RunInfo newRunInfo(const CaptureOptions& o, bool probes);

// Ends a run of either kind: hands the last rows to the writer, closes the
// run with `outcome` and fills `result` from it. A failed run is an error
// whose message starts with `failurePrefix`.
Result<CaptureResult> finishRun(Recorder& rec, SessionWriter& writer, int64_t runId,
                                const RunResult& outcome, Batch rows, CaptureResult result,
                                const ProgressFn& progress, int steps,
                                const std::string& failurePrefix, ErrorCode failureCode);

// --hw-counters (CaptureCounters.cpp): the pipeline replayed under CUPTI's
// range profiler with a range around every module span, named by the
// module's path, at nesting levels 1 to the deepest the recorded run
// reached (`recorded`, which also sizes a pass's ranges): per module the run
// metrics hw.<path>.{flops,dram_bytes,gpu_ns}, and hw.counters — 0 with the
// reason where the counters could not be read. `replay` runs the pipeline
// once into a scratch run, its ranges on `ranges`.
using CounterReplay =
    std::function<void(SessionWriter& scratch, int64_t run, cuda::RangeSink& ranges)>;
std::vector<RunMetricRow> countHardware(int device, const CounterReplay& replay,
                                        const Recorder& recorded);
// One such replay of the built-in model (its state reset after it) or of a
// TorchScript model (spans from its interpreter's hierarchy, as recorded).
void replayWithRanges(VlmModel& model, const PreparedCapture& prep, const std::vector<int>& seen,
                      SessionWriter& scratch, int64_t run, cuda::RangeSink& ranges);
void replayWithRanges(ScriptedModel& model, const PreparedCapture& prep, SessionWriter& scratch,
                      int64_t run, cuda::RangeSink& ranges);

// The stored copy of the input image and the device, shared by both kinds of run.
Result<ImageRow> storedImageRow(const PreparedCapture& prep);

} // namespace mvp
