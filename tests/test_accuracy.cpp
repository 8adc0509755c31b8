// Accuracy intervals (core/compare/Accuracy.h) against published values and
// arithmetic worked by hand: Wilson's interval against Newcombe's table
// (Statistics in Medicine 17:857–872, 1998, Table I, method 3), McNemar's
// exact p as binomial sums, the Agresti–Min interval worked out below.
#include "core/compare/Accuracy.h"

#include <QTest>

using namespace mvp;

namespace {

std::vector<bool> pattern(int bothRight, int baselineOnly, int whatIfOnly, int bothWrong) {
    std::vector<bool> v;
    v.insert(v.end(), bothRight + baselineOnly, true);
    v.insert(v.end(), whatIfOnly + bothWrong, false);
    return v;
}

} // namespace

class TestAccuracy : public QObject {
    Q_OBJECT
private slots:
    void wilsonMatchesNewcombesTable_data() {
        QTest::addColumn<int>("right");
        QTest::addColumn<int>("items");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("81/263") << 81 << 263 << 0.2553 << 0.3662;
        QTest::newRow("15/148") << 15 << 148 << 0.0624 << 0.1605;
        QTest::newRow("0/20") << 0 << 20 << 0.0 << 0.1611;
        QTest::newRow("1/29") << 1 << 29 << 0.0061 << 0.1718;
    }
    void wilsonMatchesNewcombesTable() {
        QFETCH(int, right);
        QFETCH(int, items);
        QFETCH(double, low);
        QFETCH(double, high);
        const Proportion p = wilsonInterval(right, items);
        QCOMPARE(p.right, right);
        QCOMPARE(p.items, items);
        QVERIFY(qAbs(p.value - double(right) / items) < 1e-12);
        QVERIFY2(qAbs(p.low - low) < 5e-5, qPrintable(QString::number(p.low, 'f', 5)));
        QVERIFY2(qAbs(p.high - high) < 5e-5, qPrintable(QString::number(p.high, 'f', 5)));
    }

    void wilsonEdges() {
        const Proportion all = wilsonInterval(20, 20); // mirror of 0/20
        QVERIFY(qAbs(all.low - (1 - 0.1611)) < 5e-5);
        QCOMPARE(all.high, 1.0);
        const Proportion none = wilsonInterval(0, 0);
        QCOMPARE(none.value, 0.0);
        QCOMPARE(none.low, 0.0);
        QCOMPARE(none.high, 1.0);
    }

    // Two-sided exact McNemar: 2·P(X ≤ min(b, c)), X ~ Bin(b + c, ½), at most 1.
    void mcnemarIsABinomialTail() {
        QVERIFY(qAbs(exactMcNemarP(1, 9) - 2.0 * (1 + 10) / 1024) < 1e-12);
        QVERIFY(qAbs(exactMcNemarP(9, 1) - 2.0 * (1 + 10) / 1024) < 1e-12);
        QVERIFY(qAbs(exactMcNemarP(0, 6) - 2.0 / 64) < 1e-12);
        QVERIFY(qAbs(exactMcNemarP(2, 8) - 2.0 * (1 + 10 + 45) / 1024) < 1e-12);
        QCOMPARE(exactMcNemarP(5, 5), 1.0);
        QCOMPARE(exactMcNemarP(0, 0), 1.0);
    }

    // 50 items: 30 right in both, 3 right only before, 10 only after, 7 in
    // neither. Agresti–Min: b̃ = 3.5, c̃ = 10.5, ñ = 52; d = 7/52 = 0.134615;
    // se = √(14 − 7²/52)/52 = √13.057692/52 = 0.069491; d ± 1.96·se =
    // [−0.001585, 0.270816]: holds 0, so within noise, though p = 0.092.
    void pairedChangeWorkedByHand() {
        auto baseline = pattern(30, 3, 10, 7);
        std::vector<bool> whatIf;
        whatIf.insert(whatIf.end(), 30, true); // both right
        whatIf.insert(whatIf.end(), 3, false); // baseline only
        whatIf.insert(whatIf.end(), 10, true); // what-if only
        whatIf.insert(whatIf.end(), 7, false); // neither
        const PairedChange c = pairedChange(baseline, whatIf);
        QCOMPARE(c.items, 50);
        QCOMPARE(c.baselineOnly, 3);
        QCOMPARE(c.whatIfOnly, 10);
        QVERIFY(qAbs(c.change - 7.0 / 50) < 1e-12);
        QVERIFY2(qAbs(c.low - -0.001585) < 2e-6, qPrintable(QString::number(c.low, 'f', 6)));
        QVERIFY2(qAbs(c.high - 0.270816) < 2e-6, qPrintable(QString::number(c.high, 'f', 6)));
        QVERIFY(c.withinNoise());
        // 2·(1 + 13 + 78 + 286)/8192 = 756/8192.
        QVERIFY(qAbs(c.mcnemarP - 756.0 / 8192) < 1e-12);
    }

    void aClearLossIsNotNoise() {
        // 200 items, the what-if loses 40 the baseline had and gains 2.
        std::vector<bool> baseline(200, true), whatIf(200, true);
        for (int i = 0; i < 40; ++i)
            whatIf[i] = false;
        baseline[100] = baseline[101] = false;
        const PairedChange c = pairedChange(baseline, whatIf);
        QCOMPARE(c.baselineOnly, 40);
        QCOMPARE(c.whatIfOnly, 2);
        QVERIFY(c.high < 0);
        QVERIFY(!c.withinNoise());
        QVERIFY(c.mcnemarP < 1e-8);
    }

    void unequalArmsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairedChange({true}, {true, false}));
    }
};

QTEST_APPLESS_MAIN(TestAccuracy)
#include "test_accuracy.moc"
