#pragma once
// Read-only access to a session file. Opens with SQLITE_OPEN_READONLY in
// defensive mode with trusted_schema off, so a hostile file can do no harm;
// every query returns a typed Error instead of throwing or crashing. Several
// readers may follow a file while its writer is still adding rows.

#include "core/Result.h"
#include "core/session/Records.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mvp {

class SessionReader {
public:
    static Result<std::unique_ptr<SessionReader>> open(const std::string& path);
    ~SessionReader();

    const std::string& path() const;
    int schemaVersion() const;

    // Runs in id order. A run still marked live whose writer process is gone
    // is reported as Incomplete.
    Result<std::vector<RunInfo>> runs();
    Result<RunInfo> run(int64_t id);

    Result<std::vector<ModuleRow>> modules(int64_t run);
    Result<std::vector<PhaseRow>> phases(int64_t run);
    Result<std::vector<SpanRow>> spans(int64_t run);
    Result<std::vector<OpRow>> ops(int64_t run);
    // The same rows one at a time, in stored order (not id order: a chunk
    // holds its ops in the order they ended), without holding them all; stops
    // at the first error `visit` returns.
    Status forEachOp(int64_t run, const std::function<Status(OpRow&&)>& visit);
    // Top-level ops (not nested in another recorded op) grouped by phase and
    // name, and the count of all ops.
    Result<std::vector<OpTotal>> opTotals(int64_t run);
    // FLOPs by the innermost op that computed them, per phase (empty before v3).
    Result<std::vector<LeafFlopsRow>> leafFlops(int64_t run);
    Result<int64_t> opCount(int64_t run);
    Result<std::vector<TokenRow>> tokens(int64_t run);
    Result<std::vector<RoutingRow>> routing(int64_t run);
    // nullopt when the run has no image (e.g. it failed before preprocessing).
    Result<std::optional<ImageRow>> image(int64_t run);
    Result<std::optional<PatchGridRow>> patchGrid(int64_t run);
    Result<std::optional<DeviceRow>> device(int64_t run);
    Result<std::vector<StepOutputRow>> stepOutputs(int64_t run);
    Result<std::optional<VisionFeatureRow>> visionFeatures(int64_t run);
    // Run-level figures (empty for a v1 session, which had none).
    Result<std::vector<RunMetricRow>> runMetrics(int64_t run);
    // A what-if's A/B repetitions (empty for a baseline and before v4).
    Result<std::vector<RepetitionRow>> repetitions(int64_t run);
    // GPU work and CUDA API calls in id order (empty before v6).
    Result<std::vector<DeviceActivityRow>> activities(int64_t run);
    // An eval run's set (nullopt for any other run, and before v7) and its
    // items in the set's order, each with its phase times and (v8) its
    // heatmap where one was observed.
    Result<std::optional<EvalSetRow>> evalSet(int64_t run);
    Result<std::vector<EvalItemRow>> evalItems(int64_t run);
    // All layers of one metric, ordered by layer then patch.
    Result<std::vector<PatchMetricRow>> patchMetrics(int64_t run, const std::string& metric);
    Result<std::vector<AttnMapRow>> attnMaps(int64_t run, int layer);
    Result<std::vector<int>> attnMapLayers(int64_t run);

private:
    struct Impl;
    explicit SessionReader(std::unique_ptr<Impl> impl);
    Result<std::vector<OpTotal>> readOpTotals(int64_t run); // stored or summed, unchecked
    Result<std::vector<SpanRow>> spanTable(int64_t run);    // v1–v10
    Result<std::vector<DeviceActivityRow>> activityTable(int64_t run); // v6–v10
    Result<std::vector<PatchMetricRow>> patchArrays(int64_t run,
                                                    const std::string& metric); // v9–v10
    Status evalItemHeatmaps(int64_t run, const std::map<int, EvalItemRow*>& byItem);
    std::unique_ptr<Impl> d;
};

// True if `pid` names a live process on this host (used to tell live runs from killed ones).
bool processAlive(int64_t pid, const std::string& host);
std::string hostName();

} // namespace mvp
