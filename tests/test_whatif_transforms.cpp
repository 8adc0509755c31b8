// What-if transforms beyond token pruning (docs/diagnostics.md §9): quantisation
// meets its format's bound and AWQ beats round-to-nearest, KV merging
// respects its threshold, frozen experts get no tokens and their tokens go to
// the next-best expert, channel pruning really removes work, transforms
// compose, everything is deterministic, and bad requests write nothing.
#include "TestSupport.h"
#include "WhatIfSupport.h"
#include "capture/models/transforms/KvCompress.h"
#include "capture/models/transforms/Quantise.h"
#include "capture/whatif/ColdExperts.h"
#include "core/analysis/Analysis.h"
#include "core/compare/ModuleDiff.h"
#include "core/session/SessionReader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <sqlite3.h>

using namespace mvp;
using test::args;
using test::metric;
using test::runCli;

namespace {
std::vector<float> gaussian(size_t n, unsigned seed, double sd = 1.0) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> d(0.0, sd);
    std::vector<float> v(n);
    for (auto& x : v)
        x = float(d(rng));
    return v;
}

} // namespace

class TestWhatIfTransforms : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString baseline(const QString& name, const QStringList& extra = {}) {
        return test::skewedBaseline(dir.filePath(name), extra);
    }
    static int runCount(const QString& path) {
        auto r = SessionReader::open(path.toStdString());
        return r ? int((*r)->runs()->size()) : -1;
    }
    static RunData load(const QString& path, int64_t run) { return test::loadRun(path, run); }

    // Which kernel ran W4: libtorch's int4 matmul (2.x) on the layers it
    // suits, its calls then in the session; or none (1.13), the note saying why.
    static void checkInt4Kernels(const RunData& run) {
        const auto* kernels = findMetric(run, "quant.int4_kernels");
        QVERIFY(kernels);
        int64_t calls = 0;
        for (const auto& t : run.opTotals)
            if (t.name.rfind("aten::_weight_int4pack_mm", 0) == 0) calls += t.calls;
        if (kernels->value == 0) {
            QVERIFY2(kernels->note.find("dequantised per call") != std::string::npos,
                     kernels->note.c_str());
            QCOMPARE(calls, int64_t(0));
            return;
        }
        QVERIFY(kernels->value <= metric(run, "quant.layers"));
        QVERIFY2(kernels->note.find("the latency is measured") != std::string::npos ||
                     kernels->note.find(" of ") != std::string::npos,
                 kernels->note.c_str());
        QVERIFY(calls > 0);
    }

private slots:
    // --- quantisation ----------------------------------------------------------

    void quantisationMeetsTheFormatBound_data() {
        QTest::addColumn<int>("bits");
        QTest::addColumn<double>("maxBytesRatio");
        QTest::newRow("w4") << 4 << 0.16;
        QTest::newRow("w8") << 8 << 0.29;
    }
    void quantisationMeetsTheFormatBound() {
        QFETCH(int, bits);
        QFETCH(double, maxBytesRatio);
        const int rows = 64, cols = 704, group = 128; // 704 is not a multiple of the group
        const auto w = gaussian(size_t(rows) * cols, 7, 0.02);
        const auto q = quantiseRoundTrip(w, rows, cols, bits, group);
        QCOMPARE(q.groups, 6);
        QCOMPARE(q.dequantised.size(), w.size());
        double worstExcess = 0;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const size_t i = size_t(r) * cols + size_t(c);
                const int g = c / group;
                const float scale = q.scales[size_t(r) * size_t(q.groups) + size_t(g)];
                // Round-to-nearest: half a step, plus the float16 rounding of the stored minimum.
                float groupMax = 0;
                for (int k = g * group; k < std::min(cols, (g + 1) * group); ++k)
                    groupMax = std::max(groupMax, std::abs(w[size_t(r) * cols + size_t(k)]));
                const double bound = 0.5 * scale + groupMax / 1024.0;
                worstExcess =
                    std::max(worstExcess, std::abs(double(q.dequantised[i]) - w[i]) - bound);
            }
        QVERIFY2(worstExcess <= 0, qPrintable(QString::number(worstExcess)));
        const double ratio = double(q.bytes) / double(w.size() * sizeof(float));
        QVERIFY2(ratio <= maxBytesRatio, qPrintable(QString::number(ratio)));
        QVERIFY(ratio >= bits / 32.0); // the codes themselves cannot be smaller
    }

    void awqBeatsRoundToNearestOnOutlierChannels() {
        const int rows = 96, cols = 256, n = 128;
        const auto w = gaussian(size_t(rows) * cols, 11, 0.02);
        auto x = gaussian(size_t(n) * cols, 12);
        for (int i = 0; i < n; ++i) // a few salient input channels, as in real LLM activations
            for (int c : {3, 77, 140, 201})
                x[size_t(i) * cols + size_t(c)] *= 30.0f;
        const auto awq = awqSearch(w, rows, cols, x, n, 4, 128, 11);
        // α = 0 is plain round-to-nearest: recompute its MSE independently.
        const auto rtn = quantiseRoundTrip(w, rows, cols, 4, 128);
        double mse = 0;
        for (int i = 0; i < n; ++i)
            for (int r = 0; r < rows; ++r) {
                double y = 0, yq = 0;
                for (int c = 0; c < cols; ++c) {
                    const double xv = x[size_t(i) * cols + size_t(c)];
                    y += xv * w[size_t(r) * cols + size_t(c)];
                    yq += xv * rtn.dequantised[size_t(r) * cols + size_t(c)];
                }
                mse += (y - yq) * (y - yq);
            }
        mse /= double(n) * rows;
        QVERIFY2(std::abs(awq.mseRtn - mse) <= 1e-3 * mse,
                 qPrintable(QStringLiteral("%1 vs %2").arg(awq.mseRtn).arg(mse)));
        QVERIFY2(awq.mseAwq < 0.8 * awq.mseRtn,
                 qPrintable(QStringLiteral("%1 vs %2").arg(awq.mseAwq).arg(awq.mseRtn)));
        QVERIFY(awq.alpha > 0);
    }

    // --- KV merging ----------------------------------------------------------------

    void kvMergingRespectsTheThreshold() {
        const int n = 200, dim = 16;
        auto rows = gaussian(size_t(n) * dim, 5);
        for (int i = 1; i < n; i += 2) // every odd row is a near-copy of the row before
            for (int j = 0; j < dim; ++j)
                rows[size_t(i) * dim + size_t(j)] = rows[size_t(i - 1) * dim + size_t(j)] +
                                                    0.05f * rows[size_t(i) * dim + size_t(j)];
        auto cosine = [&](int a, int b) {
            double s = 0, na = 0, nb = 0;
            for (int j = 0; j < dim; ++j) {
                const double x = rows[size_t(a) * dim + size_t(j)],
                             y = rows[size_t(b) * dim + size_t(j)];
                s += x * y, na += x * x, nb += y * y;
            }
            return s / std::sqrt(na * nb);
        };
        for (double threshold : {0.82, 0.5, 0.95}) {
            const auto cluster = clusterByCosine(rows, n, dim, threshold);
            std::map<int, int> leader; // cluster → its first row
            for (int i = 0; i < n; ++i)
                leader.emplace(cluster[size_t(i)], i);
            for (int i = 0; i < n; ++i)
                QVERIFY(cosine(i, leader[cluster[size_t(i)]]) > threshold ||
                        i == leader[cluster[size_t(i)]]);
            for (const auto& [c1, l1] : leader)
                for (const auto& [c2, l2] : leader)
                    if (c1 < c2) QVERIFY(cosine(l1, l2) <= threshold);
            QVERIFY(int(leader.size()) <= n / 2 + 1 || threshold > 0.9); // the near-copies merged
        }
        const auto none = clusterByCosine(rows, n, dim, 1.0);
        QCOMPARE(std::set<int>(none.begin(), none.end()).size(), size_t(n));
    }

    // --- cold experts --------------------------------------------------------------

    void coldExpertPlanFollowsTheWindows() {
        // One MoE layer, 4 experts, top-1, windows of 4 tokens, min 2 activations.
        // Window 0: e0 ×3, e1 ×1; window 1: e0 ×2, e2 ×2; window 2: e0 ×4.
        const int expertOf[12] = {0, 0, 0, 1, 0, 2, 0, 2, 0, 0, 0, 0};
        std::vector<RoutingRow> rows;
        for (int t = 0; t < 12; ++t)
            rows.push_back(
                RoutingRow{0, Phase::Prefill, 0, t, Modality::Text, 0, expertOf[t], 1.0});
        auto plan = planColdExperts(rows, 4, 1, 4, 2);
        QCOMPARE(plan.completeWindows, 3);
        // e1: 1, 0, 0 → cold; e2: 0, 2, 0 → never two low windows in a row; e3: 0, 0, 0 → cold.
        QCOMPARE(plan.frozen[0], (std::vector<int>{1, 3}));
        // Top-3 routing needs 3 active experts: only the less used of e1 and e3 may freeze.
        plan = planColdExperts(rows, 4, 3, 4, 2);
        QCOMPARE(plan.frozen[0], (std::vector<int>{3}));
        QCOMPARE(plan.keptForTopK[0], (std::vector<int>{1}));
        // A partial last window is not a check.
        rows.resize(7);
        plan = planColdExperts(rows, 4, 1, 4, 2);
        QCOMPARE(plan.completeWindows, 1);
        QVERIFY(plan.frozen.empty());
    }

    void frozenExpertsGetNoTokensAndRerouteToTheNextBest() {
        const QString path = baseline(QStringLiteral("freeze.mvprof"));
        QVERIFY(!path.isEmpty());
        // A threshold of 12 activations makes layer 0's rarely chosen expert cold
        // too, so some of its tokens must move.
        const int minimum = 12;
        const auto r =
            runCli(args({"whatif"}) << path << args({"--freeze-cold", "--freeze-min", "12", "--reps", "0"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData base = load(path, 1), run = load(path, 2);
        QCOMPARE(run.run.baselineRun, std::optional<int64_t>(1));
        // Independently of the planner: which experts had < 12 activations in two consecutive
        // windows of 128 (at most two per layer here, so top-2 routing stays possible without
        // keeping any).
        std::map<int, std::set<int>> cold;
        std::map<int, std::map<int, std::map<int, int>>> counts; // layer → window → expert → n
        for (const auto& row : base.routing)
            counts[row.layer][row.token / 128][row.expert] += 1;
        const int windows = int(base.tokens.size()) / 128;
        QVERIFY(windows >= 2);
        for (const auto& [layer, byWindow] : counts)
            for (int e = 0; e < 4; ++e)
                for (int w = 1; w < windows; ++w) {
                    auto n = [&](int win) {
                        auto it = byWindow.find(win);
                        return it == byWindow.end() || !it->second.count(e) ? 0 : it->second.at(e);
                    };
                    if (n(w - 1) < minimum && n(w) < minimum) cold[layer].insert(e);
                }
        QVERIFY2(!cold.empty(), "the skewed baseline should have cold experts");
        for (const auto& [layer, experts] : cold)
            QVERIFY(experts.size() <= 2);
        QCOMPARE(metric(run, "freeze.experts"), double(cold[0].size() + cold[1].size()));
        QVERIFY(metric(run, "freeze.released_bytes") > 0);
        QVERIFY(metric(run, "weights.bytes") < metric(base, "weights.bytes"));
        for (const auto& row : run.routing)
            QVERIFY2(!cold[row.layer].count(row.expert), "a frozen expert received a token");
        // Until a layer reroutes a token, every layer's prefill inputs are the
        // baseline's: a token keeps its choices unless one was frozen, whose place
        // goes to the next-best active expert. Check layers in order up to the
        // first that rerouted.
        int rerouted = 0;
        for (const auto& [layer, unused] : counts) {
            std::map<int, std::vector<int>> before, after; // token → experts by rank
            for (const auto& row : base.routing)
                if (row.layer == layer && row.phase == Phase::Prefill)
                    before[row.token].push_back(row.expert);
            for (const auto& row : run.routing)
                if (row.layer == layer && row.phase == Phase::Prefill)
                    after[row.token].push_back(row.expert);
            for (const auto& [token, was] : before) {
                const auto& now = after[token];
                QCOMPARE(now.size(), was.size());
                std::vector<int> survivors;
                for (int e : was)
                    if (!cold[layer].count(e)) survivors.push_back(e);
                if (survivors.size() == was.size()) {
                    QCOMPARE(now, was);
                    continue;
                }
                ++rerouted;
                // The surviving choices move up in order; the new one was ranked below them.
                QCOMPARE(std::vector<int>(now.begin(), now.begin() + long(survivors.size())),
                         survivors);
                for (size_t i = survivors.size(); i < now.size(); ++i)
                    QVERIFY(!cold[layer].count(now[i]) &&
                            std::find(was.begin(), was.end(), now[i]) == was.end());
            }
            if (rerouted > 0) break;
        }
        QVERIFY(rerouted > 0);
    }

    void noFrozenExpertReproducesTheBaselineBitForBit() {
        const QString path = baseline(QStringLiteral("nofreeze.mvprof"));
        QVERIFY(!path.isEmpty());
        const auto r =
            runCli(args({"whatif"}) << path << args({"--freeze-cold", "--freeze-min", "0", "--reps", "0"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData base = load(path, 1), run = load(path, 2);
        QCOMPARE(metric(run, "freeze.experts"), 0.0);
        QCOMPARE(run.stepOutputs.size(), base.stepOutputs.size());
        for (size_t s = 0; s < base.stepOutputs.size(); ++s)
            QVERIFY(std::memcmp(base.stepOutputs[s].logits.data(), run.stepOutputs[s].logits.data(),
                                base.stepOutputs[s].logits.size() * sizeof(float)) == 0);
    }

    // --- quantisation, KV, channels through the CLI -------------------------------

    void quantisedRunStoresPackedWeightsAndLabelsThePrediction() {
        const QString path = baseline(QStringLiteral("w4.mvprof"));
        QVERIFY(!path.isEmpty());
        const auto r =
            runCli(args({"whatif"}) << path << args({"--quant", "w4", "--format", "json", "--reps", "0"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData base = load(path, 1), run = load(path, 2);
        QVERIFY2(metric(run, "quant.bytes_ratio") <= 0.16,
                 qPrintable(QString::number(metric(run, "quant.bytes_ratio"))));
        QCOMPARE(metric(run, "quant.bytes_ratio"),
                 metric(run, "quant.bytes") / metric(run, "quant.fp32_bytes"));
        QVERIFY(metric(run, "quant.mse_awq") < metric(run, "quant.mse_rtn"));
        QCOMPARE(metric(run, "weights.bytes"), metric(base, "weights.bytes") -
                                                   metric(run, "quant.fp32_bytes") +
                                                   metric(run, "quant.bytes"));
        const auto* predicted = findMetric(run, "latency.predicted_ns");
        QVERIFY(predicted && predicted->kind == "predicted" && predicted->value > 0);
        checkInt4Kernels(run);
        const QJsonObject c = QJsonDocument::fromJson(r.out).object();
        QVERIFY(c.contains(QStringLiteral("latency_ms_predicted")));
        QVERIFY(c[QStringLiteral("latency_ms_predicted")].toObject().contains(
            QStringLiteral("prediction_error")));
        QVERIFY(!c[QStringLiteral("module_diff")].toArray().isEmpty());
        QVERIFY(c[QStringLiteral("weight_bytes_measured")]
                    .toObject()[QStringLiteral("whatif")]
                    .toDouble() < c[QStringLiteral("weight_bytes_measured")]
                                      .toObject()[QStringLiteral("baseline")]
                                      .toDouble());
        QVERIFY(c[QStringLiteral("fidelity_measured")]
                    .toObject()[QStringLiteral("kl_mean")]
                    .toDouble() > 0); // it is lossy
    }

    void kvCompressionShrinksTheCacheAndReportsItsError() {
        const QString path = baseline(QStringLiteral("kv.mvprof"));
        QVERIFY(!path.isEmpty());
        for (const char* threshold : {"1", "0.5"})
            QCOMPARE(runCli(args({"whatif"}) << path << args({"--reps", "0", "--kv", "int4"})
                            << QStringLiteral("--kv-threshold") << QString::fromLatin1(threshold))
                         .exitCode,
                     0);
        const RunData base = load(path, 1), exact = load(path, 2), merged = load(path, 3);
        // Threshold 1: nothing merges, INT4 alone shrinks the cache.
        QCOMPARE(metric(exact, "kv.visual_clusters"), metric(exact, "kv.visual_tokens"));
        QCOMPARE(metric(exact, "kv.visual_tokens"), 2.0 * 256); // two layers
        // 16-wide heads: 8 bytes of codes + 4 of scale and minimum per head and
        // slot, against 64 in float32 (wider heads do better).
        QVERIFY(metric(exact, "kv.bytes") < 0.22 * metric(base, "kv.bytes"));
        QVERIFY(metric(exact, "kv.key_error") > 0 && metric(exact, "kv.key_error") < 0.2);
        // A lower threshold merges more, so fewer slots and a larger error.
        QVERIFY(metric(merged, "kv.visual_clusters") < metric(merged, "kv.visual_tokens"));
        QVERIFY(metric(merged, "kv.bytes") < metric(exact, "kv.bytes"));
        QVERIFY(metric(merged, "kv.key_error") > metric(exact, "kv.key_error"));
        QCOMPARE(metric(merged, "kv.positions") - metric(merged, "kv.slots"),
                 metric(merged, "kv.visual_tokens") - metric(merged, "kv.visual_clusters"));
    }

    void channelPruningRemovesVisionWork() {
        const QString path = baseline(QStringLiteral("channels.mvprof"));
        QVERIFY(!path.isEmpty());
        const auto r = runCli(args({"whatif"}) << path << args({"--prune-channels", "0.3", "--reps", "0"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData base = load(path, 1), run = load(path, 2);
        QCOMPARE(metric(run, "channels.removed"),
                 2.0 * 77); // round(0.3 · 256) in each of two blocks
        QCOMPARE(metric(run, "channels.kept"), 2.0 * 179);
        QVERIFY(metric(run, "channels.sensitivity_margin") >=
                0); // each block removed its least sensitive
        for (const auto& d : diffModules(base, run))
            if (d.path == "vision.block.0.mlp") {
                const double ratio = double(d.bFlops) / double(d.aFlops);
                QVERIFY2(ratio > 0.6 && ratio < 0.8, qPrintable(QString::number(ratio)));
            } else if (d.kind == "Attention" && d.path.rfind("llm.", 0) == 0) {
                QCOMPARE(d.bFlops, d.aFlops); // the decoder's attention is unchanged
            }
        int64_t baseParams = 0, runParams = 0;
        for (const auto& m : base.modules)
            if (m.path == "vision.block.0.mlp") baseParams = m.params;
        for (const auto& m : run.modules)
            if (m.path == "vision.block.0.mlp") runParams = m.params;
        QCOMPARE(baseParams - runParams, int64_t(77) * (64 + 1 + 64));
    }

    void transformsComposeDeterministically() {
        const QString path = baseline(QStringLiteral("combined.mvprof"));
        QVERIFY(!path.isEmpty());
        const QStringList combined =
            args({"--quant", "w4", "--kv", "int4", "--prune-visual", "0.4", "--format", "json",
                  "--reps", "0"});
        const auto r = runCli(args({"whatif"}) << path << combined);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(runCli(args({"whatif"}) << path << combined).exitCode, 0);
        const QJsonObject c = QJsonDocument::fromJson(r.out).object();
        for (const char* key :
             {"latency_ms_measured", "latency_ms_predicted", "peak_rss_bytes_measured",
              "qps_derived", "energy_j_per_inference_measured", "weight_bytes_measured",
              "kv_bytes_measured", "fidelity_measured", "module_diff", "transform_details"})
            QVERIFY2(c.contains(QString::fromLatin1(key)), key);
        QCOMPARE(c[QStringLiteral("visual_tokens")].toObject()[QStringLiteral("whatif")].toInt(),
                 102);
        const RunData once = load(path, 2), twice = load(path, 3);
        QVERIFY(once.run.transform.find("w4") != std::string::npos &&
                once.run.transform.find("kv-int4") != std::string::npos);
        QCOMPARE(twice.stepOutputs.size(), once.stepOutputs.size());
        for (size_t s = 0; s < once.stepOutputs.size(); ++s)
            QVERIFY2(std::memcmp(once.stepOutputs[s].logits.data(),
                                 twice.stepOutputs[s].logits.data(),
                                 once.stepOutputs[s].logits.size() * sizeof(float)) == 0,
                     "the same what-if gave different logits");
        QCOMPARE(metric(twice, "quant.mse_awq"), metric(once, "quant.mse_awq"));
        QCOMPARE(metric(twice, "kv.bytes"), metric(once, "kv.bytes"));
        // Any two runs diff module by module: the two identical what-ifs did the same work.
        const auto diff =
            runCli(args({"diff"}) << path << QStringLiteral("2") << QStringLiteral("3")
                                  << args({"--format", "json"}));
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        const QJsonArray modules =
            QJsonDocument::fromJson(diff.out).object()[QStringLiteral("module_diff")].toArray();
        QVERIFY(modules.size() > 10);
        for (const auto& m : modules) {
            QCOMPARE(m.toObject()[QStringLiteral("delta_flops")].toDouble(), 0.0);
            QCOMPARE(m.toObject()[QStringLiteral("delta_bytes")].toDouble(), 0.0);
        }
        for (const QStringList& bad :
             {args({"diff"}) << path << QStringLiteral("2") << QStringLiteral("9"),
              args({"diff"}) << path << QStringLiteral("x") << QStringLiteral("2"),
              args({"diff"}) << path << QStringLiteral("2")})
            QCOMPARE(runCli(bad).exitCode, 2);
    }

    void refSmallDesignNoteTable() {
        // The design note's rows on ref:small: baseline, W4 + KV INT4, and + token pruning 0.4.
        // 45 s of a ref:small capture and two what-ifs: the full suite's (on ref:tiny the
        // same transforms compose in transformsComposeDeterministically).
        if (!test::fullSuite()) QSKIP("ref:small: under ./test.sh --full only");
        const QString path = dir.filePath(QStringLiteral("small.mvprof"));
        const auto cap = runCli(args({"capture", "--model", "ref:small", "--steps", "2"}) +
                                QStringList{QStringLiteral("--image"), test::sampleImage(),
                                            QStringLiteral("--out"), path});
        QVERIFY2(cap.exitCode == 0, cap.err.constData());
        const auto awq =
            runCli(args({"whatif"}) << path << args({"--quant", "w4", "--kv", "int4", "--reps", "0"}),
                   300000);
        QVERIFY2(awq.exitCode == 0, awq.err.constData());
        const auto all =
            runCli(args({"whatif"})
                       << path
                       << args({"--quant", "w4", "--kv", "int4", "--prune-visual", "0.4", "--reps",
                                "0"}),
                   300000);
        QVERIFY2(all.exitCode == 0, all.err.constData());
        qInfo("%s\n%s", awq.out.constData(), all.out.constData());
        for (const QByteArray& table : {awq.out, all.out}) {
            for (const char* column : {"latency ms", "peak RSS MiB", "QPS", "J/inference",
                                       "weights MiB", "KV MiB", "fidelity over"})
                QVERIFY2(table.contains(column), column);
            QVERIFY(table.contains("predicted latency"));
        }
        const RunData base = load(path, 1), w4 = load(path, 2), pruned = load(path, 3);
        QVERIFY2(metric(w4, "quant.bytes_ratio") <= 0.16,
                 qPrintable(QString::number(metric(w4, "quant.bytes_ratio"))));
        QVERIFY(metric(w4, "weights.bytes") < 0.35 * metric(base, "weights.bytes"));
        QVERIFY(metric(w4, "kv.bytes") < 0.2 * metric(base, "kv.bytes"));
        QVERIFY(metric(pruned, "kv.bytes") < metric(w4, "kv.bytes"));
        int visual = 0;
        for (const auto& t : pruned.tokens)
            visual += t.modality == Modality::Visual;
        QCOMPARE(visual, 230); // round(0.4 · 576)
    }

    // --- bad requests ----------------------------------------------------------------

    void badTransformsWriteNothing() {
        const QString path = baseline(QStringLiteral("bad.mvprof"));
        QVERIFY(!path.isEmpty());
        const std::pair<QStringList, const char*> cases[] = {
            {args({"--quant", "w3"}), "w4 or w8"},
            {args({"--quant", "w4", "--group", "7"}), "even"},
            {args({"--kv", "int8"}), "int4"},
            {args({"--kv", "int4", "--kv-threshold", "2"}), "cosine"},
            {args({"--prune-channels", "1"}), "(0, 1)"},
            {args({"--prune-channels", "0"}), "(0, 1)"},
            {args({"--freeze-cold", "--freeze-window", "200"}), "two complete windows"},
            {args({"--quant", "w4", "--run", "9"}), "not in"},
        };
        for (const auto& [extra, message] : cases) {
            const auto r = runCli(args({"whatif"}) << path << extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(message), r.err.constData());
        }
        QCOMPARE(runCount(path), 1);
        // An incomplete baseline (as a cancelled capture leaves it).
        const QString cut = dir.filePath(QStringLiteral("incomplete.mvprof"));
        QVERIFY(QFile::copy(path, cut));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(cut.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE run SET status='incomplete'", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        const auto inc = runCli(args({"whatif"}) << cut << args({"--quant", "w8", "--run", "1"}));
        QCOMPARE(inc.exitCode, 2);
        QVERIFY2(inc.err.contains("complete baseline"), inc.err.constData());
        QCOMPARE(runCount(cut), 1);
        // No MoE layers to freeze: ref:small cut to one decoder layer (layer 0 is dense).
        const QString dense = baseline(QStringLiteral("dense.mvprof"),
                                       args({"--model", "ref:small", "--layers", "1"}));
        QVERIFY(!dense.isEmpty());
        const auto r = runCli(args({"whatif"}) << dense << QStringLiteral("--freeze-cold"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no MoE layers"), r.err.constData());
        QCOMPARE(runCount(dense), 1);
    }
};

QTEST_GUILESS_MAIN(TestWhatIfTransforms)
#include "test_whatif_transforms.moc"
