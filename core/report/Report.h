#pragma once
// The session report: what `mvprof-cli report` prints and the GUI summarises.
// Built once from a SessionReader, then formatted as text or JSON.

#include "core/Result.h"
#include "core/analysis/ModuleCosts.h"
#include "core/session/Records.h"

#include <string>
#include <vector>

namespace mvp {

class SessionReader;

struct ExpertLoad {
    int layer = 0;
    std::vector<int64_t> tokens;  // per expert: routing slots that chose it (measured)
    int64_t slotCount = 0;
};

struct HotPatch {
    int patch = 0, row = 0, col = 0;
    double attention = 0;  // summed over layers (measured)
};

struct RunReport {
    RunInfo run;
    int64_t parameters = 0;
    PhaseSummary phases;
    ModuleCostTree modules;
    std::vector<ExpertLoad> experts;
    std::vector<HotPatch> hotPatches;  // the five most-attended patches
    int64_t ops = 0;
    std::vector<std::string> notes;    // what is missing or suspicious, for the reader
};

struct SessionReport {
    std::string path;
    int schemaVersion = 0;
    std::vector<RunReport> runs;
};

Result<SessionReport> buildReport(SessionReader& reader);
std::string formatText(const SessionReport& report);
std::string formatJson(const SessionReport& report);

} // namespace mvp
