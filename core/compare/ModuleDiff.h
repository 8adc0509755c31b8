#pragma once
// A/B diff by module (docs/diagnostics.md §9): any two runs' module costs matched
// by path, sorted by impact.

#include "core/analysis/Analysis.h"

#include <string>
#include <vector>

namespace mvp {

struct ModuleDiffRow {
    std::string path, kind;
    bool inA = false, inB = false;    // a module only one run ran shows as such
    int64_t aNs = 0, bNs = 0;         // total (inclusive) time, measured
    int64_t aSelfNs = 0, bSelfNs = 0; // self time, measured
    int64_t aFlops = 0, bFlops = 0;   // estimated from shapes
    bool aFlopsKnown = false, bFlopsKnown = false; // a side whose ops have no formula is "–"
    bool flopsComparable() const { return aFlopsKnown && bFlopsKnown; }
    int64_t aBytes = 0, bBytes = 0;   // estimated from shapes
    int64_t deltaNs() const { return bNs - aNs; }
    int64_t deltaFlops() const { return bFlops - aFlops; }
    int64_t deltaBytes() const { return bBytes - aBytes; }
    double ratio() const {
        return aNs > 0 ? double(bNs) / double(aNs) : 0.0;
    } // B ÷ A time; 0 when A did not run it
};

// Every module of either run, sorted by |Δ self time| (largest impact first;
// self time so a parent does not outrank the child that changed), then path.
std::vector<ModuleDiffRow> diffModules(const RunData& a, const RunData& b);

std::string formatModuleDiffText(const std::vector<ModuleDiffRow>& rows, size_t limit = 20);

} // namespace mvp
