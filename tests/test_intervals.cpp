// The comparison's statistics (core/compare): the Pareto front and the
// median and paired-ratio intervals, by hand and by simulation.
#include "core/compare/Intervals.h"
#include "core/compare/Pareto.h"

#include <QTest>
#include <cmath>
#include <numeric>
#include <random>

using namespace mvp;

class TestIntervals : public QObject {
    Q_OBJECT
private slots:
    void paretoFrontByHand() {
        // (cost, loss): 0 (1, 5), 1 (2, 3), 2 (3, 4) beaten by 1, 3 (4, 1),
        // 4 (2, 3) 1's twin, 5 (0.5, NaN) unmeasured, 6 (5, 1) beaten by 3.
        const std::vector<std::pair<double, double>> p{
            {1, 5}, {2, 3}, {3, 4}, {4, 1}, {2, 3}, {0.5, std::nan("")}, {5, 1}};
        QCOMPARE(paretoFront(p), (std::vector<size_t>{0, 1, 4, 3}));
        QVERIFY(paretoFront({}).empty());
    }

    void medianIntervalByHand() {
        const Interval five = medianInterval({5, 1, 4, 2, 3});
        QCOMPARE(five.median, 3.0);
        QCOMPARE(five.low, 1.0);
        QCOMPARE(five.high, 5.0);
        QVERIFY(std::abs(five.coverage - (1.0 - 2.0 / 32.0)) < 1e-12); // min to max of 5: 93.75 %
        std::vector<double> ten(10);
        std::iota(ten.begin(), ten.end(), 1.0);
        const Interval t = medianInterval(ten);
        QCOMPARE(t.median, 5.5);
        QCOMPARE(t.low, 2.0); // x(2) … x(9): P(Bin(10, ½) ≤ 1) = 11/1024
        QCOMPARE(t.high, 9.0);
        QVERIFY(std::abs(t.coverage - (1.0 - 22.0 / 1024.0)) < 1e-12);
        QCOMPARE(medianInterval({}).n, 0);
        QVERIFY(!medianInterval({}).containsOne());
    }

    void medianIntervalCoversAsStated() {
        // Skewed noise (lognormal, true median 1): over many seeds the
        // interval holds the true median as often as its stated coverage.
        for (int n : {5, 9, 20}) {
            std::mt19937 rng(1234 + n);
            std::lognormal_distribution<double> noise(0.0, 0.4);
            const int trials = 4000;
            int hits = 0;
            double stated = 0;
            for (int t = 0; t < trials; ++t) {
                std::vector<double> x(static_cast<size_t>(n));
                for (auto& v : x)
                    v = noise(rng);
                const Interval r = medianInterval(x);
                hits += r.low <= 1.0 && 1.0 <= r.high;
                stated = r.coverage;
            }
            const double seen = double(hits) / trials;
            qInfo("n = %d: stated coverage %.4f, seen %.4f", n, stated, seen);
            QVERIFY2(std::abs(seen - stated) < 0.015, qPrintable(QString::number(seen)));
            QVERIFY(stated >= 0.93);
        }
    }

    void pairedRatioSaysWithinNoise() {
        std::mt19937 rng(7);
        std::lognormal_distribution<double> noise(0.0, 0.25);
        const int trials = 2000, reps = 9;
        int sameInside = 0, fasterInside = 0;
        for (int t = 0; t < trials; ++t) {
            std::vector<double> a(reps), same(reps), faster(reps);
            for (int i = 0; i < reps; ++i) {
                a[size_t(i)] = 100 * noise(rng);
                same[size_t(i)] = 100 * noise(rng);
                faster[size_t(i)] = 40 * noise(rng); // 2.5× faster under the same noise
            }
            sameInside += pairedRatioInterval(a, same).containsOne();
            fasterInside += pairedRatioInterval(a, faster).containsOne();
        }
        const double same = double(sameInside) / trials, faster = double(fasterInside) / trials;
        qInfo("A vs A within noise %.3f; A vs 2.5x faster within noise %.3f", same, faster);
        QVERIFY(same > 0.94 && same < 0.985); // ≈ the interval's 96 % coverage at n = 9
        QVERIFY(faster < 0.01);
        const Interval r = pairedRatioInterval({10, 20, 30}, {5, 10, 0});
        QCOMPARE(r.n, 2); // the pair with a zero is skipped
        QCOMPARE(r.median, 2.0);
    }
};

QTEST_GUILESS_MAIN(TestIntervals)
#include "test_intervals.moc"
