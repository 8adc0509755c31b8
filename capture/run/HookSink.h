#pragma once
// What the model's hooks see during a run of the reference model (routing,
// attention), collected and turned into session rows: in a recorded run, and
// in an eval item's observed pass (attention only, no recorder).
//
// Internal to mvp_capture; includes torch.

#include "capture/models/Vlm.h"
#include "capture/probe/Recorder.h"
#include "capture/run/Capture.h"

#include <map>
#include <vector>

namespace mvp {

// Attention over a cache whose slots are not positions (a prefill dropped
// visual tokens, or a KV method evicted some per KV head), back in positions
// [heads, T', positions]: a position a head does not hold receives nothing
// (a zero column), a dropped token does not ask (a zero row). The pass's
// queries are the cache's last slots.
torch::Tensor spreadToPositions(const torch::Tensor& slotProbs, const KvCache& cache,
                                int queryStart);

// Collects routing and attention for one run and emits them as rows.
struct HookSink {
    HookSink(Recorder* r, const VlmConfig& c) : rec(r), cfg(c) {}
    Recorder* rec; // routing rows go to it; none: attention only
    const VlmConfig& cfg;
    Phase phase = Phase::Prefill; // of the pass under way, set by the phase marks
    int firstPatch = 1;       // sequence position of patch 0 (after BOS)
    int patches = 0;          // visual tokens the decoder sees
    std::vector<int> patchOf; // visual token → image patch
    int totalPositions = 0;
    std::vector<torch::Tensor> received; // per decoder layer [patches], float64: prefill queries
    std::vector<torch::Tensor> receivedDecode; // the same from decode-step queries
    // Per decoder layer: from the prompt's last position (which predicts the
    // first answer token), and from each decode step's query, in step order.
    std::vector<torch::Tensor> answerPrefill;
    std::vector<std::vector<torch::Tensor>> answerDecode;
    std::map<int, torch::Tensor> maps; // layer → [H, total, total]
    int pos0 = 0;                      // position of the first query in the current forward
    // Called as each phase begins: where its queries start.
    void enterPhase(Phase p, int cachedPositions);
    int64_t skippedSlots = 0;          // (token, rank) pairs expert skipping left unrun

    bool isVisual(int pos) const { return pos >= firstPatch && pos < firstPatch + patches; }
    void routing(int layer, const torch::Tensor& experts, const torch::Tensor& weights,
                 const torch::Tensor& positions);
    void attention(int layer, const torch::Tensor& slotProbs, int queryStart, const KvCache& cache);
    // "attention" over the whole run, and split by phase; "answer_attention"
    // from the queries that generate the answer: the prompt's last position
    // and the first `answerSteps` decode steps (docs/format.md).
    Batch metricRows(int answerSteps = 0) const;
    // The decode steps whose queries generate the answer and its EOS: up to
    // the first EOS among the tokens `chosen` (prefill's first), else all.
    static int answerSteps(const std::vector<int>& chosen);
    Batch mapRows(int positions) const;

private:
    void addAnswerAttention(int layer, const torch::Tensor& visualColumns, int64_t n);
};

// The sink's buffers for the positions and patches of this run.
void sizeSink(HookSink& sink, const PreparedCapture& prep, const std::vector<int>& seen);

// The model's hooks into `sink`: routing and attention, where probes are on.
ForwardHooks probeHooks(Recorder& rec, HookSink& sink, bool probes);

} // namespace mvp
