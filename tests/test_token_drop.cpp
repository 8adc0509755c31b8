// The in-decoder visual-token methods' plans (capture/whatif/TokenDrop.h),
// each number worked here by hand from the papers' code and conventions
// (docs/whatif-methods.md §0, §1): FastV's keep count with Python's rounding,
// PyramidDrop's stage layers and truncated λ^s budgets, the layer-averaged
// budget (SparseVLM's own "192" example), the kept rows with ties, FastV's
// cost formula against the notes' LLaVA-1.5-7B figures, and the refusals.
#include "capture/whatif/Downsample.h"
#include "capture/whatif/ToMe.h"
#include "capture/whatif/TokenDrop.h"
#include "capture/whatif/VisionZip.h"

#include <QTest>

using namespace mvp;

class TestTokenDrop : public QObject {
    Q_OBJECT

private slots:
    void downsampleTokensStandForTheirCentrePatches() {
        // 24 × 24 → 8 × 8: the centres are rows and columns 1, 4, 7, …, 22.
        QCOMPARE(*downsampleGrid(24, 64), 8);
        QCOMPARE(*downsampleGrid(24, 128), 11); // √128 = 11.3: the nearest square, 121
        QCOMPARE(*downsampleGrid(24, 192), 14); // √192 = 13.9: 196
        QVERIFY(!downsampleGrid(24, 576).ok());
        QVERIFY(!downsampleGrid(24, 0).ok());
        const auto reps = downsampleRepresentatives(24, 8);
        QCOMPARE(reps.size(), size_t(64));
        QCOMPARE(reps[0], 1 * 24 + 1);
        QCOMPARE(reps[1], 1 * 24 + 4);
        QCOMPARE(reps[8], 4 * 24 + 1);
        QCOMPARE(reps[63], 22 * 24 + 22);
        // 16 → 5 (ratio 3.2): floor(0.5·3.2) = 1, floor(1.5·3.2) = 4, 8, 11, 14.
        const auto five = downsampleRepresentatives(16, 5);
        QCOMPARE(five[4], 1 * 16 + 14); // row 0 → patch row 1, column 4 → 14
        QCOMPARE(five[5], 4 * 16 + 1);
    }

    void dartSelectsByHand() {
        const auto plan = planDart(8, 576, 2, 128);
        QVERIFY(plan.ok());
        QCOMPARE(plan->perPivot, int64_t(16));
        QCOMPARE(plan->stages.front().keep, int64_t(4 + 8 * 16)); // 132 for DART's "128"
        QCOMPARE(plan->stages.front().layer, 2);
        QVERIFY(!planDart(8, 576, 2, 7).ok()); // fewer than one token per pivot
        QVERIFY(!planDart(8, 576, 8, 128).ok());
        // Six image tokens, two text tokens; one pivot of each, two tokens per pivot.
        TokenDrop d;
        d.method = TokenDropMethod::Dart;
        d.pivotsImage = 1;
        d.pivotsText = 1;
        d.perPivot = 2;
        const std::vector<double> imageL1{1, 9, 3, 2, 5, 4}, textL1{7, 8};
        // Image pivot 1 (L1 9), text pivot 1 (L1 8). States in 2-D:
        const std::vector<std::vector<double>> image{{1, 0},  {1, 0},   {0, 1},
                                                     {-1, 0}, {1, 0.1}, {0.7, 0.7}},
            text{{0, 0}, {0, 1}};
        // Pivot image 1 = (1, 0): cosines of 0, 2, 3, 4, 5 are 1, 0, −1, 0.995, 0.707:
        // the least similar are 3 and 2. Then text pivot (0, 1) against 0, 4, 5:
        // 0, 0.0995, 0.707: 0 and 4. Kept: the image pivot 1, then 3, 2, 0, 4.
        QCOMPARE(dartKeep(imageL1, textL1, image, text, d), (std::vector<int64_t>{0, 1, 2, 3, 4}));
    }

    void tomeSchedulesByHand() {
        QCOMPARE(*tomeSchedule(576, 6, 40), (std::vector<int64_t>(6, 40)));
        // merge.py's clamp to half of what a block holds: 10 → 6 → 3 → 2.
        QCOMPARE(*tomeSchedule(10, 3, 4), (std::vector<int64_t>{4, 3, 1}));
        // 128 of 576 over 6 blocks: r = ceil(448 / 6) = 75; 576 − 5·75 = 201,
        // so the last block merges 73.
        QCOMPARE(*tomeScheduleForBudget(576, 6, 128),
                 (std::vector<int64_t>{75, 75, 75, 75, 75, 73}));
        // 64: r = 86 leaves 146 before the last block, which merges at most 73.
        const auto low = tomeScheduleForBudget(576, 6, 64);
        QVERIFY(!low.ok());
        QVERIFY(low.error().message.find("leaves 73") != std::string::npos);
        QVERIFY(!tomeSchedule(576, 6, 0).ok());
    }

    void visionZipSplitsLikeItsLlavaSettings() {
        // 54 + 10, 108 + 20, 162 + 30 (VisionZip's LLaVA-1.5 settings).
        const std::pair<int64_t, int64_t> expected[] = {{54, 10}, {108, 20}, {162, 30}};
        const int64_t budgets[] = {64, 128, 192};
        for (int i = 0; i < 3; ++i) {
            const auto s = visionZipSplit(576, budgets[i]);
            QVERIFY(s.ok());
            QCOMPARE(s->dominant, expected[i].first);
            QCOMPARE(s->contextual, expected[i].second);
        }
        QCOMPARE(visionZipSplit(576, 3)->contextual, int64_t(1)); // round(0.47) → at least 1
        QVERIFY(!visionZipSplit(576, 576).ok());
        QVERIFY(!visionZipSplit(576, 1).ok());
    }

    void visionZipSelectsAndAssignsByHand() {
        // Eight tokens, 2 dominant + 2 contextual. Scores: 5 and 1 lead
        // (0.9, 0.8); 0.5 ties at 2 and 6 but neither is needed.
        const std::vector<double> scores{0.1, 0.9, 0.5, 0.2, 0.3, 0.8, 0.5, 0.0};
        // Keys in 2-D: the rest (0, 2, 3, 4, 6, 7) has R = 6, step 6 / 2 = 3,
        // targets rest[0] = 0 and rest[3] = 4. Token 2 (1, 0.1) is nearer 0's (1, 0);
        // 3 (0, 1) and 6 (0.1, 1) nearer 4's (0, 2); 7 (1, 1) is equidistant
        // (cosine 0.707 to both): the first target, 0.
        const std::vector<std::vector<double>> keys{{1, 0}, {5, 5}, {1, 0.1}, {0, 1},
                                                    {0, 2}, {3, 1}, {0.1, 1}, {1, 1}};
        const auto s = visionZipSelect(scores, keys, VisionZipSplit{2, 2});
        QVERIFY(s.ok());
        QCOMPARE(s->dominant, (std::vector<int64_t>{1, 5}));
        QCOMPARE(s->targets, (std::vector<int64_t>{0, 4}));
        QCOMPARE(s->merged, (std::vector<int64_t>{2, 3, 6, 7}));
        QCOMPARE(s->into, (std::vector<int64_t>{0, 1, 1, 0}));
        QCOMPARE(s->sent(), (std::vector<int64_t>{1, 5, 0, 4}));
        QVERIFY(!visionZipSelect(scores, keys, VisionZipSplit{7, 2}).ok());
    }

    void fastVKeepsRoundedComplement_data() {
        QTest::addColumn<int>("visual");
        QTest::addColumn<double>("r");
        QTest::addColumn<int>("keep");
        QTest::newRow("paper K=2 R=50% of 576") << 576 << 0.5 << 288;
        QTest::newRow("demo R=75% of 576") << 576 << 0.75 << 144;
        QTest::newRow("R=0 keeps all") << 576 << 0.0 << 576;
        // Python's round(2.5) = 2 and round(3.5) = 4: half to even.
        QTest::newRow("2.5 rounds to 2") << 5 << 0.5 << 2;
        QTest::newRow("3.5 rounds to 4") << 7 << 0.5 << 4;
    }
    void fastVKeepsRoundedComplement() {
        QFETCH(int, visual);
        QFETCH(double, r);
        QFETCH(int, keep);
        const auto d = planFastV(8, visual, 2, r);
        QVERIFY(d.ok());
        QCOMPARE(d->stages.size(), size_t(1));
        QCOMPARE(d->stages[0].layer, 2);
        QCOMPARE(d->stages[0].keep, int64_t(keep));
        QVERIFY(!d->scoresWithOwnLayer());
        QVERIFY(!d->renumbersPositions());
    }

    void pyramidDropScalesLlavasStages() {
        // LLaVA's 32 layers: layer_list [8, 16, 24], ratios 0.5, 0.25, 0.125.
        auto d = planPyramidDrop(32, 576, 0.5);
        QVERIFY(d.ok());
        QCOMPARE(d->stages.size(), size_t(3));
        const std::pair<int, int64_t> want32[] = {{8, 288}, {16, 144}, {24, 72}};
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(d->stages[i].layer, want32[i].first);
            QCOMPARE(d->stages[i].keep, want32[i].second);
        }
        QVERIFY(d->scoresWithOwnLayer());
        QVERIFY(d->renumbersPositions());
        // 8 layers: before 2, 4, 6. λ = 0.3: int(172.8), int(51.84), int(15.552).
        d = planPyramidDrop(8, 576, 0.3);
        QVERIFY(d.ok());
        const std::pair<int, int64_t> want8[] = {{2, 172}, {4, 51}, {6, 15}};
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(d->stages[i].layer, want8[i].first);
            QCOMPARE(d->stages[i].keep, want8[i].second);
        }
        // 5 layers: 5/4 = 1, 10/4 = 2, 15/4 = 3.
        d = planPyramidDrop(5, 100, 1.0);
        QVERIFY(d.ok());
        QCOMPARE(d->stages[0].layer, 1);
        QCOMPARE(d->stages[1].layer, 2);
        QCOMPARE(d->stages[2].layer, 3);
        QCOMPARE(d->stages[2].keep, int64_t(100));
    }

    void layerAveragedBudget() {
        // FastV K=2, R=50 % over 8 layers: (2·576 + 6·288) / 8 = 360.
        const auto f = planFastV(8, 576, 2, 0.5);
        QCOMPARE(layerAveragedVisualTokens(*f, 8), 360.0);
        const auto per = visualTokensPerLayer(*f, 8);
        QCOMPARE(per.size(), size_t(8));
        QCOMPARE(per[1], int64_t(576));
        QCOMPARE(per[2], int64_t(288));
        QCOMPARE(per[7], int64_t(288));
        // PyramidDrop λ = 0.5 over 8 layers: (2·576 + 2·288 + 2·144 + 2·72) / 8 = 270.
        QCOMPARE(layerAveragedVisualTokens(*planPyramidDrop(8, 576, 0.5), 8), 270.0);
        // SparseVLM's "192" (docs/whatif-methods.md §0): 576 tokens in 2 layers, 300
        // in 4, 200 in 10, 110 in 16 of 32 is (2·576 + 4·300 + 10·200 + 16·110)
        // / 32 = 191.
        TokenDrop s;
        s.visual = 576;
        s.stages = {{2, 300}, {6, 200}, {16, 110}};
        QCOMPARE(layerAveragedVisualTokens(s, 32), 191.0);
    }

    void keptRowsAreTheTopScoresInOrder() {
        // Image rows 1…5 of 8; scores 0.1 0.5 0.3 0.5 0.2.
        const std::vector<double> scores{0.1, 0.5, 0.3, 0.5, 0.2};
        QCOMPARE(keptRows(scores, 1, 8, 3), (std::vector<int64_t>{0, 2, 3, 4, 6, 7}));
        // A tie keeps the earlier row.
        QCOMPARE(keptRows(scores, 1, 8, 1), (std::vector<int64_t>{0, 2, 6, 7}));
        QCOMPARE(keptRows(scores, 1, 8, 0), (std::vector<int64_t>{0, 6, 7}));
        QCOMPARE(keptRows(scores, 1, 8, 5), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    }

    void fastVFormulaMatchesTheNotes() {
        // LLaVA-1.5-7B (d 4096, m 11008, 32 layers), visual tokens only:
        // C(576) = 576·4096·(4·4096 + 2·576 + 2·11008) = 576·4096·39552 per
        // layer, 2.99 TFLOPs over 32 layers; C(192) = 192·4096·38784, 0.98.
        std::vector<FastVCostLayer> full(32, {576, 11008}), small(32, {192, 11008});
        const double ratio = fastVCostRatio(small, full, 4096);
        QVERIFY(std::abs(ratio - (192.0 * 38784) / (576.0 * 39552)) < 1e-12);
        QVERIFY(std::abs(32.0 * 576 * 4096 * 39552 / 1e12 - 2.99) < 0.005);
        QVERIFY(std::abs(32.0 * 192 * 4096 * 38784 / 1e12 - 0.98) < 0.005);
        // FastV K=3, R=50 % on those tokens: (3·C(576) + 29·C(288)) / (32·C(576)).
        std::vector<FastVCostLayer> fastv(32, {288, 11008});
        for (int l = 0; l < 3; ++l)
            fastv[size_t(l)] = {576, 11008};
        const double c576 = 576.0 * 4096 * 39552, c288 = 288.0 * 4096 * (16384 + 576 + 22016);
        QVERIFY(std::abs(fastVCostRatio(fastv, full, 4096) - (3 * c576 + 29 * c288) / (32 * c576)) <
                1e-12);
    }

    void budgetsBecomeParameters() {
        // FastV K=2 over 8 layers: keep = (192·8 − 2·576) / 6 = 64, R = 1 − 64/576.
        auto r = fastVRatioForBudget(8, 576, 2, 192);
        QVERIFY(r.ok());
        QCOMPARE(planFastV(8, 576, 2, *r)->stages[0].keep, int64_t(64));
        // LLaVA's 32 layers, K=2: keep = (192·32 − 2·576) / 30 = 166.4 → 166.
        r = fastVRatioForBudget(32, 576, 2, 192);
        QCOMPARE(planFastV(32, 576, 2, *r)->stages[0].keep, int64_t(166));
        // Unreachable: 2 of 8 layers already average 144.
        QVERIFY(!fastVRatioForBudget(8, 576, 2, 128).ok());
        QVERIFY(!fastVRatioForBudget(8, 576, 2, 600).ok());
        // PyramidDrop over 32 layers at λ = 0.5 averages (8·576 + 8·288 + 8·144 +
        // 8·72) / 32 = 270: the budget 270 gives back a λ with that average.
        const auto l = pyramidDropLambdaForBudget(32, 576, 270);
        QVERIFY(l.ok());
        QCOMPARE(layerAveragedVisualTokens(*planPyramidDrop(32, 576, *l), 32), 270.0);
        QVERIFY(!pyramidDropLambdaForBudget(8, 576, 128).ok()); // layers 0, 1 hold 144
        // Pre-LLM pruning: the tokens sent.
        QCOMPARE(*keepFractionForBudget(576, 64), 64.0 / 576);
        QVERIFY(!keepFractionForBudget(576, 0).ok());
    }

    void badRequestsAreRefused_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("k");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("says");
        QTest::newRow("K = 0") << QStringLiteral("fastv") << 8 << 0 << 0.5
                               << QStringLiteral("from 1 to 7");
        QTest::newRow("K beyond the depth")
            << QStringLiteral("fastv") << 8 << 8 << 0.5 << QStringLiteral("has 8 decoder layers");
        QTest::newRow("R = 1") << QStringLiteral("fastv") << 8 << 2 << 1.0
                               << QStringLiteral("[0, 1)");
        QTest::newRow("R < 0") << QStringLiteral("fastv") << 8 << 2 << -0.1
                               << QStringLiteral("[0, 1)");
        QTest::newRow("too shallow")
            << QStringLiteral("pdrop") << 3 << 0 << 0.5 << QStringLiteral("at least 4");
        QTest::newRow("λ = 0") << QStringLiteral("pdrop") << 8 << 0 << 0.0
                               << QStringLiteral("(0, 1]");
        QTest::newRow("λ > 1") << QStringLiteral("pdrop") << 8 << 0 << 1.5
                               << QStringLiteral("(0, 1]");
    }
    void badRequestsAreRefused() {
        QFETCH(QString, method);
        QFETCH(int, layers);
        QFETCH(int, k);
        QFETCH(double, value);
        QFETCH(QString, says);
        const auto d = method == QLatin1String("fastv") ? planFastV(layers, 576, k, value)
                                                        : planPyramidDrop(layers, 576, value);
        QVERIFY(!d.ok());
        QCOMPARE(d.error().code, ErrorCode::BadInput);
        QVERIFY2(QString::fromStdString(d.error().message).contains(says),
                 d.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTokenDrop)
#include "test_token_drop.moc"
