#pragma once
// Module cost tree and phase totals from a run's spans (DIAGNOSTICS.md §1).

#include "core/session/Records.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct ModuleCost {
    ModuleRow module;
    int64_t calls = 0;
    int64_t totalNs = 0;          // Σ span durations (measured)
    int64_t selfNs = 0;           // total minus the direct child spans (measured)
    int64_t flops = 0;            // Σ span FLOPs, inclusive (estimated from shapes)
    int64_t bytes = 0;            // Σ span bytes, inclusive (estimated from shapes)
    double share = 0;             // totalNs / run wall time
    std::vector<size_t> children; // indices into ModuleCostTree::nodes
};

struct ModuleCostTree {
    std::vector<ModuleCost> nodes; // in module id order
    std::vector<size_t> roots;
    int64_t wallNs = 0;
    // Index of a module by id; nullopt if unknown.
    std::optional<size_t> indexOf(int64_t moduleId) const;
};

ModuleCostTree buildModuleCosts(const std::vector<ModuleRow>& modules,
                                const std::vector<SpanRow>& spans, int64_t wallNs);

struct PhaseTotal {
    std::string phase;
    int count = 0; // spans of this phase (decode: one per step)
    int64_t totalNs = 0;
    double share = 0; // of the run's wall time
};

struct PhaseSummary {
    std::vector<PhaseTotal> phases; // in order of first appearance
    int64_t wallNs = 0;             // run origin to last phase end
    double coverage = 0;            // Σ phase durations / wallNs
    int overlaps = 0;               // pairs of consecutive phase spans that overlap
};

PhaseSummary summarisePhases(const std::vector<PhaseRow>& phases);

} // namespace mvp
