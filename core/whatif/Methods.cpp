#include "core/whatif/Methods.h"

#include "core/Format.h"

#include <algorithm>
#include <array>

// lupdate reads this marker (literally: it expands no macro) in the GUI's
// translation sources; core itself never sees Qt, so the marker is only the
// text here.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace mvp {

namespace {

constexpr ValueRange kFractionOpenLow{0, 1, true, false};   // (0, 1]
constexpr ValueRange kFractionOpenHigh{0, 1, false, true};  // [0, 1)
constexpr ValueRange kFractionOpen{0, 1, true, true};       // (0, 1)
constexpr ValueRange kNone{};
constexpr ValueRange atLeast(double n) { return {n, 1e9, false, false}; }

using B = Budget;
using F = Family;
using K = ValueKind;

// clang-format off
constexpr std::array<MethodSpec, 18> kMethods{{
    {Method::PruneVisual, "prune", "--prune-visual", nullptr, K::Fraction, kFractionOpenLow, 0.4,
     "keep the round(KEEP·N) most salient visual tokens (0 < KEEP ≤ 1), in spatial order; the "
     "decoder really runs on fewer tokens",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Saliency pruning"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune Visual Tokens (keep 40 %)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune 0.4"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune visual tokens, keep"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "prune %1"),
     B::TokensSent, F::None, true, true, "mvprof.PruneVisual", false},
    {Method::FastV, "fastv", "--fastv", nullptr, K::Fraction, kFractionOpenHigh, 0.5,
     "FastV (ECCV 2024): before decoder layer K (--fastv-layer), drop the fraction R (0 ≤ R < 1) "
     "of the image tokens the last token attended least in layer K − 1, for the rest of the run",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "FastV"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "FastV: Drop Half the Image Tokens from Layer 2"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "FastV"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "FastV (from layer 2, drop the fraction least attended)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "FastV R %1"),
     B::LayerAveraged, F::DecoderDrop, true, true, "mvprof.FastV", false},
    {Method::PyramidDrop, "pdrop", "--pdrop", nullptr, K::Fraction, kFractionOpenLow, 0.5,
     "PyramidDrop (CVPR 2025): before decoder layers L/4, L/2 and 3L/4 keep the fraction λ "
     "(0 < λ ≤ 1) of the image tokens held, ranked by the last token's attention in that layer",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "PyramidDrop"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "PyramidDrop: Halve the Image Tokens at Each Stage"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "PyramidDrop"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "PyramidDrop (at L/4, L/2, 3L/4, keep the fraction most attended)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "PyramidDrop λ %1"),
     B::LayerAveraged, F::DecoderDrop, true, true, "mvprof.PyramidDrop", false},
    {Method::Dart, "dart", "--dart", nullptr, K::Count, atLeast(8), 128,
     "DART (EMNLP 2025): before decoder layer K (--fastv-layer's default, 2) keep 4 image + 4 "
     "text pivots by key L1 norm and, per pivot, the floor(N/8) image tokens least similar to it "
     "(4 + 8·floor(N/8) kept; the paper's N is 128)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "DART"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "DART: Keep 132 Image Tokens Unlike Its Pivots"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "DART"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "DART (after layer 2, keep 4 + 8·⌊N/8⌋ tokens least like 8 pivots), N"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "DART %1"),
     B::KeptAfterCut, F::DecoderDrop, false, false, nullptr, false},
    {Method::VisionZip, "visionzip", "--visionzip", nullptr, K::Count, atLeast(2), 64,
     "VisionZip (CVPR 2025): the encoder sends N visual tokens, the most attended in its last "
     "block (mean attention received: the encoder has no CLS token) plus round(N·10/64) "
     "contextual tokens merging the rest by key cosine",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "VisionZip"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "VisionZip: Send 64 Visual Tokens"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "VisionZip 64"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "VisionZip (most attended + contextual merges), tokens sent"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "VisionZip %1"),
     B::TokensSent, F::EncoderTokens, true, false, "mvprof.VisionZip", false},
    {Method::ToMe, "tome", "--tome", nullptr, K::Count, atLeast(1), 8,
     "ToMe (ICLR 2023): in every vision block, after attention, merge the R tokens with the most "
     "similar partners (bipartite soft matching on the keys, size-weighted means, proportional "
     "attention)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "ToMe"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "ToMe: Merge 8 Tokens in Every Vision Block"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "ToMe"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "ToMe (merge in every vision block), tokens merged per block"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "ToMe r %1"),
     B::TokensSent, F::EncoderTokens, false, false, nullptr, false},
    {Method::Downsample, "downsample", "--downsample", nullptr, K::Count, atLeast(1), 64,
     "the downsample baseline: the image resized so the encoder emits about N visual tokens (the "
     "nearest square grid), its position table interpolated",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Downsampled image"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Downsample the Image to 64 Visual Tokens"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Downsample"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Downsample baseline (the image resized), tokens"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "downsample to %1"),
     B::TokensSent, F::EncoderTokens, false, false, nullptr, false},
    {Method::PruneChannels, "channels", "--prune-channels", nullptr, K::Fraction, kFractionOpen, 0.3,
     "remove the least sensitive fraction F (0 < F < 1) of each vision MLP's hidden channels, "
     "sensitivity |W·∂L/∂W| with L the log-likelihood of the baseline's tokens",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Vision MLP channel pruning"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune Vision MLP Channels (30 %)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Channels 0.3"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune vision MLP channels, fraction"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "prune channels %1"),
     B::None, F::None, true, true, nullptr, false},
    {Method::W4, "w4", "--quant", "w4", K::Word, kNone, 1,
     "W4: libtorch 2.x's int4 matmul where the layer's shape suits it; without a kernel the codes "
     "are dequantised per call, the gain predicted",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W4"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Quantise Weights to W4 (AWQ)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W4"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W4, group 128, AWQ"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W4"),
     B::None, F::Quant, true, true, "mvprof.W4", true},
    {Method::W8, "w8", "--quant", "w8", K::Word, kNone, 1,
     "W8: libtorch's int8 kernels (its quantized engine on the CPU, libtorch 2.x's int8 matmul "
     "on a GPU)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W8"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Quantise Weights to W8 (AWQ)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W8"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W8, AWQ, int8 kernels where libtorch has them"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "W8"),
     B::None, F::Quant, true, true, "mvprof.W8", true},
    {Method::KvInt4, "kv", "--kv", "int4", K::Word, kNone, 1,
     "int4: merge visual tokens whose keys have cosine > the threshold (--kv-threshold), then "
     "hold the KV cache as INT4",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KV merge + INT4"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Compress the KV Cache (merge + INT4)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KV INT4"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Compress the KV cache (merge similar visual keys, INT4)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KV INT4"),
     B::None, F::None, true, true, nullptr, false},
    {Method::StreamingLlm, "streaming", "--kv-method", "streaming", K::Word, kNone, 1,
     "streaming (StreamingLLM: 4 attention sinks + recent positions, re-indexed)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "StreamingLLM"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "StreamingLLM: Keep 40 % of the KV Cache (sinks + recent)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "StreamingLLM"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "StreamingLLM (4 attention sinks + the most recent), keep"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "StreamingLLM KV %1"),
     B::KvFraction, F::KvCache, false, false, nullptr, false},
    {Method::H2O, "h2o", "--kv-method", "h2o", K::Word, kNone, 1,
     "h2o (heavy hitters by attention received + recent, evicting every step)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "H2O"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "H2O: Keep 40 % of the KV Cache (heavy hitters + recent)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "H2O 0.4"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "H2O (heavy hitters + the most recent, every step), keep"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "H2O KV %1"),
     B::KvFraction, F::KvCache, true, false, nullptr, false},
    {Method::SnapKv, "snapkv", "--kv-method", "snapkv", K::Word, kNone, 1,
     "snapkv (the prefill's last 32 queries vote, avg-pooled, once)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "SnapKV"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "SnapKV: Keep 40 % of the KV Cache (the prompt's votes)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "SnapKV"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "SnapKV (the prompt's last 32 queries vote, once), keep"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "SnapKV KV %1"),
     B::KvFraction, F::KvCache, false, false, nullptr, false},
    {Method::Kivi, "kivi", "--kv-method", "kivi", K::Word, kNone, 1,
     "kivi (2-bit keys per channel, values per token, group 32, 32 recent tokens full)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KIVI"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KIVI: Hold the KV Cache in 2 Bits"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KIVI"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KIVI (2-bit keys per channel, values per token)"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "KIVI 2-bit"),
     B::None, F::KvCache, true, false, nullptr, false},
    {Method::FreezeCold, "freeze", "--freeze-cold", nullptr, K::Switch, kNone, 1,
     "freeze experts with fewer than --freeze-min activations in two consecutive windows of "
     "--freeze-window tokens of the baseline (default 3 and 128)",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Cold-expert freezing"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Freeze Cold Experts"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Freeze"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Freeze cold experts (< 3 activations in two windows of 128 tokens)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "freeze cold experts"),
     B::None, F::None, true, true, "mvprof.FreezeCold", false},
    {Method::SkipExperts, "skip", "--skip-experts", nullptr, K::Switch, kNone, 1,
     "dynamic expert skipping (Not All Experts are Equal, ACL 2024): a token's lower-ranked "
     "expert is not run when its weight is below β × the top-1's, β each MoE layer's median "
     "w2/w1 over the baseline's tokens",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Expert skipping"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Skip Weak Second Experts (β = the median w₂/w₁)"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Skip Experts"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Skip a token's lower-ranked expert below β × the top-1's weight"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "skip experts"),
     B::None, F::None, true, true, nullptr, false},
    {Method::KeepExperts, "keep-experts", "--keep-experts", nullptr, K::Count, atLeast(1), 6,
     "static expert pruning (the same paper): each MoE layer keeps the R experts whose output on "
     "the baseline's inputs is closest to the full layer's, trying every subset; the others are "
     "released",
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Expert pruning"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune Experts, Keep 6 per MoE Layer"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Keep Experts"), QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "Prune experts, keep per MoE layer"),
     QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "keep %1 experts"),
     B::None, F::None, false, false, nullptr, false},
}};

constexpr std::array<WordOption, 3> kWordOptions{{
    {"--quant", "quantise the decoder's linears with AWQ scaling searched on the baseline's "
                "activations"},
    {"--kv", "compress the KV cache"},
    {"--kv-method", "a published KV-cache method on every decoder layer"},
}};
// clang-format on

constexpr bool inEnumOrder() {
    for (size_t i = 0; i < kMethods.size(); ++i)
        if (static_cast<size_t>(kMethods[i].method) != i) return false;
    return static_cast<size_t>(Method::KeepExperts) + 1 == kMethods.size();
}
static_assert(inEnumOrder(), "kMethods lists every method once, in Method's order");

} // namespace

bool ValueRange::contains(double v) const {
    return (minOpen ? v > min : v >= min) && (maxOpen ? v < max : v <= max);
}

std::string ValueRange::text() const {
    if (max >= 1e9) return fmt("%g", min) + " or more";
    return std::string(minOpen ? "(" : "[") + fmt("%g", min) + ", " + fmt("%g", max) +
           (maxOpen ? ")" : "]");
}

std::span<const MethodSpec> whatIfMethods() {
    return kMethods;
}

const MethodSpec& methodSpec(Method m) {
    return kMethods[static_cast<size_t>(m)];
}

std::optional<Method> methodFromKey(std::string_view key) {
    for (const auto& m : kMethods)
        if (key == m.key) return m.method;
    return std::nullopt;
}

std::string methodFlag(Method m) {
    const MethodSpec& s = methodSpec(m);
    return s.word ? std::string(s.option) + " " + s.word : std::string(s.option);
}

std::optional<Method> methodFromWord(std::string_view option, std::string_view word) {
    for (const auto& m : kMethods)
        if (m.word && option == m.option && word == m.word) return m.method;
    return std::nullopt;
}

std::span<const WordOption> wordOptions() {
    return kWordOptions;
}

std::vector<std::string> optionWords(std::string_view option) {
    std::vector<std::string> words;
    for (const auto& m : kMethods)
        if (m.word && option == m.option) words.emplace_back(m.word);
    return words;
}

const char* toString(Budget b) {
    switch (b) {
    case Budget::TokensSent:
        return "sent";
    case Budget::LayerAveraged:
        return "layer-averaged";
    case Budget::KeptAfterCut:
        return "kept after cut";
    case Budget::KvFraction:
        return "per KV head";
    case Budget::None:
        break;
    }
    return "";
}

const char* budgetDescription(Budget b) {
    switch (b) {
    case Budget::TokensSent:
        return QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "tokens sent");
    case Budget::LayerAveraged:
        return QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "layer-averaged");
    case Budget::KeptAfterCut:
        return QT_TRANSLATE_NOOP("mvp::WhatIfMethods", "kept after its cut");
    case Budget::KvFraction:
    case Budget::None:
        break;
    }
    return "";
}

const char* toString(SaliencySource s) {
    switch (s) {
    case SaliencySource::Saliency:
        return "saliency";
    case SaliencySource::FeatureNorm:
        return "feature-norm";
    case SaliencySource::Attention:
        break;
    }
    return "attention";
}

std::optional<SaliencySource> saliencySourceFromString(std::string_view s) {
    for (auto source :
         {SaliencySource::Attention, SaliencySource::Saliency, SaliencySource::FeatureNorm})
        if (s == toString(source)) return source;
    return std::nullopt;
}

} // namespace mvp
