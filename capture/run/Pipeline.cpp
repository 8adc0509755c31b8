#include "capture/run/Pipeline.h"

#include "capture/run/CapturerImpl.h"
#include "capture/run/ScriptRoles.h"

#include <stdexcept>

namespace mvp {

namespace {
bool cancelled(const CaptureOptions& o) {
    return o.cancel && o.cancel->load();
}

std::vector<float> floatsOf(const torch::Tensor& t) {
    const auto c = t.to(torch::kCPU, torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

// A user model's sequence: ids[0, first) · visual tokens · ids[first, …).
std::vector<TokenRow> prefillTokens(const std::vector<int>& ids, int first, int patches,
                                    int gridPatches) {
    std::vector<TokenRow> rows;
    int position = 0;
    for (int i = 0; i < first; ++i)
        rows.push_back(TokenRow{position++, Phase::Prefill, 0, Modality::Text, ids[size_t(i)], -1});
    for (int p = 0; p < patches; ++p)
        rows.push_back(TokenRow{position++, Phase::Prefill, 0, Modality::Visual, -1,
                                p < gridPatches ? p : -1});
    for (size_t i = size_t(first); i < ids.size(); ++i)
        rows.push_back(TokenRow{position++, Phase::Prefill, 0, Modality::Text, ids[i], -1});
    return rows;
}
} // namespace

std::vector<int> runPipeline(const PreparedCapture& prep, PipelineModel& model,
                             const PhaseMarks& mark) {
    c10::InferenceMode inference;
    // A phase ends when its device work has: the model settles before each mark.
    const auto next = [&](Phase phase, int step) {
        model.settle();
        mark(phase, step);
    };
    mark(Phase::Preprocess, 0);
    const auto pixels = modelPixels(prep);
    next(Phase::Vision, 0);
    const auto features = model.vision(pixels);
    next(Phase::Projector, 0);
    const auto visual = model.project(features);
    next(Phase::Prefill, 0);
    std::vector<int> chosen{model.prefill(visual)};
    for (int step = 1; step <= prep.options.steps && !cancelled(prep.options); ++step) {
        next(Phase::Decode, step);
        chosen.push_back(model.decode(step, chosen.back()));
    }
    model.settle(); // the last phase's end is taken after this returns
    return chosen;
}

ReferencePipeline::ReferencePipeline(VlmModel& model, const PreparedCapture& prep,
                                     std::vector<int> seen, ForwardHooks hooks, Batch* keep)
    : model_(model), prep_(prep), seen_(std::move(seen)), hooks_(std::move(hooks)), keep_(keep) {}

torch::Tensor ReferencePipeline::vision(const torch::Tensor& pixels) {
    // The host → device copy of the image belongs to the vision phase.
    return model_.encodeImage(pixels.to(model_.device()), hooks_);
}

void ReferencePipeline::settle() {
    model_.settle();
}

torch::Tensor ReferencePipeline::project(const torch::Tensor& features) {
    auto visual = model_.project(features, hooks_);
    if (int64_t(seen_.size()) != visual.size(0)) {
        // Visual-token pruning: the decoder really runs on fewer tokens.
        std::vector<int64_t> keep(seen_.begin(), seen_.end());
        visual = visual.index_select(0, torch::tensor(keep, torch::kLong).to(visual.device()));
    }
    if (keep_)
        keep_->visionFeatures =
            VisionFeatureRow{int(visual.size(0)), int(visual.size(1)), floatsOf(visual)};
    return visual;
}

int ReferencePipeline::prefill(const torch::Tensor& visual) {
    model_.reset();
    std::vector<int> ids{tokens::kBos};
    ids.insert(ids.end(), prep_.promptIds.begin(), prep_.promptIds.end());
    const auto logits = model_.forward(ids, visual, 1, hooks_);
    addToken(Phase::Prefill, 0, Modality::Text, tokens::kBos);
    for (int p : seen_)
        addToken(Phase::Prefill, 0, Modality::Visual, -1, p);
    for (int id : prep_.promptIds)
        addToken(Phase::Prefill, 0, Modality::Text, id);
    const int next = choose(0, logits);
    if (afterPrefill) afterPrefill();
    return next;
}

int ReferencePipeline::decode(int step, int token) {
    addToken(Phase::Decode, step, Modality::Text, token);
    return choose(step, model_.forward({token}, torch::Tensor(), 0, hooks_));
}

int ReferencePipeline::choose(int step, const torch::Tensor& logits) {
    const int next = int(logits.argmax().item<int64_t>());
    if (keep_) keep_->stepOutputs.push_back(StepOutputRow{step, next, floatsOf(logits)});
    return next;
}

void ReferencePipeline::addToken(Phase phase, int step, Modality modality, int id, int patch) {
    if (keep_) keep_->tokens.push_back(TokenRow{position_, phase, step, modality, id, patch});
    ++position_;
}

ScriptedPipeline::ScriptedPipeline(ScriptedModel& model, const PreparedCapture& prep, Batch* keep,
                                   ScriptRoleObserver* roles, int gridPatches)
    : model_(model), prep_(prep), keep_(keep), roles_(roles), gridPatches_(gridPatches),
      visualAt_(prep.userModel->visualFirst) {}

torch::Tensor ScriptedPipeline::vision(const torch::Tensor& pixels) {
    return model_.encodeImage(pixels);
}

void ScriptedPipeline::settle() {
    model_.settle();
}

torch::Tensor ScriptedPipeline::project(const torch::Tensor& features) {
    auto visual = model_.project(features);
    if (visual.dim() != 2) throw std::runtime_error("project() must return [visual tokens, width]");
    if (keep_)
        keep_->visionFeatures =
            VisionFeatureRow{int(visual.size(0)), int(visual.size(1)), floatsOf(visual)};
    return visual;
}

int ScriptedPipeline::prefill(const torch::Tensor& visual) {
    visual_ = visual;
    ids_ = {prep_.userModel->bos};
    ids_.insert(ids_.end(), prep_.promptIds.begin(), prep_.promptIds.end());
    if (keep_) keep_->tokens = prefillTokens(ids_, visualAt_, int(visual.size(0)), gridPatches_);
    return forward(Phase::Prefill, 0, 0);
}

int ScriptedPipeline::decode(int step, int token) {
    const int position = int(ids_.size() + size_t(visual_.size(0)));
    if (keep_)
        keep_->tokens.push_back(TokenRow{position, Phase::Decode, step, Modality::Text, token, -1});
    ids_.push_back(token);
    // The whole sequence again: the profiler sees no KV cache in a user model.
    return forward(Phase::Decode, step, position);
}

// One forward pass over the whole sequence; positions from `firstNew` on are new in it.
int ScriptedPipeline::forward(Phase phase, int step, int firstNew) {
    const int sequence = int(ids_.size() + size_t(visual_.size(0)));
    if (roles_) roles_->beginPass(phase, step, firstNew, sequence);
    const auto logits = model_.forward(ids_, visual_, visualAt_);
    if (logits.dim() != 1 || logits.size(0) < 2)
        throw std::runtime_error("forward() must return next-token logits [vocab]");
    const int next = int(logits.argmax().item<int64_t>());
    if (keep_) keep_->stepOutputs.push_back(StepOutputRow{step, next, floatsOf(logits)});
    return next;
}

} // namespace mvp
