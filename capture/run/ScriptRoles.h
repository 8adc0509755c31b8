#pragma once
// Routing and attention of a user's TorchScript model, read from the modules
// its manifest's "roles" name (docs/user-models.md). Internal to mvp_capture;
// includes torch.
//
// Routers: the last [T, E] floating output inside a router span is its
// logits (or probabilities, when rows are non-negative and sum to 1); a
// top-k inside the span gives the chosen experts, else the top k of the
// softmax. Weights are the chosen probabilities renormalised over k, as the
// built-in model stores them. Attention: a softmax inside an attention span
// whose last dimension is the sequence is its probabilities; each text
// query's mass on each visual position, mean over heads, is summed per patch.
// A user model recomputes the whole sequence at every step, so only the
// positions new in a pass are recorded.

#include "capture/config/UserModel.h"
#include "capture/probe/OpObserver.h"
#include "core/session/Records.h"

#include <map>
#include <regex>
#include <set>
#include <string>
#include <torch/types.h>
#include <unordered_map>
#include <vector>

namespace mvp {

// answer_attention (docs/diagnostics.md §2) of a model observed through its
// ops: per decoder layer, the mean-over-heads probability each patch
// received from the queries that generate the answer — the prefill's last
// query and each decode pass's new queries. One call per layer and pass;
// rows() keeps the decode passes up to the answer's EOS.
// Attention probabilities [.., Tq, Tk] averaged over everything before their
// last two dimensions (the heads), on the host in double: what both
// attention figures read, made once per softmax with one copy at most.
struct HeadMean {
    int64_t queries = 0, keys = 0;
    std::vector<double> values; // queries × keys, row-major
    bool finite = false;        // false: empty, or some probability is not finite
    double at(int64_t q, int64_t k) const { return values[size_t(q * keys + k)]; }
};
HeadMean meanOverHeads(const torch::Tensor& probs);

class AnswerAttention {
public:
    void add(int layer, Phase phase, const HeadMean& mean, int visualFirst,
             const std::vector<int>& patchOf, int64_t firstNew, int patches);
    // `answerSteps`: the decode passes that count (HookSink::answerSteps).
    std::vector<PatchMetricRow> rows(int answerSteps) const;

private:
    std::map<int, std::vector<double>> prefill_;
    std::map<int, std::vector<std::vector<double>>> decode_; // per layer, per decode pass
};

class ScriptRoleObserver final : public OpObserver {
public:
    // `topK` of 0: take it from a top-k inside the router.
    ScriptRoleObserver(const UserModelManifest& manifest, int topK, int visualFirst, int patches);

    // Gives a new module row its role, layer and expert index (Recorder::setModuleRoles).
    void assign(ModuleRow& row);

    // Before each forward pass: positions below `firstNew` were recorded by
    // earlier passes; `sequence` positions are in this one.
    void beginPass(Phase phase, int step, int firstNew, int sequence);

    // Router scores and top-k, attention's softmax: nothing outside those modules.
    std::vector<ModuleRole> watchedRoles() const override {
        return {ModuleRole::Router, ModuleRole::Attention};
    }
    void opEnded(const std::vector<int64_t>& open, std::string_view op,
                 const std::vector<c10::IValue>& outputs) override;
    void moduleClosed(int64_t module) override;

    std::vector<RoutingRow> takeRouting();
    // attention, attention.prefill, attention.decode and answer_attention
    // (over `answerSteps` decode passes) per decoder layer.
    std::vector<PatchMetricRow> attentionMetrics(int answerSteps) const;
    bool sawRouting() const { return sawRouting_; }
    bool sawAttention() const { return sawAttention_; }
    // Why routing was not recorded where a router ran (empty when it was).
    const std::string& routingProblem() const { return routingProblem_; }

private:
    struct RouterState {
        torch::Tensor scores; // the last [T, E] output
        torch::Tensor chosen; // indices of a top-k, if one ran
    };
    const ModuleRow* innermost(const std::vector<int64_t>& open, ModuleRole role) const;
    int layerOf(const ModuleRow& m);
    void routerClosed(const ModuleRow& router, RouterState& state);
    void attention(const ModuleRow& module, const torch::Tensor& probs);

    RolePatterns patterns_;
    int topK_, visualFirst_, patches_;
    std::unordered_map<int64_t, ModuleRow> modules_;
    std::map<std::pair<ModuleRole, int64_t>, int> ordinal_; // layer of modules without one
    std::map<int64_t, RouterState> open_;
    Phase phase_ = Phase::None;
    int step_ = 0, firstNew_ = 0, sequence_ = 0;
    std::vector<RoutingRow> routing_;
    std::map<int, std::vector<double>> received_, receivedPrefill_, receivedDecode_;
    AnswerAttention answer_;
    bool sawRouting_ = false, sawAttention_ = false;
    std::string routingProblem_;
    std::vector<int> identity_; // visual position i came from patch i
};

// Adds each new text query's mean-over-heads probability on each visual
// position of `mean` (query q is position Tk − Tq + q, so a KV
// cache's single query and a whole-sequence pass alike) to the patch it came
// from: visual position visualFirst + i came from patch patchOf[i] (all and
// byPhase grow to `patches` when something is added). Queries
// below firstNew were counted by an earlier pass. False when the keys do not
// cover the visual tokens (not this sequence's attention) or the
// probabilities are not all finite (a model whose activations overflowed:
// left out, never a NaN in the heatmap).
bool addReceivedAttention(const HeadMean& mean, int visualFirst, const std::vector<int>& patchOf,
                          int64_t firstNew, int patches, std::vector<double>& all,
                          std::vector<double>& byPhase);
// Per-layer sums as patch metric rows: attention, attention.prefill, attention.decode.
std::vector<PatchMetricRow> receivedAttentionRows(const std::map<int, std::vector<double>>& all,
                                                  const std::map<int, std::vector<double>>& prefill,
                                                  const std::map<int, std::vector<double>>& decode);

// The manifest's patterns that match none of `paths`, each with the closest
// paths, as one error message; Ok when every pattern matches a module.
Status checkRolePatterns(const UserModelManifest& manifest, const std::vector<std::string>& paths);

} // namespace mvp
