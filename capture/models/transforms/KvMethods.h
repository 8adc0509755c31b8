#pragma once
// The published KV-cache methods (capture/whatif/KvPolicies.h) on the model's
// own caches: StreamingLLM, H2O and SnapKV evict per KV head and compact the
// cache so every head holds the same number of slots (KvCache::positionOfSlot
// says which position each head's slot holds); KIVI stores keys and values in
// its packed format and reads them back dequantised.
//
// Grouped-query attention: the papers' code is per attention head; here a KV
// head is shared by a group of query heads, so a KV head's score is the sum of
// its group's scores (kvpress averages, which ranks the same).
//
// Internal to mvp_capture; includes torch.

#include "capture/whatif/Transforms.h"

#include <memory>
#include <torch/torch.h>
#include <utility>

namespace mvp {

struct KvCache;

// KIVI's storage of one layer's cache (jy-yuan/KIVI, models/llama_kivi.py):
// keys quantised per channel in groups of `group` tokens, values per token in
// groups of `group` channels, codes packed `bits` apiece into bytes, a scale
// and a minimum per group in the cache's float type; the keys of an
// unfinished block of `residual` tokens and the last `residual` values stay in
// full precision. Each tensor holds exactly what is stored, so bytes() is the
// format's size.
struct KiviStore {
    kv::KiviFormat format;
    torch::Tensor keyCodes, keyScale, keyMin;       // [kvHeads, headDim, n·bits/8], [.., n/group]
    torch::Tensor valueCodes, valueScale, valueMin; // [n, kvHeads, headDim·bits/8], [.., hd/group]
    torch::Tensor keyFull, valueFull;               // [n, kvHeads, headDim]
    int64_t quantisedKeys = 0, quantisedValues = 0;

    // Appends [T, kvHeads, headDim] keys and values and returns every
    // position's as this pass's attention reads them: the stored ones
    // dequantised, the pass's own in full precision (KIVI attends before it
    // quantises); then quantises what the format no longer holds in full.
    std::pair<torch::Tensor, torch::Tensor> append(const torch::Tensor& keys,
                                                   const torch::Tensor& values);
    int64_t bytes() const;
};

// KIVI's group quantisation of x [..., n] along its last dimension, `group`
// values per group: scale = (max − min) / (2^bits − 1), code = round(clamp((x −
// min) / scale, 0, 2^bits − 1)) (a constant group: codes 0), packed
// 8 / bits codes per byte, the first in the lowest bits.
struct KiviCodes {
    torch::Tensor codes, scale, minimum;
};
KiviCodes kiviQuantise(const torch::Tensor& x, int bits, int64_t group);
torch::Tensor kiviDequantise(const KiviCodes& c, int bits, int64_t group); // x's shape and dtype

// What one layer's cache does under a KV method during a run.
struct KvMethodState {
    KvMethod method;
    int64_t budget = -1; // positions per KV head, fixed by the prefill's length
    int64_t heavy = 0, recent = 0;
    std::unique_ptr<kv::H2OCache> h2o;
    std::unique_ptr<KiviStore> kivi;

    // StreamingLLM stores keys before RoPE and rotates them at their slots.
    bool rotatesInCache() const { return method.kind == KvMethodKind::StreamingLLM; }
};

// Installs a fresh state for `method` on an emptied cache.
void installKvMethod(KvCache& cache, const KvMethod& method);

// After a pass that appended `added` positions and attended with `probs`
// [heads, added, slots]: evicts as the method says (StreamingLLM and H2O
// after every pass, SnapKV once, after the prefill).
void afterKvPass(KvCache& cache, const torch::Tensor& probs, int64_t added);

// The run's rows about the method: the budget and what each head holds.
std::vector<RunMetricRow> kvMethodMetrics(const KvCache& anyLayer, int layers);

} // namespace mvp
