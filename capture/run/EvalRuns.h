#pragma once
// The two runs of an eval what-if in the session (docs/format.md eval_*):
// the baseline's configuration and the what-if's, begun together, their
// items added pair by pair as they are done (each pair committed at once,
// so a killed run keeps it) and ended together. Shared by the built-in
// models' eval (EvalWhatIf.cpp) and the C ABI's (capture/api, for the Python
// package). Plain C++ header.

#include "core/Result.h"
#include "core/session/Records.h"
#include "core/session/SessionWriter.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct EvalItem;

class EvalRuns {
public:
    // Appends both runs to the session at `path` (its own writer, closed by
    // end()); the what-if's baselineRun becomes the eval baseline's id.
    // whatIfMetrics are stored with the what-if.
    static Result<EvalRuns> begin(const std::string& path, const RunInfo& baseline,
                                  RunInfo whatIf, const EvalSetRow& set,
                                  std::vector<RunMetricRow> whatIfMetrics);
    // The same through a writer the caller keeps open (the C ABI's session).
    static Result<EvalRuns> begin(SessionWriter& writer, const RunInfo& baseline, RunInfo whatIf,
                                  const EvalSetRow& set, std::vector<RunMetricRow> whatIfMetrics);
    // One item of each run, committed before it returns.
    Status add(EvalItemRow baseline, EvalItemRow whatIf);
    // More run metrics of the what-if (stored with its next commit).
    void addWhatIfMetric(RunMetricRow metric);
    // Both runs ended with `status` (error: why, for an incomplete or failed
    // run; wall time = the sum of their items' passes); an own writer closed.
    Status end(RunStatus status, const std::string& error);
    std::array<int64_t, 2> ids() const { return ids_; }

private:
    EvalRuns(SessionWriter& w, std::unique_ptr<SessionWriter> owned)
        : owned_(std::move(owned)), writer_(&w) {}
    Status beginRuns(const RunInfo& baseline, RunInfo whatIf, const EvalSetRow& set,
                     std::vector<RunMetricRow> whatIfMetrics);
    void submit(int64_t run, EvalItemRow row);
    std::unique_ptr<SessionWriter> owned_;
    SessionWriter* writer_;
    std::array<int64_t, 2> ids_{};
    std::array<int64_t, 2> wallNs_{};
};

// An item's row as one arm answered it: the set's fields, the output scored
// against the item's answers (none: not scored), what the decoder saw.
EvalItemRow evalItemRow(int index, const EvalItem& item, std::string output, int visualTokens,
                        std::vector<int> kept, std::vector<PhaseTime> times);

// The what-if row's fidelity to the baseline's outputs of the same item
// (core/compare/Comparison.h); left empty when the two share no step.
void addFidelity(EvalItemRow& row, const std::vector<StepOutputRow>& baseline,
                 const std::vector<StepOutputRow>& whatIf);

// Where a pass looked while it answered: its answer_attention rows summed
// over the decoder's layers on the model's gridH × gridW patch grid, over
// `image`; none when the rows hold none or a patch lies off the grid.
std::optional<EvalItemHeatmap> answerAttentionHeatmap(const std::vector<PatchMetricRow>& rows,
                                                      const std::string& image, int gridH,
                                                      int gridW);

// The SHA-256 (hex) of a file's bytes: which set ran.
Result<std::string> fileSha256(const std::string& path);

} // namespace mvp
