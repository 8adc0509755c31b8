#pragma once
// Module cost tree and phase totals from a run's spans (docs/diagnostics.md §1).

#include "core/session/Records.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mvp {

struct ModuleCost {
    ModuleRow module;
    int64_t calls = 0;
    int64_t totalNs = 0;     // Σ span durations (measured)
    int64_t selfNs = 0;      // total minus the direct child spans (measured)
    int64_t flops = 0;       // Σ span FLOPs, inclusive (estimated from shapes)
    int64_t bytes = 0;       // Σ span bytes, inclusive (estimated from shapes)
    bool flopsKnown = false; // some span of it ran ops with known FLOPs (else "–")
    double share = 0;        // totalNs / run wall time
    // GPU time of its spans, children included (measured): the kernels,
    // copies and fills launched inside them (CUPTI or the trace's profiler),
    // or without those the time between CUDA events at each span's start and
    // end; nullopt for a run with neither.
    std::optional<int64_t> deviceNs;
    std::vector<size_t> children; // indices into ModuleCostTree::nodes
};

// Where the modules' device times come from.
enum class DeviceTimeSource { None, Activity, Events };

struct ModuleCostTree {
    std::vector<ModuleCost> nodes; // in module id order
    DeviceTimeSource deviceTime = DeviceTimeSource::None;
    std::vector<size_t> roots;
    int64_t wallNs = 0;
    // Index of a module by id; nullopt if unknown.
    std::optional<size_t> indexOf(int64_t moduleId) const;
};

ModuleCostTree buildModuleCosts(const std::vector<ModuleRow>& modules,
                                const std::vector<SpanRow>& spans, int64_t wallNs);

// Sets every module's deviceNs from the GPU time launched inside each span
// (`deviceNsBySpan`: span id → ns of the work attributed to it directly),
// adding each span's to its enclosing spans as host times are.
void addDeviceTime(ModuleCostTree& tree, const std::vector<SpanRow>& spans,
                   const std::unordered_map<int64_t, int64_t>& deviceNsBySpan);
// Sets every module's deviceNs from its spans' own device times (span.device_ns:
// CUDA events at each span's start and end, whose interval already holds its
// children's work, so nothing is added up the tree); no-op when no span has one.
void addSpanDeviceTime(ModuleCostTree& tree, const std::vector<SpanRow>& spans);

struct PhaseTotal {
    Phase phase = Phase::None;
    int count = 0; // spans of this phase (decode: one per step)
    int64_t totalNs = 0;
    double share = 0; // of the run's wall time
    // From the phase's top-level ops (estimated):
    int64_t flops = 0, bytes = 0;
    int64_t opNs = 0, knownNs = 0; // op time, and the part of it whose FLOPs are known
    double flopsCoverage() const { return opNs > 0 ? double(knownNs) / double(opNs) : 0.0; }
};

struct PhaseSummary {
    std::vector<PhaseTotal> phases; // in order of first appearance
    int64_t wallNs = 0;             // run origin to last phase end
    double coverage = 0;            // Σ phase durations / wallNs
    int overlaps = 0;               // pairs of consecutive phase spans that overlap
};

PhaseSummary summarisePhases(const std::vector<PhaseRow>& phases);

// Adds each phase's FLOPs, bytes and FLOP coverage from the per-op totals.
// Ops of a phase with no phase row (a damaged file) are left out.
void addPhaseCosts(PhaseSummary& summary, const std::vector<OpTotal>& totals);

} // namespace mvp
