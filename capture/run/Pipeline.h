#pragma once
// The one pipeline every in-process run goes through: preprocess → vision →
// projector → prefill → decode steps. A model adapter says what each phase
// does (the built-in reference model, a user's TorchScript model); the phase
// marks say where the boundaries go: the Recorder's in a recorded run, a
// clock's in a timed pass. A warm-up and an A/B repetition are the same
// pipeline without a recorder. (The Python package drives the same Recorder
// phase by phase from the user's script: mvprof_begin_phase.) Internal; includes torch.

#include "capture/models/ScriptedModel.h"
#include "capture/models/Vlm.h"
#include "capture/run/Capture.h"

#include <functional>
#include <torch/torch.h>
#include <vector>

namespace mvp {

class ScriptRoleObserver;

// What a model does in each phase after preprocessing (which is the same for all).
class PipelineModel {
public:
    virtual ~PipelineModel() = default;
    virtual torch::Tensor vision(const torch::Tensor& pixels) = 0;
    virtual torch::Tensor project(const torch::Tensor& features) = 0; // [visual tokens, width]
    virtual int prefill(const torch::Tensor& visual) = 0;             // the first token chosen
    virtual int decode(int step, int token) = 0;                      // the next token chosen
    // Waits for the work queued on the model's device (none on the CPU):
    // called before each phase mark, so that a phase's time includes its kernels.
    virtual void settle() {}
};

// Called as each phase begins (decode: per step, from 1).
using PhaseMarks = std::function<void(Phase phase, int step)>;

// Runs the phases over `model` and returns the tokens it chose (prefill's
// first). Stops between decode steps when the options' cancel flag is set.
std::vector<int> runPipeline(const PreparedCapture& prep, PipelineModel& model,
                             const PhaseMarks& mark);

// The built-in model: the decoder sees the tokens of the patches `seen`
// (spatial order). With `keep`, a recorded run's outputs go there: the
// visual features, the token positions and every step's logits.
class ReferencePipeline final : public PipelineModel {
public:
    ReferencePipeline(VlmModel& model, const PreparedCapture& prep, std::vector<int> seen,
                      ForwardHooks hooks = {}, Batch* keep = nullptr);
    torch::Tensor vision(const torch::Tensor& pixels) override;
    torch::Tensor project(const torch::Tensor& features) override;
    int prefill(const torch::Tensor& visual) override;
    int decode(int step, int token) override;
    void settle() override;

    std::function<void()> afterPrefill; // a recorded run shows its heatmap from here on

private:
    int choose(int step, const torch::Tensor& logits);
    void addToken(Phase phase, int step, Modality modality, int id, int patch = -1);

    VlmModel& model_;
    const PreparedCapture& prep_;
    std::vector<int> seen_;
    ForwardHooks hooks_;
    Batch* keep_;
    int position_ = 0;
};

// A user's TorchScript model: every pass runs the whole sequence (the
// profiler sees no KV cache in it). With `keep`, as above; with `roles`, its
// router and attention modules are observed per pass.
class ScriptedPipeline final : public PipelineModel {
public:
    ScriptedPipeline(ScriptedModel& model, const PreparedCapture& prep, Batch* keep = nullptr,
                     ScriptRoleObserver* roles = nullptr, int gridPatches = 0);
    torch::Tensor vision(const torch::Tensor& pixels) override;
    torch::Tensor project(const torch::Tensor& features) override;
    int prefill(const torch::Tensor& visual) override;
    int decode(int step, int token) override;
    void settle() override;

private:
    int forward(Phase phase, int step, int firstNew);

    ScriptedModel& model_;
    const PreparedCapture& prep_;
    Batch* keep_;
    ScriptRoleObserver* roles_;
    int gridPatches_, visualAt_;
    std::vector<int> ids_;
    torch::Tensor visual_;
};

} // namespace mvp
