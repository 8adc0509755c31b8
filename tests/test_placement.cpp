// DeepSeek's EPLB placement (core/placement/Eplb.h) against numbers it was
// not computed with: the reference repository's README example
// (deepseek-ai/EPLB: 2 layers × 12 experts, 16 replicas, 4 groups, 2 nodes,
// 8 GPUs → its printed phy2log), a global-policy case worked by hand, the
// invariants every placement keeps, and the refusals.
#include "core/placement/Eplb.h"

#include <QTest>
#include <algorithm>
#include <numeric>

using namespace mvp;

namespace {
const ExpertLoad kReadmeLoad = {{90, 132, 40, 61, 104, 165, 39, 4, 73, 56, 183, 86},
                                {20, 107, 104, 64, 19, 197, 187, 157, 172, 86, 16, 27}};

// Every slot holds an expert, each expert's replicas are counted and ranked
// 0..count-1, and the counts add up to the slots.
void checkInvariants(const ExpertPlacement& p, int experts, int slotCount) {
    for (size_t l = 0; l < p.physicalToLogical.size(); ++l) {
        const auto& map = p.physicalToLogical[l];
        QCOMPARE(int(map.size()), slotCount);
        std::vector<std::vector<int>> ranks(static_cast<size_t>(experts));
        for (size_t s = 0; s < map.size(); ++s) {
            QVERIFY(map[s] >= 0 && map[s] < experts);
            ranks[size_t(map[s])].push_back(p.replicaRank[l][s]);
        }
        QCOMPARE(std::accumulate(p.logicalCount[l].begin(), p.logicalCount[l].end(), 0), slotCount);
        for (int e = 0; e < experts; ++e) {
            auto r = ranks[size_t(e)];
            std::sort(r.begin(), r.end());
            QCOMPARE(int(r.size()), p.logicalCount[l][size_t(e)]);
            for (size_t i = 0; i < r.size(); ++i)
                QCOMPARE(r[i], int(i));
        }
    }
}
} // namespace

class TestPlacement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readmeExampleGivesTheReferencePlacement() {
        auto p = rebalanceExperts(kReadmeLoad, {16, 4, 2, 8});
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message.c_str());
        QCOMPARE(p->policy, EplbPolicy::Hierarchical);
        QCOMPARE(p->slotsPerGpu, 2);
        const std::vector<std::vector<int>> printed = {
            {5, 6, 5, 7, 8, 4, 3, 4, 10, 9, 10, 2, 0, 1, 11, 1},
            {7, 10, 6, 8, 6, 11, 8, 9, 2, 4, 5, 1, 5, 0, 3, 1}};
        QCOMPARE(p->physicalToLogical, printed);
        checkInvariants(*p, 12, 16);
        // Hierarchical: an expert's replicas stay on one node (GPUs 0–3, 4–7).
        for (const auto& map : p->physicalToLogical)
            for (int e = 0; e < 12; ++e) {
                std::vector<int> nodes;
                for (size_t s = 0; s < map.size(); ++s)
                    if (map[s] == e) nodes.push_back(int(s) / 8);
                QVERIFY(std::all_of(nodes.begin(), nodes.end(),
                                    [&](int n) { return n == nodes.front(); }));
            }
    }

    void globalPolicyByHand() {
        // 3 groups over 2 nodes do not divide: the global policy. Slots: the
        // four experts, then expert 0 twice more (10/1, then 10/2 = 5 > 1);
        // the six slots, heaviest first (slots 0, 4, 5 carry 10/3 each), go
        // to the lighter of two GPUs of three slots: GPU 0 gets slots 0, 5, 3,
        // GPU 1 slots 4, 1, 2.
        auto p = rebalanceExperts({{10, 1, 1, 1}}, {6, 3, 2, 2});
        QVERIFY(p.ok());
        QCOMPARE(p->policy, EplbPolicy::Global);
        QCOMPARE(p->physicalToLogical.front(), (std::vector<int>{0, 0, 3, 0, 1, 2}));
        QCOMPARE(p->replicaRank.front(), (std::vector<int>{0, 2, 0, 1, 0, 0}));
        QCOMPARE(p->logicalCount.front(), (std::vector<int>{3, 1, 1, 1}));
        const auto load = gpuLoad({{10, 1, 1, 1}}, *p);
        QCOMPARE(load.front().size(), size_t(2));
        QVERIFY(qFuzzyCompare(load[0][0], 10.0 * 2 / 3 + 1));
        QVERIFY(qFuzzyCompare(load[0][1], 10.0 / 3 + 2));
        // SGLang's trivial placement, slot i → expert i mod 4: experts 0 and 1
        // twice, each GPU 5 + 0.5 + 1.
        const auto trivial = trivialPlacement(1, 4, {6, 3, 2, 2});
        QCOMPARE(trivial.physicalToLogical.front(), (std::vector<int>{0, 1, 2, 3, 0, 1}));
        QCOMPARE(trivial.logicalCount.front(), (std::vector<int>{2, 2, 1, 1}));
        QCOMPARE(gpuLoad({{10, 1, 1, 1}}, trivial).front(), (std::vector<double>{6.5, 6.5}));
    }

    void placementsNeverLoseLoad() {
        // Skewed loads, several shapes: the GPUs' loads add up to the layer's,
        // and the hottest GPU is no hotter than under the trivial placement.
        ExpertLoad load(3, std::vector<double>(32));
        for (size_t l = 0; l < load.size(); ++l)
            for (size_t e = 0; e < 32; ++e)
                load[l][e] = double((e * 37 + l * 11) % 97) * (e % 5 == 0 ? 20 : 1);
        for (const EplbShape shape : {EplbShape{32, 1, 1, 4}, EplbShape{48, 8, 2, 8},
                                      EplbShape{40, 4, 4, 4}, EplbShape{64, 3, 2, 16}}) {
            auto p = rebalanceExperts(load, shape);
            QVERIFY2(p.ok(), p.ok() ? "" : p.error().message.c_str());
            checkInvariants(*p, 32, shape.replicas);
            const auto after = gpuLoad(load, *p);
            const auto before = gpuLoad(load, trivialPlacement(3, 32, shape));
            for (size_t l = 0; l < load.size(); ++l) {
                QCOMPARE(int(after[l].size()), shape.gpus);
                const double total = std::accumulate(load[l].begin(), load[l].end(), 0.0);
                QVERIFY(std::abs(std::accumulate(after[l].begin(), after[l].end(), 0.0) - total) <
                        1e-6 * total);
                QVERIFY(*std::max_element(after[l].begin(), after[l].end()) <=
                        *std::max_element(before[l].begin(), before[l].end()) + 1e-9);
            }
        }
    }

    void impossibleShapesAreRefused_data() {
        QTest::addColumn<int>("replicas");
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<QString>("says");
        QTest::newRow("fewer slots than experts") << 8 << 4 << 2 << 8 << "cannot hold 12 experts";
        QTest::newRow("slots over GPUs") << 18 << 4 << 2 << 8 << "do not divide evenly over 8 GPUs";
        QTest::newRow("GPUs over nodes") << 18 << 4 << 2 << 3 << "3 GPUs do not divide evenly";
        QTest::newRow("experts into groups") << 16 << 8 << 2 << 8 << "do not divide into 8 groups";
        QTest::newRow("zero GPUs") << 16 << 4 << 2 << 0 << "at least 1";
    }
    void impossibleShapesAreRefused() {
        QFETCH(int, replicas);
        QFETCH(int, groups);
        QFETCH(int, nodes);
        QFETCH(int, gpus);
        QFETCH(QString, says);
        auto p = rebalanceExperts(kReadmeLoad, {replicas, groups, nodes, gpus});
        QVERIFY(!p.ok());
        QVERIFY2(QString::fromStdString(p.error().message).contains(says),
                 p.error().message.c_str());
    }

    void badLoadsAreRefused() {
        QVERIFY(!rebalanceExperts({}, {16, 4, 2, 8}).ok());
        QVERIFY(!rebalanceExperts({{1, 2, 3}, {1, 2}}, {4, 1, 1, 2}).ok());
        QVERIFY(!rebalanceExperts({{1, -2, 3, 4}}, {4, 1, 1, 2}).ok());
        QVERIFY(!rebalanceExperts({{1, std::nan(""), 3, 4}}, {4, 1, 1, 2}).ok());
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "test_placement.moc"
