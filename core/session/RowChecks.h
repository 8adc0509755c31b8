#pragma once
// Content checks of the rows a reader returns (docs/format.md "Limits"): SQLite
// keeps the bytes intact, these keep the values sane. A row outside its
// range makes the session damaged — an Error naming the table, the row and
// the value — never an index the analyses would trust.

#include "core/Result.h"
#include "core/session/Records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp::rowcheck {

inline constexpr int kMaxGridSide = 1024;          // patches per side of the image grid
inline constexpr int kMaxPatchPixels = 4096;       // pixels per patch side
inline constexpr int kMaxLayers = 4096;            // decoder layers
inline constexpr int kMaxExperts = 65536;          // experts per MoE layer
inline constexpr int kMaxTopK = 256;               // router slots per token
inline constexpr int64_t kMaxPositions = 1 << 24;  // sequence positions
inline constexpr int64_t kMaxMapCells = 1LL << 28; // floats in one attention map
inline constexpr int64_t kMaxTimeNs = 1LL << 50;   // ~13 days from the run's origin
inline constexpr int64_t kMaxCount = 1LL << 56;    // FLOPs, bytes or calls of one row
inline constexpr double kMaxMetric = 1e18;         // |value| of a run metric
inline constexpr int kMaxDevices = 1024;           // GPU index of device activity

// "<where> of run <run>: <what>: the session is damaged (…what to do)".
Error damaged(int64_t run, const std::string& where, const std::string& what);
// A phase or modality column holding a name that is none.
Error unknownPhase(int64_t run, const std::string& where, const std::string& name);
Error unknownModality(int64_t run, const std::string& where, const std::string& name);

Status runInfo(const RunInfo& r);
Status modules(int64_t run, const std::vector<ModuleRow>& rows);
Status opTotals(int64_t run, const std::vector<OpTotal>& rows);
Status leafFlops(int64_t run, const std::vector<LeafFlopsRow>& rows);
Status runMetrics(int64_t run, const std::vector<RunMetricRow>& rows);
Status repetitions(int64_t run, const std::vector<RepetitionRow>& rows);
Status evalItems(int64_t run, const std::vector<EvalItemRow>& rows);
Status evalItemHeatmap(int64_t run, int item, const EvalItemHeatmap& h);
Status patchGrid(int64_t run, const PatchGridRow& g);
Status routing(int64_t run, const std::vector<RoutingRow>& rows);
Status tokens(int64_t run, const std::vector<TokenRow>& rows);
Status phases(int64_t run, const std::vector<PhaseRow>& rows);
Status spans(int64_t run, const std::vector<SpanRow>& rows);
Status stepOutputs(int64_t run, const std::vector<StepOutputRow>& rows);
Status patchMetrics(int64_t run, const std::vector<PatchMetricRow>& rows);
Status activities(int64_t run, const std::vector<DeviceActivityRow>& rows);
// `rows` × `cols` as stored and the floats the blob held.
Status floatBlob(int64_t run, const char* table, int64_t rows, int64_t cols, size_t held);

} // namespace mvp::rowcheck
