#pragma once
// Expert load audit (docs/diagnostics.md §5–§6): balance statistics of the
// token→expert counts of one MoE layer, expert states with rebalancing
// suggestions, cold-expert detection over token windows, and the splits by
// modality and phase. Pure functions over routing rows.

#include "core/session/Records.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct MoeThresholds {
    double overloadZ = 1.8;     // Δ above this: overloaded
    double receiverZ = -1.0;    // Δ below this: can receive moved traffic
    double moveShare = 0.3;     // an overloaded expert keeps 0.7 of its load
    int coldWindow = 128;       // tokens per window for the cold check
    int coldMinActivations = 3; // fewer than this in two consecutive windows: cold
};

// Balance scalars of one count vector. Every figure comes with its sample
// size; with no tokens the scalars are 0 and `tokens` says why.
struct BalanceStats {
    int experts = 0;
    int64_t tokens = 0; // routing slots counted (a token routed top-k counts k times)
    std::vector<int64_t> load;
    std::vector<double> z; // (load − μ)/σ, population σ; all 0 when σ = 0
    double mean = 0, stddev = 0;
    double cv = 0;           // σ/μ; > 1 is "severe"
    double balancedness = 0; // μ / max (1 = perfectly even)
    double jain = 0;         // (Σx)² / (E·Σx²)
    double maxvio = 0;       // max/μ − 1
    double deadFraction = 0; // share of experts with no tokens
    double entropyBits = 0;  // −Σ p log₂ p of the load distribution
    double entropyNorm = 0;  // 2^H / E: effective share of experts in use
};

BalanceStats balanceStats(const std::vector<int64_t>& load);

enum class ExpertState { Normal, Hot, Overloaded, Underloaded, Cold, Dead };
const char* toString(ExpertState s);

struct ExpertReport {
    int id = 0;
    int64_t tokens = 0;
    double z = 0;
    ExpertState state = ExpertState::Normal;
    int64_t targetTokens = 0;   // for overloaded experts: 0.7 × load
    std::vector<int> receivers; // for overloaded experts: experts with Δ < −1.0
};

struct WindowStats {
    int first = 0, last = 0; // token ordinal range [first, last) in routing order
    BalanceStats stats;
};

struct LayerMoeReport {
    int layer = 0;
    int topK = 0;
    int64_t tokenCount = 0; // distinct tokens routed in this layer
    BalanceStats total;
    BalanceStats visual, text;    // by modality
    BalanceStats prefill, decode; // by phase
    std::vector<ExpertReport> experts;
    double hotTop1Share = 0;          // share of tokens whose top-1 expert is hot or overloaded
    std::vector<WindowStats> windows; // only when a token window was asked for
    std::vector<int> cold; // experts cold in two consecutive windows of coldWindow tokens
};

// One layer's audit. `experts` is the model's expert count (so experts that
// never appear still count); `window` > 0 adds per-window statistics.
LayerMoeReport analyseLayer(int layer, const std::vector<RoutingRow>& rows, int experts,
                            const MoeThresholds& t = {}, int window = 0);

// Every MoE layer found in `rows` (any order).
std::vector<LayerMoeReport> analyseMoe(const std::vector<RoutingRow>& rows, int experts,
                                       const MoeThresholds& t = {}, int window = 0);

// Gate vs expert time of one MoE layer in one step, from the module spans.
struct GateExpertTime {
    int layer = 0;
    Phase phase = Phase::Prefill;
    int step = 0;
    int64_t gateNs = 0;   // router: linear + softmax + top-k (measured)
    int64_t expertNs = 0; // Σ of the active experts' spans (measured)
    int64_t layerNs = 0;  // the whole MoE block, incl. dispatch (measured)
    int activeExperts = 0;
};

std::vector<GateExpertTime> gateExpertTimes(const std::vector<ModuleRow>& modules,
                                            const std::vector<SpanRow>& spans);

// A module's place in the MoE views from its role, never its name:
// (layer, expert) for an expert, (layer, -1) for a router, (layer, -2) for
// an MoE block; nullopt for anything else or a module without a layer.
std::optional<std::pair<int, int>> moeLane(const ModuleRow& module);

} // namespace mvp
