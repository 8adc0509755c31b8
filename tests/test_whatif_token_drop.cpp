// FastV and PyramidDrop as what-ifs on ref:small, whose 336-px image gives
// LLaVA's 576 visual tokens (8 decoder layers, grouped-query attention, top-2
// MoE every other layer). Checked against things this test works out itself:
// - the image tokens kept equal the top of the baseline's own stored
//   attention maps (FastV: layer K − 1's last prefill row; PyramidDrop's first
//   stage: its layer's last row), averaged over heads here;
// - each cut keeps exactly its budget, deeper stages a subset of earlier ones;
// - the what-if's KV cache holds exactly the kept positions, in bytes;
// - the measured prefill FLOPs ratio equals an analytic count of this model's
//   layers (its GQA projections, attention products, gated FFN and top-k
//   experts, plus PyramidDrop's scoring) within 1 %;
// - FastV's C(n) formula ratio stored beside it, worked by hand;
// - bad requests fail with their reason and write nothing.
#include "TestSupport.h"
#include "WhatIfSupport.h"
#include "core/session/SessionReader.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

using namespace mvp;
using test::args;
using test::metric;
using test::runCli;

namespace {
// ref:small's decoder as its run's config states it.
struct Decoder {
    int64_t layers = 0, dim = 0, heads = 0, kvHeads = 0, ffn = 0, expertFfn = 0, experts = 0,
            topK = 0, vocab = 0;
    std::set<int64_t> moe;
    int64_t headDim() const { return dim / heads; }
};

Decoder decoderOf(const RunData& run) {
    const auto cfg = nlohmann::json::parse(run.run.configJson);
    const auto& l = cfg.at("llm");
    Decoder d;
    d.layers = l.at("layers");
    d.dim = l.at("dim");
    d.heads = l.at("heads");
    d.kvHeads = l.at("kv_heads");
    d.ffn = l.at("ffn");
    d.expertFfn = l.at("expert_ffn");
    d.experts = l.at("experts");
    d.topK = l.at("top_k");
    d.vocab = l.at("vocab");
    for (const auto& m : l.at("moe_layers"))
        d.moe.insert(m.get<int64_t>());
    return d;
}

// One decoder layer's multiply-add FLOPs (2 per MAC) over n prefill rows,
// each attending to all n: q, k, v, o projections, QKᵀ and PV over every
// head, then the dense SwiGLU (3 matrices) or the router plus k experts per row.
double layerFlops(const Decoder& d, int64_t layer, double n) {
    const double dim = double(d.dim), kv = double(d.kvHeads * d.headDim());
    double f = 2 * n * dim * dim * 2 + 2 * n * dim * kv * 2;
    f += 2 * 2 * double(d.heads) * n * n * double(d.headDim());
    if (d.moe.count(layer))
        f += 2 * n * dim * double(d.experts) +
             n * double(d.topK) * 3 * 2 * dim * double(d.expertFfn);
    else
        f += 3 * 2 * n * dim * double(d.ffn);
    return f;
}

int64_t prefillPositions(const RunData& run) {
    return std::count_if(run.tokens.begin(), run.tokens.end(),
                         [](const TokenRow& t) { return t.phase == Phase::Prefill; });
}

// Per image patch, the attention the last prefill row gave its token in
// `layer` of the run's stored maps, averaged over heads.
std::map<int, double> lastRowAttention(const RunData& run, int layer) {
    std::map<int, double> out;
    const auto it = run.attnMaps.find(layer);
    if (it == run.attnMaps.end() || it->second.empty()) return out;
    const int64_t last = prefillPositions(run) - 1;
    for (const auto& t : run.tokens) {
        if (t.modality != Modality::Visual) continue;
        double sum = 0;
        for (const auto& head : it->second)
            sum += head.data[size_t(last) * size_t(head.cols) + size_t(t.position)];
        out[t.patch] = sum / double(it->second.size());
    }
    return out;
}

// The patches whose tokens a run's decoder layer received.
std::set<int> keptPatches(const QString& path, int64_t run, int layer) {
    std::set<int> out;
    auto reader = SessionReader::open(path.toStdString());
    if (!reader) return out;
    auto rows = (*reader)->patchMetrics(run, "tokens.kept");
    if (!rows) return out;
    for (const auto& r : *rows)
        if (r.layer == layer && r.value == 1.0) out.insert(r.patch);
    return out;
}

// `kept` is the top `keep` of `scores`; a swap at the cut is allowed only
// between scores equal to float precision (the model computes in float32).
QString topKMismatch(const std::map<int, double>& scores, const std::set<int>& kept, size_t keep) {
    if (kept.size() != keep)
        return QStringLiteral("kept %1 tokens, not %2").arg(kept.size()).arg(keep);
    std::vector<std::pair<double, int>> order;
    for (const auto& [patch, s] : scores)
        order.push_back({-s, patch});
    std::sort(order.begin(), order.end());
    const double cut = -order[keep - 1].first;
    int swaps = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        const bool expected = i<keep, actual = kept.count(order[i].second)> 0;
        if (expected == actual) continue;
        ++swaps;
        if (std::abs(-order[i].first - cut) > 1e-5 * cut)
            return QStringLiteral("patch %1 (score %2, cut %3) was %4")
                .arg(order[i].second)
                .arg(-order[i].first)
                .arg(cut)
                .arg(actual ? QLatin1String("kept") : QLatin1String("dropped"));
    }
    return swaps > 4 ? QStringLiteral("%1 swaps at the cut").arg(swaps) : QString();
}
} // namespace

class TestWhatIfTokenDrop : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;
    RunData base, fastv, pdrop;

    // The last run whose label starts with `prefix`; 0 if none.
    int64_t runLabelled(const std::string& prefix) const {
        auto reader = SessionReader::open(session.toStdString());
        auto runs = reader ? (*reader)->runs() : makeError(ErrorCode::BadInput, "unreadable");
        int64_t id = 0;
        for (const auto& run : runs ? *runs : std::vector<RunInfo>{})
            if (run.label.rfind(prefix, 0) == 0) id = run.id;
        return id;
    }
    static double phaseFlops(const RunData& run, Phase phase) {
        double f = 0;
        for (const auto& t : run.opTotals)
            if (t.phase == phase) f += double(t.flops);
        return f;
    }

private slots:
    void initTestCase() {
        session = dir.filePath(QStringLiteral("small.mvprof"));
        auto r = runCli(args({"capture", "--model", "ref:small", "--steps", "2", "--attn-layers",
                              "1-2", "--prompt", "What is on the table?"}) +
                        QStringList{QStringLiteral("--image"), test::sampleImage(),
                                    QStringLiteral("--out"), session});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(args({"whatif", "--fastv", "0.5", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("fastv K2 R0.5"), r.out.constData());
        r = runCli(args({"whatif", "--pdrop", "0.5", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        base = test::loadRun(session, 1);
        fastv = test::loadRun(session, 2);
        pdrop = test::loadRun(session, 3);
        QCOMPARE(fastv.run.baselineRun, std::optional<int64_t>(1));
        QCOMPARE(pdrop.run.status, RunStatus::Complete);
        QCOMPARE(prefillPositions(base), prefillPositions(fastv));
    }

    void fastVKeepsLayerKMinusOnesMostAttended() {
        const auto scores = lastRowAttention(base, 1);
        QCOMPARE(scores.size(), size_t(576));
        for (int layer = 0; layer < 2; ++layer)
            QCOMPARE(keptPatches(session, 2, layer).size(), size_t(576));
        const auto kept = keptPatches(session, 2, 2);
        const QString why = topKMismatch(scores, kept, 288);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        for (int layer = 3; layer < 8; ++layer)
            QCOMPARE(keptPatches(session, 2, layer), kept);
        QCOMPARE(metric(fastv, "tokens.kept.layer_2"), 288.0);
        // Routing past the cut is the kept tokens', each at its own position.
        std::map<int, int> patchAt;
        for (const auto& t : fastv.tokens)
            if (t.modality == Modality::Visual) patchAt[t.position] = t.patch;
        const Decoder d = decoderOf(base);
        for (const int64_t layer : d.moe) {
            std::set<int> routed;
            size_t rows = 0;
            for (const auto& r : fastv.routing)
                if (r.layer == layer && r.phase == Phase::Prefill &&
                    r.modality == Modality::Visual) {
                    ++rows;
                    routed.insert(patchAt.at(r.token));
                }
            QCOMPARE(rows, size_t((layer < 2 ? 576 : 288) * d.topK));
            if (layer >= 2) QCOMPARE(routed, kept);
        }
        QCOMPARE(metric(fastv, "tokens.layer_averaged"), (2 * 576 + 6 * 288) / 8.0);
    }

    void pyramidDropStagesKeepTheirBudgets() {
        // Stage 1 (before layer 2) sees the baseline's layer-2 input, so its
        // score is the baseline's layer-2 last-row attention.
        const auto first = keptPatches(session, 3, 2);
        const QString why = topKMismatch(lastRowAttention(base, 2), first, 288);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(keptPatches(session, 3, 3), first);
        const auto second = keptPatches(session, 3, 4), third = keptPatches(session, 3, 6);
        QCOMPARE(second.size(), size_t(144));
        QCOMPARE(third.size(), size_t(72));
        QVERIFY(std::includes(first.begin(), first.end(), second.begin(), second.end()));
        QVERIFY(std::includes(second.begin(), second.end(), third.begin(), third.end()));
        QCOMPARE(metric(pdrop, "tokens.layer_averaged"),
                 (2 * 576 + 2 * 288 + 2 * 144 + 2 * 72) / 8.0);
    }

    void theCacheHoldsExactlyTheKeptPositions() {
        const Decoder d = decoderOf(base);
        const double slotBytes = 2.0 * double(d.kvHeads * d.headDim()) * 4; // float32 K and V
        const double baseSlots = metric(base, "kv.bytes") / slotBytes / double(d.layers);
        const double decodeSlots = baseSlots - double(prefillPositions(base));
        QVERIFY(decodeSlots >= 1 && decodeSlots == std::floor(decodeSlots));
        const double n0 = double(prefillPositions(base)), text = n0 - 576;
        double fastvSlots = 0;
        for (int l = 0; l < d.layers; ++l)
            fastvSlots += text + (l < 2 ? 576 : 288) + decodeSlots;
        QCOMPARE(metric(fastv, "kv.bytes"), fastvSlots * slotBytes);
    }

    void prefillFlopsMatchAnAnalyticCount() {
        const Decoder d = decoderOf(base);
        const double n0 = double(prefillPositions(base)), text = n0 - 576;
        const double head = 2.0 * double(d.dim) * double(d.vocab); // the last row's logits
        double full = head, fast = head, pyramid = head;
        const double pdropTokens[] = {576, 576, 288, 288, 144, 144, 72, 72};
        for (int64_t l = 0; l < d.layers; ++l) {
            full += layerFlops(d, l, n0);
            fast += layerFlops(d, l, text + (l < 2 ? 576 : 288));
            pyramid += layerFlops(d, l, text + pdropTokens[l]);
        }
        // PyramidDrop's scoring before layers 2, 4, 6 over the rows held then:
        // one query, every key, QKᵀ for the last row over every head.
        const double kv = double(d.kvHeads * d.headDim());
        for (const double held : {576.0, 288.0, 144.0}) {
            const double n = text + held;
            pyramid += 2 * double(d.dim) * double(d.dim) + 2 * n * double(d.dim) * kv +
                       2 * double(d.heads) * n * double(d.headDim());
        }
        const double measuredFast = test::prefillFlops(fastv) / test::prefillFlops(base);
        const double measuredPyramid = test::prefillFlops(pdrop) / test::prefillFlops(base);
        qInfo("prefill FLOPs ratio: FastV %.4f measured, %.4f counted; PyramidDrop %.4f, %.4f",
              measuredFast, fast / full, measuredPyramid, pyramid / full);
        QVERIFY(std::abs(measuredFast / (fast / full) - 1) < 0.01);
        QVERIFY(std::abs(measuredPyramid / (pyramid / full) - 1) < 0.01);
        QVERIFY(fast / full < 0.75); // the cut is real work saved, not rounding
    }

    void visionZipSendsItsBudget() {
        const auto r = runCli(args({"whatif", "--visionzip", "64", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const int64_t id = runLabelled("visionzip");
        QVERIFY(id > 0);
        const RunData zip = test::loadRun(session, id);
        QCOMPARE(metric(zip, "visionzip.dominant"), 54.0);
        QCOMPARE(metric(zip, "visionzip.contextual"), 10.0);
        QCOMPARE(metric(zip, "visionzip.merged"), 512.0);
        std::vector<int> patches;
        for (const auto& t : zip.tokens)
            if (t.phase == Phase::Prefill && t.modality == Modality::Visual)
                patches.push_back(t.patch);
        QCOMPARE(patches.size(), size_t(64));
        // The dominant tokens in spatial order, then the contextual ones.
        QVERIFY(std::is_sorted(patches.begin(), patches.begin() + 54));
        QCOMPARE(std::set<int>(patches.begin(), patches.end()).size(), size_t(64));
        // The decoder really runs on 64 image tokens: its prefill FLOPs
        // equal an analytic count of the layers over 64 + the text.
        const Decoder d = decoderOf(base);
        const double n0 = double(prefillPositions(base)), text = n0 - 576;
        const double head = 2.0 * double(d.dim) * double(d.vocab);
        double full = head, zipped = head;
        for (int64_t l = 0; l < d.layers; ++l) {
            full += layerFlops(d, l, n0);
            zipped += layerFlops(d, l, text + 64);
        }
        const double measured = test::prefillFlops(zip) / test::prefillFlops(base);
        qInfo("VisionZip prefill FLOPs ratio %.4f measured, %.4f counted", measured, zipped / full);
        QVERIFY(std::abs(measured / (zipped / full) - 1) < 0.01);
    }

    void dartKeepsItsPivotsAndPicks() {
        const auto r = runCli(args({"whatif", "--dart", "128", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData dart = test::loadRun(session, runLabelled("dart"));
        QCOMPARE(metric(dart, "tokens.kept.layer_2"), 132.0); // 4 + 8 · floor(128 / 8)
        QCOMPARE(keptPatches(session, dart.run.id, 1).size(), size_t(576));
        QCOMPARE(keptPatches(session, dart.run.id, 2).size(), size_t(132));
        const Decoder d = decoderOf(base);
        const double n0 = double(prefillPositions(base)), text = n0 - 576;
        const double head = 2.0 * double(d.dim) * double(d.vocab);
        double full = head, cut = head;
        for (int64_t l = 0; l < d.layers; ++l) {
            full += layerFlops(d, l, n0);
            cut += layerFlops(d, l, text + (l < 2 ? 576 : 132));
        }
        const double measured = test::prefillFlops(dart) / test::prefillFlops(base);
        qInfo("DART prefill FLOPs ratio %.4f measured, %.4f counted", measured, cut / full);
        QVERIFY(std::abs(measured / (cut / full) - 1) < 0.01);
    }

    void downsampleSendsASquareGrid() {
        const auto r = runCli(args({"whatif", "--downsample", "64", "--reps", "0"}) << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const RunData small = test::loadRun(session, runLabelled("downsample"));
        QCOMPARE(metric(small, "downsample.side_px"), 8.0 * 14);
        std::vector<int> patches;
        for (const auto& t : small.tokens)
            if (t.phase == Phase::Prefill && t.modality == Modality::Visual)
                patches.push_back(t.patch);
        std::vector<int> centres; // rows and columns 1, 4, …, 22 of the 24 × 24 grid
        for (int row = 1; row < 24; row += 3)
            for (int col = 1; col < 24; col += 3)
                centres.push_back(row * 24 + col);
        QCOMPARE(patches, centres);
        // The encoder really ran on 64 patches: its FLOPs against a count of
        // its blocks (qkv, QKᵀ and PV, proj, the MLP) and the patch embedding.
        const auto vit = nlohmann::json::parse(base.run.configJson).at("vision");
        const double dim = vit.at("dim"), mlp = vit.at("mlp"), blocks = vit.at("layers"),
                     patch = vit.at("patch");
        auto encoder = [&](double n) {
            return 2 * n * 3 * patch * patch * dim +
                   blocks * (2 * n * dim * 3 * dim + 2 * 2 * n * n * dim + 2 * n * dim * dim +
                             2 * 2 * n * dim * mlp);
        };
        const double measured = phaseFlops(small, Phase::Vision) / phaseFlops(base, Phase::Vision);
        qInfo("downsample vision FLOPs ratio %.4f measured, %.4f counted", measured,
              encoder(64) / encoder(576));
        QVERIFY(std::abs(measured / (encoder(64) / encoder(576)) - 1) < 0.02);
    }

    void fastVsFormulaIsStoredAsAPrediction() {
        const Decoder d = decoderOf(base);
        const double n0 = double(prefillPositions(base)), text = n0 - 576, dim = double(d.dim);
        const auto c = [&](double n, double m) {
            return 4 * n * dim * dim + 2 * n * n * dim + 2 * n * dim * m;
        };
        double full = 0, fast = 0;
        for (int64_t l = 0; l < d.layers; ++l) {
            const double m = d.moe.count(l) ? double(d.topK * d.expertFfn) : double(d.ffn);
            full += c(n0, m);
            fast += c(text + (l < 2 ? 576 : 288), m);
        }
        QVERIFY(std::abs(metric(fastv, "flops.fastv_formula_ratio") - fast / full) < 1e-9);
        const auto* m = findMetric(fastv, "flops.fastv_formula_ratio");
        QCOMPARE(m->kind, std::string("predicted"));
        QVERIFY(m->note.find("grouped-query") != std::string::npos);
    }

    void badRequestsWriteNothing_data() {
        QTest::addColumn<QStringList>("request");
        QTest::addColumn<QString>("says");
        QTest::newRow("K beyond the depth")
            << args({"--fastv", "0.5", "--fastv-layer", "8"}) << QStringLiteral("from 1 to 7");
        QTest::newRow("R = 1") << args({"--fastv", "1"}) << QStringLiteral("--fastv");
        QTest::newRow("λ = 0") << args({"--pdrop", "0"}) << QStringLiteral("--pdrop");
        QTest::newRow("both") << args({"--fastv", "0.5", "--pdrop", "0.5"})
                              << QStringLiteral("choose one");
        QTest::newRow("with --kv")
            << args({"--fastv", "0.5", "--kv", "int4"}) << QStringLiteral("--kv");
        QTest::newRow("with pruning") << args({"--pdrop", "0.5", "--prune-visual", "0.5"})
                                      << QStringLiteral("--prune-visual");
    }
    void badRequestsWriteNothing() {
        QFETCH(QStringList, request);
        QFETCH(QString, says);
        const QString problem = test::refusalProblem(session, request, says);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // Last: it adds runs to the session. One budget per method, end to end
    // (the mapping of every budget is worked by hand in test_whatif_plan).
    void aSweepRunsEachMethodAtItsBudget() {
        const auto r =
            runCli(args({"whatif", "--sweep", "prune,fastv,visionzip,tome,downsample,dart",
                         "--budgets", "192", "--reps", "0", "--format", "json"})
                       << session,
                   300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto table = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(table.at("visual_tokens").get<int>(), 576);
        const auto& points = table.at("points");
        QCOMPARE(points.size(), size_t(6));
        for (const auto& p : points) {
            const std::string method = p.at("method");
            QVERIFY2(!p.contains("error"), method.c_str());
            // Downsampling sends the nearest square grid (14²), DART keeps 4 + 8·24.
            const double sent = method == "downsample" || method == "dart" ? 196 : 192;
            QCOMPARE(p.at("tokens_held_measured").get<double>(), sent);
            QVERIFY(p.at("prefill_flops_ratio_estimated").get<double>() < 1);
            QVERIFY(!p.contains("speedup")); // --reps 0
            const RunData w = test::loadRun(session, p.at("run").get<int64_t>());
            if (method == "fastv") // (192·8 − 2·576) / 6 = 64 image tokens from layer 2 on.
                QCOMPARE(metric(w, "tokens.kept.layer_2"), 64.0);
            if (method == "tome") { // ToMe's r per block, the last block topping up
                QCOMPARE(metric(w, "tome.tokens"), 192.0);
                QCOMPARE(metric(w, "tome.r"), 64.0);
            }
            if (method == "visionzip") QCOMPARE(metric(w, "visionzip.contextual"), 30.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestWhatIfTokenDrop)
#include "test_whatif_token_drop.moc"
