// What a what-if measures beside its transform, through the CLI: W8 on
// libtorch's int8 engine (its op names in the session, fidelity closer than
// W4, the format's bytes) with A/B repetitions stored and summarised as the
// JSON's medians and intervals, and the resampling loss of pruning and of
// the compressed KV cache (layer 0's values exactly unmoved under pruning,
// nothing moved when every token is kept).
#include "TestSupport.h"
#include "WhatIfSupport.h"
#include "core/analysis/Kv.h"
#include "core/compare/Comparison.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace mvp;
using test::args;
using test::metric;
using test::runCli;

class TestWhatIfMeasures : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString baseline(const QString& name) { return test::skewedBaseline(dir.filePath(name)); }
    static RunData load(const QString& path, int64_t run) { return test::loadRun(path, run); }

private slots:
    void w8RunsOnTheInt8EngineWithAbRepetitions() {
        const QString path = baseline(QStringLiteral("w8.mvprof"));
        QVERIFY(!path.isEmpty());
        const auto w4 = runCli(args({"whatif"}) << path << args({"--quant", "w4", "--reps", "0"}));
        QVERIFY2(w4.exitCode == 0, w4.err.constData());
        const auto r = runCli(args({"whatif"})
                              << path << args({"--quant", "w8", "--reps", "3", "--format", "json"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData base = load(path, 1), q4 = load(path, 2), q8 = load(path, 3);
        // Debian's libtorch has a quantized engine (onednn/qnnpack on x86): W8 runs its kernels.
        QCOMPARE(metric(q8, "quant.int8_kernels"), 1.0);
        auto calls = [](const RunData& d, const char* name) {
            int64_t n = 0;
            for (const auto& t : d.opTotals)
                if (t.name == name) n += t.calls;
            return n;
        };
        QVERIFY(calls(q8, "quantized::linear_dynamic") > 0);
        QCOMPARE(calls(base, "quantized::linear_dynamic"), int64_t(0));
        QCOMPARE(calls(q4, "quantized::linear_dynamic"), int64_t(0)); // W4 dequantises
        // Fidelity: int8 per channel is closer to float32 than 4-bit groups.
        const Comparison c4 = compareRuns(base, q4), c8 = compareRuns(base, q8);
        QVERIFY2(c8.klMean < c4.klMean && c8.klMean > 0,
                 qPrintable(QStringLiteral("%1 vs %2").arg(c8.klMean).arg(c4.klMean)));
        QVERIFY(c8.visionCosine > 0.9999); // the vision side is untouched
        // A byte per weight, 16 per output row (float64 scale, int64 zero point), 2 per input
        // channel (AWQ's float16 scale): on ref:tiny's ≥ 64-wide layers at most
        // 1/4 + 16/(4·64) + 2/(4·64) of float32.
        const double ratio = metric(q8, "quant.format_bytes") / metric(q8, "quant.fp32_bytes");
        QVERIFY2(ratio > 0.25 && ratio <= 0.25 + 18.0 / 256.0, qPrintable(QString::number(ratio)));
        // Held once, or twice where prefill and decode calls run on different engines
        // (the note says so); the input scales are held once either way.
        const double held = metric(q8, "quant.bytes"), format = metric(q8, "quant.format_bytes");
        const bool split = findMetric(q8, "quant.int8_kernels")->note.find("packed for both") !=
                           std::string::npos;
        QVERIFY2(split ? held > format && held < 2 * format : held == format,
                 qPrintable(QStringLiteral("%1 vs %2").arg(held).arg(format)));
        // Three pairs stored for every phase, the medians in the JSON being theirs.
        QCOMPARE(q8.repetitions.size(), size_t(3 * 2 * 5));
        std::vector<int64_t> vision;
        for (const auto& row : q8.repetitions)
            if (row.arm == Arm::Baseline && row.phase == Phase::Vision) vision.push_back(row.ns);
        std::sort(vision.begin(), vision.end());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const QJsonArray phases = j[QStringLiteral("phases")].toArray();
        QCOMPARE(phases.size(), 5);
        const QJsonObject v = phases[1].toObject();
        QCOMPARE(v[QStringLiteral("phase")].toString(), QStringLiteral("vision"));
        QCOMPARE(v[QStringLiteral("baseline")].toObject()[QStringLiteral("median")].toDouble(),
                 double(vision[1]) / 1e6);
        QCOMPARE(v[QStringLiteral("baseline")].toObject()[QStringLiteral("reps")].toInt(), 3);
        QVERIFY(v[QStringLiteral("noise_control")].toBool());
        QVERIFY(!phases[3].toObject()[QStringLiteral("noise_control")].toBool()); // prefill
        QVERIFY(j[QStringLiteral("total")].toObject()[QStringLiteral("within_noise")].isBool());
        QVERIFY(j[QStringLiteral("latency_ms_predicted")].toObject()[QStringLiteral("note")]
                    .toString()
                    .contains(QStringLiteral("check")));
        const auto none = runCli(args({"whatif"}) << path << args({"--quant", "w8", "--reps", "-1"}));
        QCOMPARE(none.exitCode, 2);
    }

    void resamplingLossOfPruningAndKv() {
        const QString path = baseline(QStringLiteral("resample.mvprof"));
        QVERIFY(!path.isEmpty());
        for (const QStringList& t : {args({"--prune-visual", "0.4"}), args({"--kv", "int4"}),
                                     args({"--prune-visual", "1"})})
            QCOMPARE(runCli(args({"whatif"}) << path << t << args({"--reps", "0"})).exitCode, 0);
        const RunData pruned = load(path, 2), kv = load(path, 3), all = load(path, 4);
        const auto p = resamplingFromMetrics(pruned.runMetrics);
        const auto k = resamplingFromMetrics(kv.runMetrics);
        const auto same = resamplingFromMetrics(all.runMetrics);
        QCOMPARE(p.size(), size_t(2)); // ref:tiny's two decoder layers
        // Layer 0's values come from the visual features alone, which pruning
        // leaves as they were: exactly no drift there, drift after a layer of
        // attention over fewer tokens, and the pruned patches' attention lost.
        QCOMPARE(p[0].loss.deltaCos.mean, 0.0);
        QVERIFY(p[1].loss.deltaCos.mean > 0 && p[1].loss.relL2.mean > 0);
        QVERIFY(p[0].lostMass > 0.2 && p[0].lostMass < 1);
        // The KV cache's merge + INT4: every token still there, a small drift.
        for (const auto& l : k) {
            QCOMPARE(l.lostMass, 0.0);
            QVERIFY2(l.loss.deltaCos.mean > 0 && l.loss.deltaCos.mean < 0.05,
                     qPrintable(QString::number(l.loss.deltaCos.mean)));
            QVERIFY(l.loss.deltaKl.mean > 0);
        }
        // Keeping every token is the baseline: nothing moved.
        for (const auto& l : same) {
            QCOMPARE(l.loss.deltaCos.mean, 0.0);
            QCOMPARE(l.loss.relL2.mean, 0.0);
            QVERIFY(l.loss.deltaKl.mean < 1e-6);
        }
        const auto json = runCli(args({"diff"}) << path << QStringLiteral("1") << QStringLiteral("2")
                                                << args({"--format", "json"}));
        QVERIFY(QJsonDocument::fromJson(json.out).object().contains(
            QStringLiteral("resampling_loss_measured")));
    }
};

QTEST_MAIN(TestWhatIfMeasures)
#include "test_whatif_measures.moc"
