// The what-if runner and the sweep are the library's, not the CLI's: run
// on a capture of ref:tiny without any command line.
#include "TestSupport.h"
#include "capture/run/Capture.h"
#include "capture/run/Sweep.h"
#include "capture/run/WhatIf.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <set>

using namespace mvp;

class TestWhatIfLibrary : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path;
    int64_t baselineRun = 0;

private slots:
    void initTestCase() {
        path = dir.filePath(QStringLiteral("tiny.mvprof"));
        CaptureOptions o;
        o.imagePath = test::sampleImage().toStdString();
        o.outPath = path.toStdString();
        o.prompt = "What is in the picture?";
        o.steps = 4;
        auto r = capture(o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        baselineRun = r->run;
    }

    // The what-if runner and the sweep are the library's, not the CLI's: a
    // copy of the baseline gets a pruning what-if with one A/B pair (both
    // arms timed per phase, the resampling loss measured, progress heard)
    // and a one-point VisionZip sweep, each stored and read back.
    void whatIfsAndSweepsRunWithoutTheCli() {
        const QString copy = dir.filePath(QStringLiteral("whatif.mvprof"));
        QVERIFY(QFile::copy(path, copy));
        WhatIfRequest prune;
        prune.methods[Method::PruneVisual] = 0.5;
        QVERIFY(!loadWhatIfBaseline(copy.toStdString(), 7, prune)); // no run 7
        auto base = loadWhatIfBaseline(copy.toStdString(), std::nullopt, prune);
        QVERIFY2(base, base ? "" : base.error().message.c_str());
        QCOMPARE(base->info.id, baselineRun);
        std::set<CaptureProgress::Stage> heard;
        auto w = runWhatIf(copy.toStdString(), *base, prune, 1,
                           [&](const CaptureProgress& p) { heard.insert(p.stage); });
        QVERIFY2(w, w ? "" : w.error().message.c_str());
        QCOMPARE(w->result.status, RunStatus::Complete);
        QCOMPARE(w->data.run.baselineRun, std::optional<int64_t>(baselineRun));
        QVERIFY(heard.count(CaptureProgress::Stage::Repetitions) &&
                heard.count(CaptureProgress::Stage::Phase));
        std::set<std::pair<Arm, Phase>> armPhases;
        for (const auto& r : w->data.repetitions)
            armPhases.insert({r.arm, r.phase});
        std::set<Phase> phases; // the baseline's: no host-to-device copy on the CPU
        for (const auto& p : base->data.phases)
            phases.insert(p.phase);
        QCOMPARE(phases.size(), size_t(5));
        QCOMPARE(armPhases.size(), 2 * phases.size()); // both arms, every phase, one pair
        QVERIFY(findMetric(w->data, "resample.L0.dcos_mean")); // the pruned tokens' loss
        int visual = 0;
        for (const auto& t : w->data.tokens)
            visual += t.phase == Phase::Prefill && t.modality == Modality::Visual;
        QCOMPARE(visual, 128); // round(0.5 · 256)

        const SweepRun one = [&](const WhatIfRequest& r) -> Result<RunData> {
            auto done = runWhatIf(copy.toStdString(), *base, r, 0);
            if (!done) return done.error();
            return std::move(done->data);
        };
        auto table = runSweep(base->data, {Method::VisionZip}, {32}, one);
        QVERIFY2(table, table ? "" : table.error().message.c_str());
        QCOMPARE(table->points.size(), size_t(1));
        QVERIFY(table->points[0].comparison);
        QCOMPARE(table->points[0].comparison->runVisualTokens, 32);
        QCOMPARE(table->visualTokens, int64_t(256));
        QVERIFY(!runSweep(base->data, {Method::H2O, Method::FastV}, {}, one)); // mixed budgets
    }
};

QTEST_GUILESS_MAIN(TestWhatIfLibrary)
#include "test_whatif_library.moc"
