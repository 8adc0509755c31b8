#pragma once
// The built-in reference vision-language MoE model, in libtorch's C++ frontend:
// ViT encoder (pre-LN, learned positions) → 2-layer MLP projector → decoder LM
// (RMSNorm, RoPE, grouped-query attention with a KV cache, SwiGLU FFN, MoE
// layers with a top-k softmax router). Batch size one; activations are
// [tokens, features]. Weights are drawn from a generator seeded by the config,
// so the same config always gives the same model.
//
// This header includes torch: include it only from capture's model TUs.

#include "capture/config/Config.h"
#include "capture/probe/Recorder.h"
#include "capture/whatif/Transforms.h"
#include "core/session/Records.h"

#include <functional>
#include <map>
#include <memory>
#include <torch/torch.h>
#include <vector>

namespace mvp {

struct KvCache;

// What an instrumented run wants to see besides spans and ops. Every member is
// optional; a default-constructed Hooks is the uninstrumented path.
struct ForwardHooks {
    Recorder* recorder = nullptr;
    // Per MoE layer: the chosen experts [T, k] (int64; −1 where skipping left a rank
    // unrun) and their renormalised weights [T, k];
    // `positions` (int64 [T]) where the rows are not the pass's contiguous positions (a
    // prefill whose visual tokens are being dropped), else undefined.
    std::function<void(int layer, const torch::Tensor& experts, const torch::Tensor& weights,
                       const torch::Tensor& positions)>
        routing;
    // Per decoder layer: attention probabilities [heads, T, S] of queries starting at position
    // `queryStart`, over the cache's S slots (positions, unless `cache.compressed()`).
    std::function<void(int layer, const torch::Tensor& probs, int queryStart, const KvCache& cache)>
        attention;
    // The vision encoder's last block: its attention [heads, N, N] and keys
    // [heads, N, headDim] (what VisionZip reads).
    std::function<void(const torch::Tensor& probs, const torch::Tensor& keys)> lastVisionAttention;
    // Account KV compression's reconstruction error in the model's kvReport
    // (a captured run; the time is `recorder`'s ProbeWork). Timed passes skip it.
    bool measureKvError = false;
};

class VlmModel {
public:
    explicit VlmModel(const VlmConfig& config);
    ~VlmModel();

    const VlmConfig& config() const;
    // The probe hierarchy (ids, paths, kinds, parameter counts).
    const std::vector<ModuleRow>& modules() const;
    int64_t parameterCount() const;

    // [1, 3, S, S] normalised pixels → [patches, vision dim].
    torch::Tensor encodeImage(const torch::Tensor& pixels, const ForwardHooks& hooks);
    // [patches, vision dim] → [patches, llm dim].
    torch::Tensor project(const torch::Tensor& features, const ForwardHooks& hooks);
    // Runs the decoder over the token `ids`, with `visual` [N, llm dim] (if
    // defined) inserted before ids[visualAt], appending to the KV cache.
    // Returns the logits of the last position [vocab], or with `allPositions`
    // of every position [T, vocab].
    torch::Tensor forward(const std::vector<int>& ids, const torch::Tensor& visual, size_t visualAt,
                          const ForwardHooks& hooks, bool allPositions = false);
    // Teacher forcing of several continuations of one prefix in one pass
    // (training): `prefixIds`, then `visual` [N, llm dim], then each branch's
    // ids, packed. A branch sees the prefix and itself only, at the positions
    // it would have alone, so each branch's rows equal a forward() over
    // prefix + branch. Returns every row's logits [prefix + Σ branches, vocab];
    // `hooks.attention` sees the packed rows and columns. Clears the KV cache.
    torch::Tensor forwardBranches(const std::vector<int>& prefixIds, const torch::Tensor& visual,
                                  const std::vector<std::vector<int>>& branches,
                                  const ForwardHooks& hooks);
    // Casts weights, position tables, routing bias and the KV cache to `dtype`.
    void setDtype(torch::ScalarType dtype);
    // Moves them to `device` (cpu, cuda:N); inputs are moved there by the
    // model's own methods, and what the hooks read comes back to the host.
    void setDevice(const torch::Device& device);
    torch::Device device() const;
    // Waits for the device's queued work (a CUDA stream), so that a phase's
    // time includes its kernels; nothing on the CPU.
    void settle() const;
    // Replaces the seeded weights with a safetensors file's (models/Weights.h):
    // returns its SHA-256. Before setDtype/setDevice.
    Result<std::string> loadWeights(const WeightsSource& source);
    // Writes the weights as they are now (float32).
    Status saveWeights(const std::string& path,
                       const std::map<std::string, std::string>& metadata = {}) const;
    // Clears the KV cache.
    void reset();
    int cachedPositions() const;

    // Storage of every weight tensor now (quantised storage included), and of
    // the KV cache's used slots, in bytes.
    int64_t weightBytes() const;
    int64_t kvBytes() const;

    // The layers, for the what-if transforms (capture/models/VlmLayers.h).
    struct Impl;
    Impl& impl();

private:
    std::unique_ptr<Impl> d;
};

} // namespace mvp
