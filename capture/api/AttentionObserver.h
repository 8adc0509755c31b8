#pragma once
// Attention received by the visual tokens in a run a host drives through the
// C ABI (the Python package): a softmax inside a module whose role is
// attention, in the prefill or a decode step, whose keys cover the declared
// visual tokens, is that module's attention probabilities. Each new text
// query's mean-over-heads mass on each visual position is summed per patch
// (ScriptRoles.h's addReceivedAttention), per decoder layer. A pass's
// queries are its last positions, so a KV cache and whole-sequence passes
// both work; positions an earlier pass saw are not counted again. Internal to
// mvp_capture; includes torch.

#include "capture/probe/OpObserver.h"
#include "capture/run/ScriptRoles.h"
#include "core/session/Records.h"

#include <map>
#include <string>
#include <vector>

namespace mvp {

class AttentionObserver final : public OpObserver {
public:
    // A module call began: its role and decoder layer (the Recorder's rule).
    void noteModule(int64_t id, ModuleRole role, std::optional<int> layer);
    // Visual position first + i came from patch patchOf[i] of a grid of `patches`.
    void setVisual(int first, std::vector<int> patchOf, int patches);
    void beginPass(Phase phase);

    // Softmax probabilities are read inside attention modules only.
    std::vector<ModuleRole> watchedRoles() const override { return {ModuleRole::Attention}; }
    bool readsOp(std::string_view op) const override {
        return op == "aten::softmax" || op == "aten::_softmax";
    }
    // Plain loops over the probabilities (meanOverHeads guards its copies).
    bool runsOps() const override { return false; }
    // No visual token declared, or outside a prefill and a decode pass.
    bool idle() const override {
        return patchOf_.empty() || (phase_ != Phase::Prefill && phase_ != Phase::Decode);
    }

    void opEnded(const std::vector<int64_t>& open, std::string_view op,
                 const std::vector<c10::IValue>& outputs) override;
    void moduleClosed(int64_t) override {}

    // attention, attention.prefill, attention.decode and answer_attention
    // (the prefill's last query and every decode pass's) per decoder layer.
    std::vector<PatchMetricRow> metrics() const;
    bool sawAttention() const { return saw_; }

private:
    struct Module {
        ModuleRole role = ModuleRole::None;
        int layer = 0;
    };
    std::map<int64_t, Module> modules_;
    std::map<ModuleRole, int> ordinals_; // layers of attention modules without a number
    int visualFirst_ = 0, patches_ = 0;
    std::vector<int> patchOf_;
    Phase phase_ = Phase::None;
    int64_t firstNew_ = 0, seen_ = 0, passKeys_ = 0;
    std::map<int, std::vector<double>> all_, prefill_, decode_;
    AnswerAttention answer_;
    bool saw_ = false;
};

} // namespace mvp
