#pragma once
// Configuration of the built-in reference vision-language MoE model, and its
// presets. Plain C++: the CLI validates options before any torch code runs.

#include "core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct VisionConfig {
    int imageSize = 224; // model input is imageSize × imageSize
    int patch = 14;
    int dim = 64, layers = 2, heads = 4, mlp = 256;
    int gridSide() const { return imageSize / patch; }
    int patches() const { return gridSide() * gridSide(); }
};

struct LlmConfig {
    int vocab = 320; // byte-level: 256 bytes + specials, padded
    int dim = 64, layers = 2, heads = 4, kvHeads = 2;
    int ffn = 128;       // dense SwiGLU hidden size
    int expertFfn = 128; // per-expert SwiGLU hidden size
    int experts = 4, topK = 2;
    std::vector<int> moeLayers; // which decoder layers use MoE instead of a dense FFN
    int maxSeq = 512;
    double ropeTheta = 10000.0;
    int headDim() const { return dim / heads; }
    bool isMoe(int layer) const;
};

// A parameter of the built-in model: the name and shape a weights file
// holds it under (docs/weights.md).
struct WeightTensor {
    std::string name; // "layer0.moe.expert1.w2.weight"
    std::vector<int64_t> shape;
    int64_t elements() const;
};

// Where the built-in model's weights come from: a safetensors file, or
// (path empty) the initialisation seeded by `seed`.
struct WeightsSource {
    std::string path;
    // The file's SHA-256 (hex): set once loaded; set beforehand (a what-if
    // re-running its baseline) the file must still hash to it.
    std::string sha256;
};

struct VlmConfig {
    std::string preset; // "ref:tiny"
    VisionConfig vision;
    int projectorHidden = 64;
    LlmConfig llm;
    double routingSkew = 1.0; // expert popularity ∝ (rank + 1)^−skew
    uint64_t seed = 0;
    WeightsSource weights;
    // Per MoE layer, the experts from most to least favoured by the skew.
    std::vector<std::vector<int>> expertRanking;

    // Every parameter in the model's own order (VlmModel's named parameters;
    // a test holds the two equal).
    std::vector<WeightTensor> weightTensors() const;
    int64_t parameterCount() const;
    std::string toJson() const;
};

struct PresetOverrides {
    std::optional<int> layers; // truncates vision and decoder depth
    std::optional<double> routingSkew;
    std::optional<uint64_t> seed;
    std::optional<int> maxSeq;                // the KV cache's capacity in positions
    std::optional<std::string> weights;       // a safetensors file replacing the seeded weights
    std::optional<std::string> weightsSha256; // what that file must hash to
};

// "ref:tiny", "ref:small", "ref:llava-moe-7b". Unknown names list the known ones.
Result<VlmConfig> presetConfig(const std::string& name, const PresetOverrides& o = {});
std::vector<std::string> presetNames();

// Byte-level tokenizer: byte b ↦ b; specials follow.
namespace tokens {
inline constexpr int kBos = 256;
inline constexpr int kEos = 257;
std::vector<int> encode(const std::string& text);
// The text up to the first EOS (a capture decodes a fixed number of steps;
// what follows EOS is not part of the answer); other specials are dropped.
std::string decode(const std::vector<int>& ids);
} // namespace tokens

} // namespace mvp
