#include "capture/run/EvalRuns.h"

#include "core/compare/Comparison.h"
#include "core/eval/EvalSet.h"
#include "core/interop/Sha256.h"

#include <fstream>
#include <iterator>

namespace mvp {

Result<EvalRuns> EvalRuns::begin(const std::string& path, const RunInfo& baseline, RunInfo whatIf,
                                 const EvalSetRow& set, std::vector<RunMetricRow> whatIfMetrics) {
    auto writer = SessionWriter::open(path, SessionWriter::Mode::Append);
    if (!writer) return writer.error();
    SessionWriter& w = **writer;
    EvalRuns runs(w, std::move(writer.value()));
    if (auto s = runs.beginRuns(baseline, std::move(whatIf), set, std::move(whatIfMetrics)); !s)
        return s.error();
    return runs;
}

Result<EvalRuns> EvalRuns::begin(SessionWriter& writer, const RunInfo& baseline, RunInfo whatIf,
                                 const EvalSetRow& set, std::vector<RunMetricRow> whatIfMetrics) {
    EvalRuns runs(writer, nullptr);
    if (auto s = runs.beginRuns(baseline, std::move(whatIf), set, std::move(whatIfMetrics)); !s)
        return s.error();
    return runs;
}

Status EvalRuns::beginRuns(const RunInfo& baseline, RunInfo whatIf, const EvalSetRow& set,
                           std::vector<RunMetricRow> whatIfMetrics) {
    auto a = writer_->beginRun(baseline);
    if (!a) return a.error();
    whatIf.baselineRun = *a;
    auto b = writer_->beginRun(whatIf);
    if (!b) return b.error();
    ids_ = {*a, *b};
    for (int64_t id : ids_) {
        Batch rows;
        rows.run = id;
        rows.evalSet = set;
        if (id == *b) rows.runMetrics = std::move(whatIfMetrics);
        writer_->submit(std::move(rows));
    }
    return writer_->flush();
}

Status EvalRuns::add(EvalItemRow baseline, EvalItemRow whatIf) {
    wallNs_[0] += baseline.totalNs(), wallNs_[1] += whatIf.totalNs();
    submit(ids_[0], std::move(baseline));
    submit(ids_[1], std::move(whatIf));
    return writer_->flush();
}

void EvalRuns::addWhatIfMetric(RunMetricRow metric) {
    Batch b;
    b.run = ids_[1];
    b.runMetrics.push_back(std::move(metric));
    writer_->submit(std::move(b));
}

Status EvalRuns::end(RunStatus status, const std::string& error) {
    for (int arm = 0; arm < 2; ++arm) {
        RunResult r;
        r.status = status;
        r.error = error;
        r.wallNs = wallNs_[arm];
        if (auto s = writer_->endRun(ids_[arm], r); !s) return s;
    }
    return owned_ ? owned_->close() : writer_->flush();
}

void EvalRuns::submit(int64_t run, EvalItemRow row) {
    Batch b;
    b.run = run;
    b.evalItems.push_back(std::move(row));
    writer_->submit(std::move(b));
}

EvalItemRow evalItemRow(int index, const EvalItem& item, std::string output, int visualTokens,
                        std::vector<int> kept, std::vector<PhaseTime> times) {
    EvalItemRow r;
    r.item = index;
    r.id = item.id, r.kind = item.kind, r.prompt = item.prompt, r.answers = item.answers;
    if (!item.answers.empty()) r.correct = answerMatches(output, item.answers);
    r.output = std::move(output);
    r.visualTokens = visualTokens;
    r.keptPatches = std::move(kept);
    r.times = std::move(times);
    return r;
}

std::optional<EvalItemHeatmap> answerAttentionHeatmap(const std::vector<PatchMetricRow>& rows,
                                                      const std::string& image, int gridH,
                                                      int gridW) {
    if (gridH < 1 || gridW < 1) return std::nullopt;
    EvalItemHeatmap h{image, gridH, gridW, std::vector<float>(size_t(gridH) * size_t(gridW), 0.f)};
    bool any = false;
    for (const auto& r : rows) {
        if (r.metric != "answer_attention") continue;
        if (r.patch < 0 || size_t(r.patch) >= h.answerAttention.size()) return std::nullopt;
        h.answerAttention[size_t(r.patch)] += float(r.value);
        any = true;
    }
    return any ? std::optional(std::move(h)) : std::nullopt;
}

void addFidelity(EvalItemRow& row, const std::vector<StepOutputRow>& baseline,
                 const std::vector<StepOutputRow>& whatIf) {
    const OutputFidelity f = outputFidelity(baseline, whatIf);
    if (f.steps == 0) return;
    row.klMean = f.klMean, row.klMax = f.klMax;
    row.top1Agreement = f.top1Agreement, row.tokenMatch = f.tokenMatch;
}

Result<std::string> fileSha256(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::NotFound, path + ": cannot be read");
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
    return sha256Hex(bytes);
}

} // namespace mvp
