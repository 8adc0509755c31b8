// Expert_Sparsity's two MoE methods on plain numbers
// (capture/whatif/ExpertSparsity.h), worked here by hand: β as the lower
// median of w₂/w₁ per layer, the ranks skipping drops, and the subset search
// trying every C(E, r) subset in order with ties to the earlier.
#include "capture/whatif/ExpertSparsity.h"

#include <QTest>

using namespace mvp;

namespace {
// A token's top-2 rows in `layer` at prefill position `pos`.
void token(std::vector<RoutingRow>& rows, int layer, int pos, double w0, double w1) {
    rows.push_back({layer, Phase::Prefill, 0, pos, Modality::Text, 0, 1, w0});
    rows.push_back({layer, Phase::Prefill, 0, pos, Modality::Text, 1, 2, w1});
}
} // namespace

class TestExpertSparsity : public QObject {
    Q_OBJECT

private slots:
    void betaIsEachLayersLowerMedianRatio() {
        std::vector<RoutingRow> rows;
        // Layer 1: ratios 0.25, 0.5, 0.75, 1.0 → lower median 0.5.
        token(rows, 1, 0, 0.8, 0.2);
        token(rows, 1, 1, 0.6, 0.3);
        token(rows, 1, 2, 0.4, 0.3);
        token(rows, 1, 3, 0.5, 0.5);
        // Layer 3: ratios 0.1, 0.9, 0.3 → median 0.3; a decode step's token
        // at the same position is another token.
        token(rows, 3, 0, 0.5, 0.05);
        token(rows, 3, 1, 0.5, 0.45);
        rows.push_back({3, Phase::Decode, 1, 1, Modality::Text, 0, 0, 0.5});
        rows.push_back({3, Phase::Decode, 1, 1, Modality::Text, 1, 4, 0.15});
        const auto beta = skippingThresholds(rows);
        QVERIFY(beta.ok());
        QCOMPARE(beta->size(), size_t(2));
        QCOMPARE(beta->at(1), 0.5);
        QCOMPARE(beta->at(3), 0.15 / 0.5);
        // Top-1 routing has no second expert to skip.
        std::vector<RoutingRow> top1{{0, Phase::Prefill, 0, 0, Modality::Text, 0, 1, 1.0}};
        QVERIFY(!skippingThresholds(top1).ok());
    }

    void skippingDropsRanksBelowBetaTimesTheTop() {
        QCOMPARE(skippedRanks({0.6, 0.4}, 0.5), std::vector<int>{});  // 0.4 ≥ 0.3
        QCOMPARE(skippedRanks({0.7, 0.3}, 0.5), std::vector<int>{1}); // 0.3 < 0.35
        QCOMPARE(skippedRanks({0.5, 0.3, 0.2}, 0.5), std::vector<int>{2});
        QCOMPARE(skippedRanks({0.5, 0.25, 0.25}, 0.5), std::vector<int>{}); // not strictly below
    }

    void subsetSearchTriesEverySubset() {
        // Cost of a subset: the sum of its experts' costs; the cheapest 3 of 5.
        const double cost[] = {5, 1, 4, 2, 3};
        int calls = 0;
        std::vector<std::vector<int>> seen;
        const auto best = bestExpertSubset(5, 3, [&](const std::vector<int>& s) {
            ++calls;
            seen.push_back(s);
            double c = 0;
            for (int e : s)
                c += cost[e];
            return c;
        });
        QCOMPARE(calls, 10); // C(5, 3)
        QCOMPARE(best, (std::vector<int>{1, 3, 4}));
        QCOMPARE(seen.front(), (std::vector<int>{0, 1, 2})); // lexicographic order
        QCOMPARE(seen.back(), (std::vector<int>{2, 3, 4}));
        // C(8, 6) = 28 subsets; equal losses keep the first, {0 … 5}.
        calls = 0;
        const auto tie = bestExpertSubset(8, 6, [&](const std::vector<int>&) {
            ++calls;
            return 1.0;
        });
        QCOMPARE(calls, 28);
        QCOMPARE(tie, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    }
};

QTEST_GUILESS_MAIN(TestExpertSparsity)
#include "test_expert_sparsity.moc"
