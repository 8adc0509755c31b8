#pragma once
// The reference model's layers and VlmModel's private state, shared by the
// model (Vlm.cpp, VlmLayers.cpp) and the what-if transforms (capture/whatif/),
// which rewrite weights, routing and the KV cache in place.
//
// Internal to mvp_capture; includes torch.

#include "capture/models/Vlm.h"
#include "capture/models/transforms/Int4Kernel.h"
#include "capture/models/transforms/Int8Kernel.h"
#include "capture/models/transforms/TensorQuant.h"
#include "capture/models/transforms/VisualTokenMerge.h"
#include "capture/whatif/TokenDrop.h"
#include "capture/whatif/VisionZip.h"

#include <limits>
#include <map>
#include <memory>
#include <optional>

namespace mvp {

// Weights stored group-wise quantised (capture/models/transforms/Quantise.cpp): the
// codes of W·diag(inputScale), where inputScale is the activation-aware
// per-input-channel scale (AWQ); the layer divides its input by it.
// Or, for W8 where libtorch has a quantized engine, the weight per output
// channel as symmetric int8 (`int8`, during the search) packed for the
// engine's quantized::linear_dynamic (`packed`); `codes` then stay empty.
// Or, for W4 where libtorch has an int4 matmul (Int4Kernel.h), the codes
// re-laid out for it (`int4`); `codes` are then released. Or, for W8 off
// the CPU, symmetric int8 codes for libtorch's int8 matmul (`int8Matmul`,
// Int8Kernel.h; dequantised per call where it has none).
struct KvMethodState;

struct QuantisedWeight {
    GroupCodes codes;
    torch::Tensor inputScale; // float16 [cols]; undefined for plain round-to-nearest
    torch::Tensor int8;       // qint8 per channel, released once packed
    c10::IValue packed;       // the engine's packed weight (and bias)
    c10::IValue packedSmall;  // another engine's, for calls of few rows (Int8Engine.h); or None
    int64_t packedBytes =
        0; // int8 codes + per-channel float64 scale and int64 zero point, per pack
    std::optional<Int4Weight> int4;       // W4 on libtorch's int4 kernel
    std::optional<Int8Weight> int8Matmul; // W8 for an int8 matmul (Int8Kernel.h)
    bool onEngine() const { return !packed.isNone(); }
    int64_t bytes() const;
};

// A linear layer whose weight may be held quantised (dequantised inside each
// call, or run by the int8 engine) or recorded for calibration.
struct LinImpl : torch::nn::Module {
    torch::Tensor weight, bias; // weight is released once quantised
    std::shared_ptr<QuantisedWeight> quant;
    std::vector<torch::Tensor>* calibration = nullptr; // when set, inputs are appended

    LinImpl(int in, int out, bool hasBias);
    torch::Tensor forward(const torch::Tensor& x);
    int64_t weightBytes() const; // what is stored now, quantised or not
};
TORCH_MODULE(Lin);

// What a ViT block's attention saw, for the methods that read it (VisionZip).
struct VitTap {
    torch::Tensor probs; // [heads, N, N]
    torch::Tensor keys;  // [heads, N, headDim]
};

struct VitBlockImpl : torch::nn::Module {
    int heads;
    torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
    Lin qkv{nullptr}, proj{nullptr}, fc1{nullptr}, fc2{nullptr};
    int64_t id = 0, attnId = 0, mlpId = 0;

    explicit VitBlockImpl(const VisionConfig& c);
    // `tome`: ToMe's proportional attention and the merge after attention (block `index`).
    torch::Tensor forward(torch::Tensor x, Recorder* rec, VitTap* tap = nullptr,
                          ToMeState* tome = nullptr, size_t index = 0);
};
TORCH_MODULE(VitBlock);

struct RmsNormImpl : torch::nn::Module {
    torch::Tensor weight;
    explicit RmsNormImpl(int dim);
    torch::Tensor forward(const torch::Tensor& x);
};
TORCH_MODULE(RmsNorm);

struct SwiGluImpl : torch::nn::Module {
    Lin w1{nullptr}, w2{nullptr}, w3{nullptr};
    SwiGluImpl(int dim, int hidden);
    torch::Tensor forward(const torch::Tensor& x);
};
TORCH_MODULE(SwiGlu);

// Rotary position embedding (rotate-half form) for positions [0, maxSeq).
struct Rope {
    torch::Tensor cos, sin; // [maxSeq, headDim]
    Rope(int maxSeq, int headDim, double theta);
    // x: [T, heads, headDim] at positions [pos0, pos0 + T).
    torch::Tensor apply(const torch::Tensor& x, int pos0) const;
    // x: [T, heads, headDim] at `positions` (int64 [T]).
    torch::Tensor apply(const torch::Tensor& x, const torch::Tensor& positions) const;
};

// The KV cache of one attention layer. Slots normally equal positions; after
// KV compression (capture/models/transforms/KvCompress.cpp) merged visual tokens share a
// slot, and with INT4 the slots are stored as packed codes.
struct KvCache {
    int maxSeq = 0, kvHeads = 0, headDim = 0;
    torch::ScalarType dtype = torch::kFloat;
    torch::Device device = torch::kCPU;
    int slots = 0;      // slots in use
    torch::Tensor k, v; // float32 [maxSeq, kvHeads, headDim]; released under INT4
    // Compressed state (both undefined before compression).
    torch::Tensor logCount;       // float32 [maxSeq]: log(tokens merged into the slot)
    torch::Tensor slotOfPosition; // int64 [positions]: which slot holds each position
    // INT4 storage: codes [maxSeq, kvHeads, headDim/2], a scale and minimum per slot and head.
    bool int4 = false;
    GroupCodes qk, qv;
    // Once visual tokens were dropped (capture/models/transforms/VisualTokenDrop.cpp) or
    // evicted (capture/models/transforms/KvMethods.cpp): int64 [slots, kvHeads], the
    // sequence position each KV head's slot holds; undefined: slot = position.
    torch::Tensor positionOfSlot;
    // A published KV method's state (capture/models/transforms/KvMethods.h); null: none.
    std::shared_ptr<KvMethodState> method;

    void reset(); // also drops the KV method's state
    // Appends [T, kvHeads, headDim] keys and values; returns every slot's [S, kvHeads, headDim].
    std::pair<torch::Tensor, torch::Tensor> append(const torch::Tensor& keys,
                                                   const torch::Tensor& values);
    bool compressed() const { return slotOfPosition.defined(); }
    // Notes the sequence positions [T] of the slots just appended, once slots
    // and positions differ.
    void notePositions(const torch::Tensor& positions);
    int64_t bytes() const; // the used slots' storage
};

// A decoder layer's pass over rows that are not the contiguous positions
// [pos0, pos0 + T): a prefill whose visual tokens are being dropped.
struct LayerPass {
    torch::Tensor ropePositions;     // int64 [T]: each row's RoPE position
    torch::Tensor sequencePositions; // int64 [T]: each row's place in the sequence
    // When set, receives the last row's attention over the slots, mean over heads [S].
    torch::Tensor* lastQueryAttention = nullptr;
    // When set, receives the rows' keys after RoPE [T, kvHeads, headDim] (DART).
    torch::Tensor* keys = nullptr;
    // bool [T, S]: pairs of query row and slot masked besides the causal mask
    // (sequences packed into one pass, VlmModel::forwardBranches); or undefined.
    torch::Tensor blocked;
};

struct AttentionImpl : torch::nn::Module {
    int heads, kvHeads, headDim;
    Lin wq{nullptr}, wk{nullptr}, wv{nullptr}, wo{nullptr};
    KvCache cache;

    explicit AttentionImpl(const LlmConfig& c);
    torch::Tensor forward(const torch::Tensor& x, int pos0, const Rope& rope, int layer,
                          const ForwardHooks& hooks, const LayerPass* pass = nullptr);
};
TORCH_MODULE(Attention);

struct MoeImpl : torch::nn::Module {
    int topK;
    Lin gate{nullptr};
    torch::Tensor bias;   // routing skew, fixed (not a parameter)
    torch::Tensor frozen; // bool [experts] once experts are frozen or pruned; undefined before
    // Dynamic skipping (capture/whatif/ExpertSparsity.h): ranks ≥ 1 whose
    // weight is below skipBeta × the top-1's are not run; negative: off.
    double skipBeta = -1;
    std::vector<SwiGlu> experts;
    int64_t gateId = 0;
    std::vector<int64_t> expertIds;

    MoeImpl(const LlmConfig& c, const std::vector<int>& ranking, double skew);
    torch::Tensor forward(const torch::Tensor& x, Recorder* rec, int layer,
                          const ForwardHooks& hooks, const LayerPass* pass = nullptr);
};
TORCH_MODULE(Moe);

struct DecoderLayerImpl : torch::nn::Module {
    RmsNorm norm1{nullptr}, norm2{nullptr};
    Attention attn{nullptr};
    SwiGlu ffn{nullptr};
    Moe moe{nullptr};
    int64_t id = 0, attnId = 0, ffnId = 0;

    DecoderLayerImpl(const LlmConfig& c, const std::vector<int>* ranking, double skew);
    torch::Tensor forward(torch::Tensor x, int pos0, const Rope& rope, int layer,
                          const ForwardHooks& hooks, const LayerPass* pass = nullptr);
};
TORCH_MODULE(DecoderLayer);

// Assigns probe ids and the hierarchical names of docs/diagnostics.md §1.
struct Registry {
    std::vector<ModuleRow> rows;
    int64_t add(const std::string& path, const std::string& kind, std::optional<int64_t> parent,
                int64_t params = 0, ModuleRole role = ModuleRole::None,
                std::optional<int> layer = std::nullopt, std::optional<int> expert = std::nullopt) {
        const int64_t id = int64_t(rows.size()) + 1;
        rows.push_back(ModuleRow{id, path, kind, parent, params, role, layer, expert});
        return id;
    }
    void setParams(int64_t id, int64_t params) { rows[size_t(id - 1)].params = params; }
};

struct VlmModel::Impl : torch::nn::Module {
    VlmConfig cfg;
    Registry reg;
    // vision
    torch::nn::Conv2d patchEmbed{nullptr};
    torch::Tensor posEmbed;
    std::vector<VitBlock> vit;
    torch::nn::LayerNorm vitNorm{nullptr};
    // projector
    Lin proj1{nullptr}, proj2{nullptr};
    // decoder
    torch::nn::Embedding tokEmbed{nullptr};
    std::vector<DecoderLayer> layers;
    RmsNorm finalNorm{nullptr};
    Lin lmHead{nullptr};
    std::unique_ptr<Rope> rope;
    int cached = 0;
    int64_t idVision = 0, idPatch = 0, idVitNorm = 0, idProj = 0, idLlm = 0, idEmbed = 0,
            idNorm = 0, idHead = 0;
    // KV compression applied after each prefill (capture/models/transforms/KvCompress.cpp).
    std::optional<KvCompression> kvCompression;
    KvCompressionReport kvReport;
    // A published KV method on every layer's cache, fresh for each run (reset()).
    std::optional<KvMethod> kvMethod;
    // Visual tokens dropped inside the decoder during each prefill
    // (capture/models/transforms/VisualTokenDrop.cpp), and what the last prefill kept:
    // per stage, the indices into the visual tokens it received, ascending.
    std::optional<TokenDrop> tokenDrop;
    std::vector<std::vector<int64_t>> keptVisual;
    // VisionZip after the encoder (capture/models/transforms/VisualTokenMerge.cpp), and
    // what the last image encoded chose.
    std::optional<VisionZipSplit> visionZip;
    VisionZipSelection lastZip;
    // ToMe in the encoder's blocks: r per block, and the patches the last
    // image's tokens stand for, in the order they leave the encoder.
    std::vector<int64_t> tomeSchedule;
    std::vector<int64_t> lastTomePatches;

    explicit Impl(const VlmConfig& c);
    void initWeights();
    // The learned position table for a `side` × `side` patch grid: the
    // trained one, or it bilinearly interpolated (align_corners false) to a
    // smaller grid (the downsample baseline, capture/whatif/Downsample.h).
    torch::Tensor positionTable(int64_t side) const;
};

int64_t countParams(const torch::nn::Module& m);

} // namespace mvp
