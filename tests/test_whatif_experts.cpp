// Expert_Sparsity's skipping and pruning as what-ifs on ref:small (top-2 of
// 8 experts in layers 1, 3, 5, 7), checked against what this test works out
// from the baseline's stored routing:
// - β per layer is the lower median of w₂/w₁ over the baseline's tokens;
// - in the first MoE layer's prefill (whose input the what-if shares with
//   the baseline) exactly the tokens with w₂ < β·w₁ lose their second expert,
//   the top-1 then weighing 1, and every other token keeps both as before;
// - the prefill FLOPs saved equal the skipped rows × one expert's FLOPs;
// - pruning routes only to the kept experts, releases exactly the pruned
//   experts' bytes, and where the baseline never used enough experts the
//   pruned ones are among them at no reconstruction error;
// - bad requests fail with their reason and write nothing.
#include "TestSupport.h"
#include "WhatIfSupport.h"
#include "core/session/SessionReader.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace mvp;
using test::args;
using test::metric;
using test::runCli;

namespace {
struct Moe {
    int64_t dim = 0, expertFfn = 0, experts = 0, topK = 0;
    std::vector<int> layers;
};

Moe moeOf(const RunData& run) {
    const auto l = nlohmann::json::parse(run.run.configJson).at("llm");
    Moe m{l.at("dim"), l.at("expert_ffn"), l.at("experts"), l.at("top_k"), {}};
    for (const auto& x : l.at("moe_layers"))
        m.layers.push_back(x.get<int>());
    return m;
}

// (phase, step, position) → the token's rows by rank, in one layer.
using TokenKey = std::tuple<int, int, int>;
std::map<TokenKey, std::map<int, RoutingRow>> tokensOf(const RunData& run, int layer,
                                                       bool prefillOnly = false) {
    std::map<TokenKey, std::map<int, RoutingRow>> out;
    for (const auto& r : run.routing)
        if (r.layer == layer && (!prefillOnly || r.phase == Phase::Prefill))
            out[{int(r.phase), r.step, r.token}][r.rank] = r;
    return out;
}

double lowerMedian(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2];
}

size_t prefillRows(const RunData& run) {
    return size_t(std::count_if(run.routing.begin(), run.routing.end(),
                                [](const RoutingRow& r) { return r.phase == Phase::Prefill; }));
}
} // namespace

class TestWhatIfExperts : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;
    RunData base, skip, pruned;

private slots:
    void initTestCase() {
        session = dir.filePath(QStringLiteral("small.mvprof"));
        auto r = runCli(args({"capture", "--model", "ref:small", "--steps", "3", "--routing-skew",
                              "3", "--prompt", "What is on the table?"}) +
                        QStringList{QStringLiteral("--image"), test::sampleImage(),
                                    QStringLiteral("--out"), session});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(args({"whatif", "--skip-experts", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(args({"whatif", "--keep-experts", "6", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        base = test::loadRun(session, 1);
        skip = test::loadRun(session, 2);
        pruned = test::loadRun(session, 3);
        QCOMPARE(skip.run.status, RunStatus::Complete);
        QCOMPARE(pruned.run.status, RunStatus::Complete);
    }

    void betaIsTheBaselinesMedianRatio() {
        const Moe m = moeOf(base);
        QCOMPARE(m.layers, (std::vector<int>{1, 3, 5, 7}));
        for (const int layer : m.layers) {
            std::vector<double> ratios;
            for (const auto& [key, ranks] : tokensOf(base, layer))
                ratios.push_back(ranks.at(1).weight / ranks.at(0).weight);
            const double beta = lowerMedian(ratios);
            QVERIFY(std::abs(metric(skip, ("skip.beta.layer_" + std::to_string(layer)).c_str()) -
                             beta) < 1e-12);
        }
    }

    void theFirstMoeLayerSkipsExactlyTheWeakSeconds() {
        const double beta = metric(skip, "skip.beta.layer_1");
        const auto before = tokensOf(base, 1, true), after = tokensOf(skip, 1, true);
        QCOMPARE(after.size(), before.size());
        int skipped = 0;
        for (const auto& [key, ranks] : before) {
            const auto& now = after.at(key);
            const RoutingRow &w0 = ranks.at(0), &w1 = ranks.at(1);
            QCOMPARE(now.at(0).expert, w0.expert);
            if (w1.weight < beta * w0.weight) {
                ++skipped;
                QCOMPARE(now.size(), size_t(1));
                QCOMPARE(now.at(0).weight, 1.0);
            } else {
                QCOMPARE(now.size(), size_t(2));
                QCOMPARE(now.at(1).expert, w1.expert);
                QVERIFY(std::abs(now.at(1).weight - w1.weight) < 1e-5);
            }
        }
        QVERIFY(skipped > 0 && skipped < int(before.size()));
        // Every (token, rank) pair the what-if's rows lack was skipped.
        const double missing = double(base.routing.size()) - double(skip.routing.size());
        QCOMPARE(metric(skip, "skip.slots"), missing);
    }

    void skippedRowsSaveOneExpertEach() {
        // One expert on one row: SwiGLU's three matrices, 2 FLOPs per MAC.
        const Moe m = moeOf(base);
        const double perRow = 3 * 2 * double(m.dim) * double(m.expertFfn);
        const double rows = double(prefillRows(base)) - double(prefillRows(skip));
        QVERIFY(rows > 0);
        const double saved = test::prefillFlops(base) - test::prefillFlops(skip);
        qInfo("prefill FLOPs saved by skipping %.0f rows: %.4g measured, %.4g counted", rows, saved,
              rows * perRow);
        QVERIFY(std::abs(saved / (rows * perRow) - 1) < 0.01);
    }

    void pruningRoutesOnlyToTheKeptExperts() {
        const Moe m = moeOf(base);
        int free = 0; // layers whose baseline left at least E − r experts unused
        for (const int layer : m.layers) {
            const std::string name = "experts.kept.layer_" + std::to_string(layer);
            const auto* kept = findMetric(pruned, name);
            QVERIFY(kept);
            QCOMPARE(kept->value, 6.0);
            std::set<int> keptSet;
            std::istringstream in(kept->note.substr(kept->note.find(':') + 1));
            for (int e; in >> e;)
                keptSet.insert(e);
            QCOMPARE(keptSet.size(), size_t(6));
            std::set<int> used;
            for (const auto& r : pruned.routing)
                if (r.layer == layer) {
                    QVERIFY2(keptSet.count(r.expert), qPrintable(QString::number(r.expert)));
                }
            for (const auto& r : base.routing)
                if (r.layer == layer) used.insert(r.expert);
            const double error =
                metric(pruned, ("experts.error.layer_" + std::to_string(layer)).c_str());
            QVERIFY(error >= 0 && error < 1);
            if (int(used.size()) <= 6) {
                // Unused experts cost nothing: the best subset keeps every used one.
                ++free;
                QVERIFY(std::includes(keptSet.begin(), keptSet.end(), used.begin(), used.end()));
                QVERIFY2(error < 1e-5, qPrintable(QString::number(error)));
            }
        }
        QVERIFY(free > 0); // the skew leaves some layers with cold experts
        const double expertBytes = 3.0 * double(m.dim) * double(m.expertFfn) * 4; // float32
        QCOMPARE(metric(pruned, "experts.released_bytes"),
                 double(m.layers.size()) * 2 * expertBytes);
        QCOMPARE(metric(base, "weights.bytes") - metric(pruned, "weights.bytes"),
                 double(m.layers.size()) * 2 * expertBytes);
    }

    void badRequestsWriteNothing_data() {
        QTest::addColumn<QStringList>("request");
        QTest::addColumn<QString>("says");
        QTest::newRow("keep all") << args({"--keep-experts", "8"})
                                  << QStringLiteral("to 7 of the model's 8");
        QTest::newRow("keep fewer than top-k")
            << args({"--keep-experts", "1"}) << QStringLiteral("top-k");
        QTest::newRow("with freezing")
            << args({"--keep-experts", "6", "--freeze-cold"}) << QStringLiteral("choose one");
    }
    void badRequestsWriteNothing() {
        QFETCH(QStringList, request);
        QFETCH(QString, says);
        const QString problem = test::refusalProblem(session, request, says);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(TestWhatIfExperts)
#include "test_whatif_experts.moc"
