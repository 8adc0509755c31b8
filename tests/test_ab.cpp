// The figures a what-if measures on both setups: the A/B repetitions as
// distributions (per-phase medians and paired speed-ups from stored rows,
// "within noise" when A and B are alike, the noise-control warning, the
// comparison's text and JSON shape) and the resampling loss of the visual
// tokens against vectors worked by hand.
#include "TestSupport.h"
#include "core/analysis/Kv.h"
#include "core/compare/AbTimings.h"
#include "core/compare/Comparison.h"
#include "core/compare/Prediction.h"
#include "core/report/ComparisonText.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <random>
#include <tuple>
#include <utility>

using namespace mvp;

namespace {
// Rows of `reps` pairs: per phase, baseline ns = base · noise, what-if = base / speedup · noise.
std::vector<RepetitionRow> rows(int reps, double decodeSpeedup, double visionSpeedup,
                                std::mt19937& rng, double sigma = 0.1) {
    std::lognormal_distribution<double> noise(0.0, sigma);
    std::vector<RepetitionRow> out;
    const std::pair<Phase, double> phases[] = {{Phase::Prefill, 5e6},
                                               {Phase::Decode, 2e6},
                                               {Phase::Preprocess, 1e5},
                                               {Phase::Vision, 3e6}};
    for (int rep = 0; rep < reps; ++rep)
        for (const auto& [phase, ns] : phases) {
            const bool control = phase == Phase::Vision || phase == Phase::Preprocess;
            const double speedup = phase == Phase::Decode   ? decodeSpeedup
                                   : phase == Phase::Vision ? visionSpeedup
                                                            : 1.0;
            out.push_back({Arm::Baseline, rep, phase, int64_t(ns * noise(rng)), control});
            out.push_back({Arm::WhatIf, rep, phase, int64_t(ns / speedup * noise(rng)), control});
        }
    return out;
}

// Module 7 ("llm.layer.0.mlp"): 100 ns of prefill and 50 of decode in the
// baseline, 30 and 40 in the what-if, whose wall is 200 ns.
std::pair<RunData, RunData> mlpRuns() {
    RunData base, run;
    for (RunData* d : {&base, &run}) {
        d->modules = {ModuleRow{7, "llm.layer.0.mlp", "SwiGlu", std::nullopt, 0}};
        d->tokens = {TokenRow{0, Phase::Prefill, 0, Modality::Text, 1, -1},
                     TokenRow{1, Phase::Decode, 1, Modality::Text, 2, -1}};
    }
    base.spans = {SpanRow{1, 7, std::nullopt, Phase::Prefill, 0, 0, 100, std::nullopt},
                  SpanRow{2, 7, std::nullopt, Phase::Decode, 1, 100, 150, std::nullopt}};
    base.phases = {PhaseRow{Phase::Prefill, 0, 0, 100}, PhaseRow{Phase::Decode, 1, 100, 150}};
    run.spans = {SpanRow{1, 7, std::nullopt, Phase::Prefill, 0, 0, 30, std::nullopt},
                 SpanRow{2, 7, std::nullopt, Phase::Decode, 1, 30, 70, std::nullopt}};
    run.phases = {PhaseRow{Phase::Prefill, 0, 0, 30}, PhaseRow{Phase::Decode, 1, 30, 70}};
    run.run.wallNs = 200;
    return {base, run};
}

} // namespace

class TestAb : public QObject {
    Q_OBJECT
private slots:
    void mediansAndRatiosByHand() {
        // Three pairs of decode: A 10, 12, 11; B 5, 4, 6 → ratios 2, 3, 11/6.
        std::vector<RepetitionRow> r;
        const int a[] = {10, 12, 11}, b[] = {5, 4, 6};
        for (int i = 0; i < 3; ++i) {
            r.push_back({Arm::Baseline, i, Phase::Decode, a[i], false});
            r.push_back({Arm::WhatIf, i, Phase::Decode, b[i], false});
            r.push_back({Arm::Baseline, i, Phase::Vision, 7, true});
            r.push_back({Arm::WhatIf, i, Phase::Vision, 7, true});
        }
        r.push_back({Arm::Baseline, 3, Phase::Decode, 1000, false}); // a pair cut short
        const auto t = abTimings(r);
        QVERIFY(t);
        QCOMPARE(t->reps, 3);
        QCOMPARE(t->phases.size(), size_t(2));
        QVERIFY(t->phases[0].phase == Phase::Vision); // pipeline order, not by name
        const AbPhase& d = t->phases[1];
        QCOMPARE(d.baseline.median, 11.0);
        QCOMPARE(d.whatIf.median, 5.0);
        QCOMPARE(d.speedup.median, 2.0);
        QCOMPARE(d.speedup.low, 11.0 / 6.0);
        QCOMPARE(d.speedup.high, 3.0);
        QVERIFY(!d.withinNoise() && !d.control);
        QVERIFY(t->phases[0].withinNoise() && t->phases[0].control);
        QCOMPARE(t->total.baseline.median, 18.0); // 11 + 7
        QCOMPARE(t->total.speedup.median, 17.0 / 12.0); // pairs (17/12, 19/11, 18/13)
        QVERIFY(t->unsteady.empty());
        QVERIFY(!abTimings({}).has_value());
    }

    void sameSetupIsWithinNoiseAsOftenAsTheIntervalCovers() {
        std::mt19937 rng(99);
        const int trials = 1000, reps = 9;
        int decodeInside = 0, controlFlagged = 0, fasterFound = 0;
        for (int i = 0; i < trials; ++i) {
            const auto same = abTimings(rows(reps, 1.0, 1.0, rng));
            decodeInside += same->phases[3].withinNoise();
            controlFlagged += !same->unsteady.empty();
            const auto faster = abTimings(rows(reps, 1.5, 1.0, rng));
            fasterFound += !faster->phases[3].withinNoise() && faster->phases[3].speedup.low > 1.0;
        }
        const double inside = double(decodeInside) / trials;
        qInfo("A vs A: decode within noise %.3f; 1.5x faster found %.3f; false unsteady %.3f",
              inside, double(fasterFound) / trials, double(controlFlagged) / trials);
        QVERIFY(inside > 0.94 && inside < 0.99); // ≈ the 96 % coverage at n = 9
        QVERIFY(fasterFound > 0.99 * trials);
        // Two control phases, each wrong about 4 % of the time.
        QVERIFY(controlFlagged < 0.12 * trials);
    }

    void unsteadyMachineIsFlagged() {
        std::mt19937 rng(5);
        const auto t = abTimings(rows(7, 2.0, 1.5, rng, 0.02)); // vision "sped up" by load
        QVERIFY(t);
        QVERIFY(t->unsteady == std::vector<Phase>{Phase::Vision});
        RunData a, b;
        a.run.id = 1;
        b.run.id = 2;
        b.run.transform = "w8";
        b.repetitions = rows(7, 2.0, 1.5, rng, 0.02);
        const Comparison c = compareRuns(a, b);
        const QString text = QString::fromStdString(formatComparisonText(c));
        QVERIFY(text.contains(QStringLiteral("warning: vision is untouched")));
        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatComparisonJson(c))).object();
        QCOMPARE(j[QStringLiteral("machine_steady")].toBool(true), false);
        QVERIFY(j[QStringLiteral("warning")].toString().contains(QStringLiteral("unsteady")));
    }

    void comparisonJsonCarriesIntervals() {
        std::mt19937 rng(3);
        RunData a, b;
        a.run.id = 1;
        b.run.id = 2;
        a.phases = {{Phase::Vision, 0, 0, 3000000}, {Phase::Decode, 1, 3000000, 5000000}};
        b.phases = a.phases;
        b.repetitions = rows(5, 2.0, 1.0, rng);
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                          formatComparisonJson(compareRuns(a, b))))
                                  .object();
        const QJsonArray phases = j[QStringLiteral("phases")].toArray();
        QCOMPARE(phases.size(), 4);
        QCOMPARE(phases[0].toObject()[QStringLiteral("phase")].toString(),
                 QStringLiteral("preprocess"));
        for (const auto& v : phases) {
            const QJsonObject p = v.toObject();
            for (const char* arm : {"baseline", "whatif"}) {
                const QJsonObject m = p[QString::fromLatin1(arm)].toObject();
                QCOMPARE(m[QStringLiteral("reps")].toInt(), 5);
                const QJsonArray ci = m[QStringLiteral("ci95")].toArray();
                QCOMPARE(ci.size(), 2);
                QVERIFY(ci[0].toDouble() <= m[QStringLiteral("median")].toDouble() &&
                        m[QStringLiteral("median")].toDouble() <= ci[1].toDouble());
            }
            QVERIFY(p[QStringLiteral("speedup")].toObject()[QStringLiteral("ci95")].isArray());
            QVERIFY(p[QStringLiteral("within_noise")].isBool());
        }
        const QJsonObject decode = phases[3].toObject();
        QCOMPARE(decode[QStringLiteral("within_noise")].toBool(), false);
        QVERIFY(j[QStringLiteral("total")].toObject()[QStringLiteral("speedup")].isObject());
        QCOMPARE(j[QStringLiteral("time_unit")].toString(), QStringLiteral("ms"));
        // Without repetitions: the stored runs' single figures, no interval and no verdict.
        b.repetitions.clear();
        const QJsonObject one = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                            formatComparisonJson(compareRuns(a, b))))
                                    .object();
        const QJsonObject p0 = one[QStringLiteral("phases")].toArray()[0].toObject();
        QVERIFY(p0[QStringLiteral("baseline")].toObject()[QStringLiteral("ci95")].isNull());
        QCOMPARE(p0[QStringLiteral("baseline")].toObject()[QStringLiteral("reps")].toInt(), 1);
        QVERIFY(p0[QStringLiteral("within_noise")].isNull());
        QVERIFY(QString::fromStdString(formatComparisonText(compareRuns(a, b)))
                    .contains(QStringLiteral("no interval")));
    }

    void resamplingLossByHand() {
        VisualTokenObservation a, b;
        a.dim = b.dim = 2;
        a.gridPatches = b.gridPatches = 3;
        a.layers.resize(1);
        b.layers.resize(1);
        a.layers[0].patches = {0, 1, 2};
        a.layers[0].values = {1, 0, 0, 1, 1, 1};
        a.layers[0].attention = {{0.5, 0.25, 0.25}};
        b.layers[0].patches = {0, 2}; // patch 1 pruned
        b.layers[0].values = {1, 1, 2, 2};
        b.layers[0].attention = {{0.6, 0.0, 0.4}};
        const auto r = resamplingLoss(a, b);
        QCOMPARE(r.size(), size_t(1));
        QCOMPARE(r[0].loss.deltaCos.samples, int64_t(2));
        // Patch 0: cos((1,0), (1,1)) = 1/√2, drift ‖(0,1)‖/‖(1,0)‖ = 1; patch 2: same
        // direction, drift ‖(1,1)‖/‖(1,1)‖ = 1.
        const double d0 = 1.0 - 1.0 / std::sqrt(2.0);
        QVERIFY(std::abs(r[0].loss.deltaCos.mean - d0 / 2) < 1e-12);
        QVERIFY(std::abs(r[0].loss.deltaCos.p95 - d0) < 1e-12);
        QVERIFY(std::abs(r[0].loss.relL2.mean - 1.0) < 1e-12);
        // Over patches {0, 2}: p = (2/3, 1/3), p′ = (0.6, 0.4).
        const double kl = 2.0 / 3 * std::log((2.0 / 3) / 0.6) + 1.0 / 3 * std::log((1.0 / 3) / 0.4);
        QVERIFY(std::abs(r[0].loss.deltaKl.mean - kl) < 1e-6); // float attention rows
        QCOMPARE(r[0].loss.deltaKl.samples, int64_t(1));
        QVERIFY(std::abs(r[0].lostMass - 0.25) < 1e-12); // patch 1 held a quarter
        // Stored as run metrics and read back.
        const auto back = resamplingFromMetrics(resamplingMetrics(r));
        QCOMPARE(back.size(), size_t(1));
        QCOMPARE(back[0].loss.deltaKl.mean, r[0].loss.deltaKl.mean);
        QCOMPARE(back[0].lostMass, r[0].lostMass);
        // Shapes that do not match compare nothing rather than read past the end.
        b.dim = 3;
        QVERIFY(resamplingLoss(a, b).empty());
    }

    void kernelRatioPredictionByHand() {
        // With int8 at half float32's time on the prefill's rows and twice on
        // one row: 200 − 30 + 100·0.5 − 40 + 50·2 = 280.
        auto [base, run] = mlpRuns();
        QuantisedModule m{"llm.layer.0.mlp", 4000, 1000, KernelRatios{0.5, 2.0}};
        const auto p = predictFromKernelRatios(base, run, {m});
        QVERIFY(p);
        QCOMPARE(p->wallNs, int64_t(280));
        m.kernelRatios.reset(); // a module without measured kernels: no such prediction
        QVERIFY(!predictFromKernelRatios(base, run, {m}));
    }

    void kernelRatioPredictionInTheRepetitionsConditions() {
        // As above, but with A/B repetitions taken on a machine twice as slow
        // in prefill as during the stored runs: baseline arm prefill 200 ns
        // (stored phase 100 → factor 2), decode 50 (stored 50 → 1); what-if arm
        // prefill 60 (stored 30 → 2), decode 40 (stored 40 → 1), total 100.
        // 100 − 30·2 + 100·2·0.5 − 40·1 + 50·1·2 = 200.
        auto [base, run] = mlpRuns();
        for (int rep = 0; rep < 3; ++rep)
            for (const auto& [arm, prefill, decode] :
                 {std::tuple{Arm::Baseline, 200, 50}, std::tuple{Arm::WhatIf, 60, 40}}) {
                run.repetitions.push_back({arm, rep, Phase::Prefill, prefill, false});
                run.repetitions.push_back({arm, rep, Phase::Decode, decode, false});
            }
        const QuantisedModule m{"llm.layer.0.mlp", 4000, 1000, KernelRatios{0.5, 2.0}};
        const auto p = predictFromKernelRatios(base, run, {m});
        QVERIFY(p);
        QCOMPARE(p->wallNs, int64_t(200));
        QVERIFY(p->note.find("A/B median") != std::string::npos);
    }
};

QTEST_MAIN(TestAb)
#include "test_ab.moc"
