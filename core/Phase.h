#pragma once
// The phases a run passes through and the modalities of its token positions.
// Strings only at the edges: the session file, JSON, the CLI and GUI text.

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace mvp {

// In the order a run passes through them. `None` is outside every phase: an
// op or span a user's model ran before its first phase began (stored as "").
enum class Phase : unsigned char { None, Preprocess, H2d, Vision, Projector, Prefill, Decode };

inline constexpr std::array<Phase, 6> kPhases = {Phase::Preprocess, Phase::H2d,     Phase::Vision,
                                                 Phase::Projector,  Phase::Prefill, Phase::Decode};

constexpr std::string_view toString(Phase p) {
    switch (p) {
    case Phase::None:
        return "";
    case Phase::Preprocess:
        return "preprocess";
    case Phase::H2d:
        return "h2d";
    case Phase::Vision:
        return "vision";
    case Phase::Projector:
        return "projector";
    case Phase::Prefill:
        return "prefill";
    case Phase::Decode:
        return "decode";
    }
    return "";
}

// "" reads as None; a name that is no phase as nullopt.
constexpr std::optional<Phase> phaseFromString(std::string_view s) {
    if (s.empty()) return Phase::None;
    for (const Phase p : kPhases)
        if (toString(p) == s) return p;
    return std::nullopt;
}

inline std::string phaseName(Phase p) {
    return std::string(toString(p));
}

// The LLM's phases: the ones with token positions, routing and attention.
constexpr bool isLlmPhase(Phase p) {
    return p == Phase::Prefill || p == Phase::Decode;
}

// What a token position of the LLM's sequence holds.
enum class Modality : unsigned char { Text, Visual };

constexpr std::string_view toString(Modality m) {
    return m == Modality::Visual ? "visual" : "text";
}

inline std::string modalityName(Modality m) {
    return std::string(toString(m));
}

constexpr std::optional<Modality> modalityFromString(std::string_view s) {
    if (s == "visual") return Modality::Visual;
    if (s == "text") return Modality::Text;
    return std::nullopt;
}

} // namespace mvp
