// The published KV-cache methods' selections and KIVI's format
// (capture/whatif/KvPolicies.h), each case worked here by hand from the
// papers' code (docs/whatif-methods.md §2): StreamingLLM's sinks and window, H2O's
// heavy hitters evicted pass by pass, SnapKV's pooled votes, KIVI's split,
// size and group quantisation. Every method keeps exactly its budget.
#include "capture/whatif/KvPolicies.h"

#include <QTest>

using namespace mvp::kv;

namespace {
Positions P(std::initializer_list<int64_t> p) {
    return Positions(p);
}

// KIVI's cache as models/llama_kivi.py grows it, step by step: a prefill of
// `prefill` tokens, then one token per decode step.
KiviSplit simulateKivi(int64_t prefill, int64_t steps, int64_t residual) {
    KiviSplit s;
    // Prefill: keys quantised in whole blocks, the remainder full;
    // values: the last `residual` full.
    if (prefill % residual == 0) {
        s.quantisedKeys = prefill;
    } else if (prefill < residual) {
        s.fullKeys = prefill;
    } else {
        s.fullKeys = prefill % residual;
        s.quantisedKeys = prefill - s.fullKeys;
    }
    s.fullValues = prefill <= residual ? prefill : residual;
    s.quantisedValues = prefill - s.fullValues;
    for (int64_t i = 0; i < steps; ++i) {
        if (++s.fullKeys == residual) { // the full keys fill a block: quantised
            s.quantisedKeys += residual;
            s.fullKeys = 0;
        }
        if (++s.fullValues > residual) { // the oldest full value is quantised
            ++s.quantisedValues;
            --s.fullValues;
        }
    }
    return s;
}
} // namespace

class TestKvPolicies : public QObject {
    Q_OBJECT
private slots:
    void streamingKeepsSinksAndWindow() {
        QCOMPARE(streamingKeep(10, 2, 3), P({0, 1, 7, 8, 9}));
        QCOMPARE(streamingKeep(5, 2, 3), P({0, 1, 2, 3, 4}));
        QCOMPARE(streamingKeep(4, 2, 3), P({0, 1, 2, 3}));
        QCOMPARE(streamingKeep(1000, 4, 512).size(), size_t(516));
    }

    // heavy 1, recent 2. Head 0: prefill sums 0.5 0.1 0.3 0.1 keep position
    // 0 (heavier of 0, 1) and 2, 3; the decode pass adds 0.1 0.5 0.2 0.2 →
    // sums 0.6 0.8 0.3 0.2 over 0, 2, 3, 4: position 2 now outweighs 0, which
    // goes for good. Head 1 on its own numbers keeps 1, 3, 4.
    void h2oEvictsPassByPass() {
        H2OCache cache(2, 1, 2);
        QVERIFY(cache.step({{0.5, 0.1, 0.3, 0.1}, {0.1, 0.6, 0.2, 0.1}}, 4));
        QCOMPARE(cache.kept()[0], P({0, 2, 3}));
        QCOMPARE(cache.kept()[1], P({1, 2, 3}));
        QVERIFY(cache.step({{0.1, 0.5, 0.2, 0.2}, {0.3, 0.1, 0.1, 0.5}}, 1));
        QCOMPARE(cache.kept()[0], P({2, 3, 4}));
        QCOMPARE(cache.kept()[1], P({1, 3, 4}));
        QCOMPARE(cache.scores()[0][0], 0.3 + 0.5); // position 2's sum
        QCOMPARE(cache.scores()[1][0], 0.6 + 0.3); // position 1's
        for (const auto& k : cache.kept())
            QCOMPARE(k.size(), size_t(3)); // heavy + recent, per head
        // Ties go to the earlier position.
        H2OCache tie(1, 1, 1);
        QVERIFY(tie.step({{0.2, 0.2, 0.2}}, 3));
        QCOMPARE(tie.kept()[0], P({0, 2}));
        // The attention must cover the kept slots and the new ones.
        QVERIFY(!cache.step({{0.1, 0.2}, {0.1, 0.2}}, 1));
        QVERIFY(!cache.step({{0.1, 0.2, 0.3, 0.4}}, 1));
    }

    // 10 positions, window 3 (positions 7-9), capacity 6: three more. Votes
    // of 0-6: 0.9 0 0 0 0.2 0.2 0.2. Average pooling over 3 (zeros padded,
    // divided by 3): 0.3 0.3 0 0.067 0.133 0.2 0.133 → 0, 1, 5. Max pooling:
    // 0.9 0.9 0 0.2 0.2 0.2 0.2 → 0, 1 and the earliest 0.2, 3. No pooling
    // (kernel 1): 0, 4, 5.
    void snapKvPoolsTheVotes() {
        const std::vector<std::vector<double>> votes = {{0.9, 0, 0, 0, 0.2, 0.2, 0.2}};
        auto avg = snapKvKeep(votes, 10, 3, 6, 3, Pooling::Average);
        QVERIFY(avg);
        QCOMPARE((*avg)[0], P({0, 1, 5, 7, 8, 9}));
        auto max = snapKvKeep(votes, 10, 3, 6, 3, Pooling::Max);
        QVERIFY(max);
        QCOMPARE((*max)[0], P({0, 1, 3, 7, 8, 9}));
        // The average counts the padding (PyTorch's count_include_pad): votes
        // 0.6 0 0 0.25 0.25 0.25 0 pool to 0.2 at position 0 (0.6 / 3, not
        // 0.6 / 2 = 0.3) against 0.25 at position 4, which wins the one place.
        auto padded = snapKvKeep({{0.6, 0, 0, 0.25, 0.25, 0.25, 0}}, 10, 3, 4, 3, Pooling::Average);
        QVERIFY(padded);
        QCOMPARE((*padded)[0], P({4, 7, 8, 9}));
        auto raw = snapKvKeep(votes, 10, 3, 6, 1, Pooling::Average);
        QVERIFY(raw);
        QCOMPARE((*raw)[0], P({0, 4, 5, 7, 8, 9}));
        // Fewer positions than the capacity: all kept.
        auto small = snapKvKeep({{}}, 5, 3, 6, 3, Pooling::Average);
        QVERIFY(small);
        QCOMPARE((*small)[0], P({0, 1, 2, 3, 4}));
        // Bad requests say why.
        QVERIFY(!snapKvKeep(votes, 10, 3, 6, 4, Pooling::Average)); // even kernel
        QVERIFY(!snapKvKeep(votes, 10, 6, 6, 3, Pooling::Average)); // capacity ≤ window
        QVERIFY(!snapKvKeep(votes, 11, 3, 6, 3, Pooling::Average)); // votes for 7 of 8
    }

    void kiviSplitMatchesItsDecodeLoop() {
        const KiviFormat f; // 2 bits, group 32, residual 32
        for (int64_t prefill = 1; prefill <= 80; ++prefill)
            for (int64_t steps = 0; steps <= 80; steps += 7) {
                const KiviSplit a = simulateKivi(prefill, steps, f.residual);
                const KiviSplit b = kiviSplit(prefill + steps, f);
                QVERIFY2(
                    a.quantisedKeys == b.quantisedKeys && a.fullKeys == b.fullKeys &&
                        a.quantisedValues == b.quantisedValues && a.fullValues == b.fullValues,
                    qPrintable(QStringLiteral("prefill %1, steps %2").arg(prefill).arg(steps)));
            }
    }

    // Head dimension 128, 2 bits, group 32, residual 32, float16.
    // 100 tokens: keys 96 quantised (4 full), values 68 quantised (32 full).
    //   keys   96·128·2/8 = 3072 code bytes + 128 channels · 3 groups · 4 = 1536
    //   values 68·128·2/8 = 2176 + 68 tokens · 4 groups · 4 = 1088
    //   full   (4 + 32)·128·2 = 9216                     → 17 088 bytes
    // 64 tokens: 2048 + 1024 + 1024 + 512 + 32·128·2 = 12 800; 20 tokens: all
    // full, 2·20·128·2 = 10 240 (as the float16 cache).
    void kiviBytesOfTheFormat() {
        const KiviFormat f;
        QCOMPARE(kiviBytes(100, 128, f).value(), int64_t(17088));
        QCOMPARE(kiviBytes(64, 128, f).value(), int64_t(12800));
        QCOMPARE(kiviBytes(20, 128, f).value(), int64_t(10240));
        KiviFormat four = f;
        four.bits = 4; // 100 tokens: 6144 + 1536 + 4352 + 1088 + 9216
        QCOMPARE(kiviBytes(100, 128, four).value(), int64_t(22336));
        QVERIFY(!kiviBytes(100, 100, f)); // 100 channels are no whole groups of 32
    }

    void kiviQuantisesAGroup() {
        const auto a = kiviQuantise({0.0, 1.0, 2.0, 3.0}, 2);
        QCOMPARE(a.scale, 1.0);
        QCOMPARE(a.minimum, 0.0);
        QCOMPARE(a.codes, (std::vector<uint8_t>{0, 1, 2, 3}));
        // 0.5 rounds to even, as torch.round does.
        const auto b = kiviQuantise({0.0, 0.4, 0.5, 1.5, 3.0}, 2);
        QCOMPARE(b.codes, (std::vector<uint8_t>{0, 0, 0, 2, 3}));
        const auto c = kiviQuantise({1.5, 2.5}, 1);
        QCOMPARE(c.codes, (std::vector<uint8_t>{0, 1}));
        const auto flat = kiviQuantise({7.0, 7.0}, 2);
        QCOMPARE(flat.scale, 0.0);
        QCOMPARE(flat.codes, (std::vector<uint8_t>{0, 0}));
    }
};

QTEST_APPLESS_MAIN(TestKvPolicies)
#include "test_kv_policies.moc"
