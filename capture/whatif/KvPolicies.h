#pragma once
// The published KV-cache methods practitioners compare against
// (docs/whatif-methods.md §2): which cached positions each keeps,
// and what KIVI's format stores — computed exactly as each paper's own code
// does, on plain numbers, so a test can work every case by hand. Plain C++.
// Wiring them into a what-if run (per-head masks on the model's KV cache)
// builds on these.
//
// Ties are broken towards the earlier position (torch.topk leaves them
// unspecified); positions are returned in ascending order.

#include "core/Result.h"

#include <cstdint>
#include <vector>

namespace mvp::kv {

using Positions = std::vector<int64_t>;

// The `count` indices of the largest values (ties: the earlier index), ascending.
Positions topIndices(const std::vector<double>& values, int64_t count);

// StreamingLLM (Xiao et al., ICLR 2024; mit-han-lab/streaming-llm,
// streaming_llm/kv_cache.py, StartRecentKVCache): the first `sinks`
// positions (the attention sinks) and the last `recent`; every position when
// there are no more than sinks + recent.
Positions streamingKeep(int64_t positions, int64_t sinks, int64_t recent);

// H2O (Zhang et al., NeurIPS 2023; FMInference/H2O,
// h2o_hf/utils_real_drop/modify_llama.py, H2OKVCache_LayerWise): per head,
// the attention every cached position has received so far, summed over the
// queries of every pass; after each pass the cache keeps the `recent` newest
// positions and, of the others, the `heavy` with the largest sums ("heavy
// hitters"), evicting the rest for good.
class H2OCache {
public:
    H2OCache(int heads, int64_t heavy, int64_t recent);
    // One forward pass that appended `added` positions: received[h][j] is
    // the attention head h's queries of this pass gave to its j-th cached
    // slot (the kept positions in order, then the added ones), summed over
    // those queries. Then evicts down to heavy + recent.
    Status step(const std::vector<std::vector<double>>& received, int64_t added);
    // Per head, the original positions kept now, ascending.
    const std::vector<Positions>& kept() const { return kept_; }
    const std::vector<std::vector<double>>& scores() const { return scores_; }

private:
    int64_t heavy_, recent_, positions_ = 0;
    std::vector<Positions> kept_;
    std::vector<std::vector<double>> scores_; // per head, per kept slot
};

// SnapKV (Li et al., NeurIPS 2024; FasterDecoding/SnapKV,
// snapkv/monkeypatch/snapkv_utils.py, SnapKVCluster.update_kv), at the end of
// the prefill of `positions` tokens: votes[h][p], for the positions p before
// the observation window (the last `window` tokens), is the softmax
// attention the window's queries give p, summed over them. The votes are
// pooled over neighbouring positions (avg_pool1d or max_pool1d, odd
// `kernel`, stride 1, padding kernel / 2; the average counts the padding as
// zeros, as PyTorch's default does), and each head keeps the capacity −
// window positions with the largest pooled votes plus the window itself.
// Fewer than `capacity` positions: all are kept.
enum class Pooling { Average, Max };
Result<std::vector<Positions>> snapKvKeep(const std::vector<std::vector<double>>& votes,
                                          int64_t positions, int64_t window, int64_t capacity,
                                          int kernel, Pooling pooling);

// KIVI (Liu et al., ICML 2024; jy-yuan/KIVI, models/llama_kivi.py and
// quant/new_pack.py): keys quantised per channel (groups of `group` tokens
// along each channel), values per token (groups of `group` channels), codes
// packed `bits` apiece, a scale and a minimum per group in the cache's float
// type; the newest tokens stay in full precision: keys until `residual` of
// them fill a block, values always the last `residual`.
struct KiviFormat {
    int bits = 2;
    int64_t group = 32, residual = 32;
    int floatBytes = 2; // float16: the scale, minimum and residual tokens
};
struct KiviSplit {
    int64_t quantisedKeys = 0, fullKeys = 0, quantisedValues = 0, fullValues = 0;
};
// How `tokens` cached tokens are held (the same after a prefill of that
// length as after any mix of prefill and decode steps reaching it).
KiviSplit kiviSplit(int64_t tokens, const KiviFormat& f);
// Bytes one KV head of one layer holds for `tokens` tokens of `headDim` channels.
Result<int64_t> kiviBytes(int64_t tokens, int64_t headDim, const KiviFormat& f);

// One group as KIVI quantises it: scale = (max − min) / (2^bits − 1), code =
// round(clamp((x − min) / scale, 0, 2^bits − 1)); x ≈ code · scale + min. A
// constant group has scale 0 and codes 0 (KIVI's own code divides by zero).
struct GroupCode {
    std::vector<uint8_t> codes;
    double scale = 0, minimum = 0;
};
GroupCode kiviQuantise(const std::vector<double>& group, int bits);

} // namespace mvp::kv
