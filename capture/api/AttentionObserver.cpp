#include "capture/api/AttentionObserver.h"

#include "capture/run/ScriptRoles.h"

#include <algorithm>
#include <limits>

namespace mvp {

void AttentionObserver::noteModule(int64_t id, ModuleRole role, std::optional<int> layer) {
    if (role != ModuleRole::Attention || modules_.count(id)) return;
    // No number in its path: the order in which attention modules first ran.
    modules_[id] = Module{role, layer ? *layer : ordinals_[role]++};
}

void AttentionObserver::setVisual(int first, std::vector<int> patchOf, int patches) {
    visualFirst_ = first;
    patchOf_ = std::move(patchOf);
    patches_ = patches;
}

void AttentionObserver::beginPass(Phase phase) {
    seen_ = std::max(seen_, passKeys_);
    firstNew_ = seen_;
    passKeys_ = 0;
    phase_ = phase;
}

void AttentionObserver::opEnded(const std::vector<int64_t>& open, std::string_view op,
                                const std::vector<c10::IValue>& outputs) {
    if (!readsOp(op) || idle() || outputs.empty() || !outputs[0].isTensor())
        return;
    const Module* attention = nullptr;
    for (auto it = open.rbegin(); it != open.rend() && !attention; ++it)
        if (const auto m = modules_.find(*it); m != modules_.end()) attention = &m->second;
    const torch::Tensor probs = outputs[0].toTensor();
    if (!attention || probs.dim() < 2 || !probs.is_floating_point()) return;
    auto& all = all_[attention->layer];
    auto& byPhase = (phase_ == Phase::Decode ? decode_ : prefill_)[attention->layer];
    const HeadMean mean = meanOverHeads(probs);
    if (addReceivedAttention(mean, visualFirst_, patchOf_, firstNew_, patches_, all, byPhase)) {
        passKeys_ = std::max(passKeys_, probs.size(-1));
        saw_ = true;
        answer_.add(attention->layer, phase_, mean, visualFirst_, patchOf_, firstNew_, patches_);
    }
}

std::vector<PatchMetricRow> AttentionObserver::metrics() const {
    auto rows = receivedAttentionRows(all_, prefill_, decode_);
    // The host decides when generation ends (its tokenizer's EOS): every
    // decode pass it ran generated the answer.
    for (auto& r : answer_.rows(std::numeric_limits<int>::max()))
        rows.push_back(std::move(r));
    return rows;
}

} // namespace mvp
