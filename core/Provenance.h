#pragma once
// How a figure shown to a user was obtained (docs/diagnostics.md: every figure carries
// one). Strings only at the edges: session, JSON, CLI and GUI text.

#include <optional>
#include <string_view>

namespace mvp {

enum class Provenance {
    Measured,    // read from a clock, counter or the model's own outputs
    Estimated,   // computed from shapes with a formula (FLOPs, bytes)
    Predicted,   // a model of what a run would do, not run
    Derived,     // arithmetic over other figures (ratios, blends, 1/latency)
    Apportioned, // a measured total split among its parts by a rule
};

constexpr std::string_view toString(Provenance p) {
    switch (p) {
    case Provenance::Measured:
        return "measured";
    case Provenance::Estimated:
        return "estimated";
    case Provenance::Predicted:
        return "predicted";
    case Provenance::Derived:
        return "derived";
    case Provenance::Apportioned:
        return "apportioned";
    }
    return "measured";
}

constexpr std::optional<Provenance> provenanceFromString(std::string_view s) {
    for (const auto p : {Provenance::Measured, Provenance::Estimated, Provenance::Predicted,
                         Provenance::Derived, Provenance::Apportioned})
        if (toString(p) == s) return p;
    return std::nullopt;
}

} // namespace mvp
