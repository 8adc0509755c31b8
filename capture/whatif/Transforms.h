#pragma once
// What a what-if does to the model (docs/diagnostics.md §9), and what it found
// doing it. Plain C++: the CLI and tests describe transforms without torch.

#include "capture/whatif/KvPolicies.h"
#include "capture/whatif/TokenDrop.h"
#include "core/compare/Prediction.h"
#include "core/session/Records.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

// Merge visual tokens whose keys have cosine > threshold into their cluster
// mean (each layer's own keys), then hold the cache as INT4 with a scale and
// minimum per slot — a merged cluster is one slot — and head.
struct KvCompression {
    double threshold = 0.82;
    bool merge = true;
    bool int4 = true;
};

struct KvCompressionReport {
    bool applied = false;
    int64_t positions = 0;   // cached positions over all layers after the prefill
    int64_t storedSlots = 0; // slots holding them after merging ("slots" is a Qt macro)
    int64_t visualTokens = 0, visualClusters = 0; // over all layers
    // Squared sums over the prefill's positions, all layers: the relative
    // reconstruction error is sqrt(keyError / keyNorm).
    double keyError = 0, valueError = 0, keyNorm = 0, valueNorm = 0;
};

// A published KV-cache method (docs/whatif-methods.md §2) run on the
// model's own cache (capture/models/transforms/KvMethods.h). The budget is a fraction
// of the prefill's positions, EffiVLM-Bench's convention; each KV head of
// each layer keeps int(fraction · T) of the T prefill positions (H2O: its
// heavy and recent halves, each int(fraction / 2 · T), as its code rounds).
enum class KvMethodKind { StreamingLLM, H2O, SnapKV, Kivi };
const char* toString(KvMethodKind k);
struct KvMethod {
    KvMethodKind kind = KvMethodKind::H2O;
    double budget = 0.4; // StreamingLLM, H2O, SnapKV: (0, 1)
    int64_t sinks = 4;   // StreamingLLM's attention sinks (start_size)
    int64_t window = 32; // SnapKV's observation window
    int kernel = 5;      // SnapKV's pooling kernel (its avgpool default)
    kv::Pooling pooling = kv::Pooling::Average;
    kv::KiviFormat kivi; // KIVI (floatBytes: the cache's own float type)
};

// The positions each KV head keeps for a prefill of `prefill` tokens, and
// what is wrong with the method on this model, if anything (checked before a
// run: the methods cannot fail inside the model's forward). `floatBytes`: the
// cache's float type.
int64_t kvBudgetPositions(const KvMethod& method, int64_t prefill);
Status checkKvMethod(const KvMethod& method, int64_t prefill, int64_t headDim, int floatBytes);

struct ModelTransforms {
    int quantBits = 0; // 0 (none), 4 or 8: decoder linears, group-wise asymmetric with AWQ scaling
    int quantGroup = 128;
    int awqGridPoints = 11; // α ∈ {0, 1/(n−1), …, 1}; α = 0 is plain round-to-nearest
    std::optional<KvCompression> kv;
    std::optional<KvMethod> kvMethod;
    bool freezeCold =
        false; // cold-expert freezing was asked for (frozenExperts may still be empty)
    std::map<int, std::vector<int>>
        frozenExperts;        // decoder layer → experts frozen (weights released)
    double pruneChannels = 0; // fraction of each vision MLP's hidden channels removed, [0, 1)
    // Visual tokens dropped inside the decoder (FastV, PyramidDrop).
    std::optional<TokenDrop> tokenDrop;
    // VisionZip: the visual tokens the encoder sends (dominant + contextual).
    std::optional<int64_t> visionZip;
    // The downsample baseline: the image resized to this grid side of patches (0: none).
    int downsampleGrid = 0;
    // ToMe: the tokens merged in each vision block (empty: none).
    std::vector<int64_t> tomeSchedule;
    // Expert_Sparsity (capture/whatif/ExpertSparsity.h): β per MoE layer for
    // dynamic skipping (empty: none), and the experts each MoE layer keeps
    // under static pruning (0: none), chosen on the baseline's inputs.
    std::map<int, double> skipBeta;
    int keepExperts = 0;
    // The baseline's greedy tokens (prefill's, then each decode step's): the
    // sequence whose log-likelihood gives channel sensitivity and whose
    // activations calibrate AWQ.
    std::vector<int> baselineTokens;

    bool touchesModel() const {
        return quantBits || kv || kvMethod || freezeCold || pruneChannels > 0 || tokenDrop ||
               !skipBeta.empty() || keepExperts > 0 || visionZip || downsampleGrid > 0 ||
               !tomeSchedule.empty();
    }
};

} // namespace mvp
