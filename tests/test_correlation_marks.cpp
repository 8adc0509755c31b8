// The ids a GPU tracer's external correlation gets (Recorder::
// setCorrelationMarks) are the rows the session stores: a real Recorder on
// real ATen ops inside module spans logs every start and end; the pushed op
// ids are exactly the stored op rows, each pushed while the innermost pushed
// span was the row's span, and every push is popped in nesting order. With
// --nested-ops the nested rows are pushed too, inside their parent. The
// profiler's own work is marked apart, and none of its ops is pushed.
// libtorch first: Qt's `slots` macro breaks its headers.
#include <torch/torch.h>

#include "capture/cuda/CorrelationMarks.h"
#include "capture/probe/Recorder.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>

using namespace mvp;

namespace {

// Logs the marks and checks their nesting as they come.
class MarkLog final : public CorrelationMarks {
public:
    void opStarted(int64_t op) override {
        spanOfOp[op] = spans.empty() ? 0 : spans.back();
        parentOfOp[op] = ops.empty() ? 0 : ops.back();
        ops.push_back(op);
        pushedOps.push_back(op);
    }
    void opEnded() override {
        if (ops.empty())
            ++unbalanced;
        else
            ops.pop_back();
    }
    void spanStarted(int64_t span) override {
        spans.push_back(span);
        pushedSpans.push_back(span);
    }
    void spanEnded() override {
        if (spans.empty())
            ++unbalanced;
        else
            spans.pop_back();
    }

    void probeWorkStarted() override { ++probeWork, ++openProbeWork; }
    void probeWorkEnded() override {
        if (openProbeWork == 0)
            ++unbalanced;
        else
            --openProbeWork;
    }

    std::vector<int64_t> ops, spans; // open now, innermost last
    int probeWork = 0, openProbeWork = 0;
    std::vector<int64_t> pushedOps, pushedSpans;
    std::map<int64_t, int64_t> spanOfOp, parentOfOp; // 0: none
    int unbalanced = 0;
};

struct Recorded {
    std::vector<OpRow> ops;
    std::vector<SpanRow> spans;
};

// Two module spans, one inside the other, around a few real ops.
Recorded record(const QString& path, MarkLog& log, bool nested) {
    auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Overwrite);
    if (!w) return {};
    RunInfo info;
    info.label = "marks";
    auto run = (*w)->beginRun(info);
    if (!run) return {};
    {
        Recorder rec(**w, *run, true, nested);
        rec.setCorrelationMarks(&log);
        rec.beginPhase(Phase::Vision);
        rec.startOps();
        const auto x = torch::ones({4, 8});
        torch::nn::Linear fc(8, 16);
        rec.enterModule("encoder", "Encoder", ModuleRole::Vision);
        auto h = torch::relu(x.matmul(torch::ones({8, 8})));
        rec.enterModule("encoder.fc", "Linear", ModuleRole::None);
        h = fc->forward(h);
        {
            // The profiler's own work (say, math on what a hook reads): marked
            // as such, and its ops are neither recorded nor pushed.
            ProbeWork probe(&rec);
            (void)torch::cosh(h);
        }
        rec.exit();
        h = h.sum();
        rec.exit();
        rec.stopOps();
        rec.endPhase();
    }
    (void)(*w)->endRun(*run, RunResult{});
    (void)(*w)->close();
    auto reader = SessionReader::open(path.toStdString());
    if (!reader) return {};
    auto ops = (*reader)->ops(*run);
    auto spans = (*reader)->spans(*run);
    if (!ops || !spans) return {};
    return {*ops, *spans};
}

void checkAgainstRows(const MarkLog& log, const Recorded& rows) {
    QCOMPARE(log.unbalanced, 0);
    QVERIFY(log.ops.empty() && log.spans.empty());
    QCOMPARE(log.probeWork, 1);
    QCOMPARE(log.openProbeWork, 0);
    QVERIFY(!rows.ops.empty());
    for (const auto& op : rows.ops)
        QVERIFY2(op.name != "aten::cosh", "an op of the probe work was recorded");
    std::set<int64_t> stored;
    for (const auto& op : rows.ops) {
        stored.insert(op.id);
        QVERIFY2(log.spanOfOp.count(op.id), qPrintable(QString::number(op.id)));
        QCOMPARE(log.spanOfOp.at(op.id), op.span.value_or(0));
        QCOMPARE(log.parentOfOp.at(op.id), op.parentOp.value_or(0));
    }
    QCOMPARE(std::set<int64_t>(log.pushedOps.begin(), log.pushedOps.end()), stored);
    QCOMPARE(log.pushedOps.size(), rows.ops.size()); // each once
    std::set<int64_t> spanIds;
    for (const auto& s : rows.spans)
        spanIds.insert(s.id);
    QCOMPARE(std::set<int64_t>(log.pushedSpans.begin(), log.pushedSpans.end()), spanIds);
    QCOMPARE(log.pushedSpans.size(), size_t(2));
}

} // namespace

class TestCorrelationMarks : public QObject {
    Q_OBJECT
private slots:
    void topLevelOpsAndSpans() {
        QTemporaryDir dir;
        MarkLog log;
        const auto rows = record(dir.filePath(QStringLiteral("top.mvprof")), log, false);
        checkAgainstRows(log, rows);
        // Ops ran outside, inside and in the inner span: all three attributed.
        std::set<int64_t> spansWithOps;
        for (const auto& [op, span] : log.spanOfOp)
            spansWithOps.insert(span);
        QVERIFY(spansWithOps.size() >= 2);
        for (const auto& op : rows.ops)
            QVERIFY(!op.parentOp); // top-level only
    }

    void nestedOpsInsideTheirParent() {
        QTemporaryDir dir;
        MarkLog log;
        const auto rows = record(dir.filePath(QStringLiteral("nested.mvprof")), log, true);
        checkAgainstRows(log, rows);
        QVERIFY(std::any_of(rows.ops.begin(), rows.ops.end(),
                            [](const OpRow& op) { return op.parentOp.has_value(); }));
    }
};

QTEST_GUILESS_MAIN(TestCorrelationMarks)
#include "test_correlation_marks.moc"
