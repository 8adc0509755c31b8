// The diagnostics engine against hand-computed values, properties that must
// hold for any input, and inputs with parts missing.
#include "TestSupport.h"
#include "core/analysis/Analysis.h"
#include "core/analysis/PatchMetrics.h"
#include "core/analysis/Timeline.h"
#include "core/compare/Comparison.h"
#include "core/report/Report.h"
#include "core/session/ModuleRoles.h"

#include <QRegularExpression>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

using namespace mvp;

namespace {
bool near(double a, double b, double tol = 1e-4) {
    return std::abs(a - b) <= tol;
}
#define NEAR(a, b)                                                                                 \
    QVERIFY2(                                                                                      \
        near((a), (b)),                                                                            \
        qPrintable(                                                                                \
            QStringLiteral("%1 vs %2").arg(double(a), 0, 'g', 10).arg(double(b), 0, 'g', 10)))

// k = 1 routing rows: token t goes to experts[t], visual for the first `visual` tokens.
std::vector<RoutingRow> rowsFor(const std::vector<int>& experts, int visual = 0, int prefill = -1) {
    std::vector<RoutingRow> rows;
    for (size_t t = 0; t < experts.size(); ++t) {
        const bool pre = prefill < 0 || int(t) < prefill;
        rows.push_back({0, pre ? Phase::Prefill : Phase::Decode, pre ? 0 : int(t), int(t),
                        int(t) < visual ? Modality::Visual : Modality::Text, 0, experts[t], 1.0});
    }
    return rows;
}

std::vector<int> expand(const std::vector<int64_t>& counts) {
    std::vector<int> out;
    for (size_t e = 0; e < counts.size(); ++e)
        out.insert(out.end(), size_t(counts[e]), int(e));
    return out;
}
} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    void designNoteCounts() {
        const auto s = balanceStats({0, 128, 0, 96, 0, 0, 256, 0, 0, 544});
        QCOMPARE(s.tokens, int64_t(1024));
        NEAR(s.mean, 102.4);
        NEAR(s.cv, 1.6406);
        NEAR(s.balancedness, 102.4 / 544);
        NEAR(s.jain, 1024.0 * 1024 / (10.0 * (128 * 128 + 96 * 96 + 256 * 256 + 544 * 544)));
        NEAR(s.maxvio, 544 / 102.4 - 1);
        NEAR(s.deadFraction, 0.6);
        NEAR(s.entropyBits, 1.6799451);
        NEAR(s.entropyNorm, std::exp2(1.6799451) / 10);
        NEAR(s.z[9], 2.6286906);
    }

    void smallHandCases() {
        const auto even = balanceStats({3, 3, 3, 3});
        NEAR(even.cv, 0);
        NEAR(even.balancedness, 1);
        NEAR(even.jain, 1);
        NEAR(even.maxvio, 0);
        NEAR(even.entropyBits, 2);
        NEAR(even.entropyNorm, 1);
        const auto one = balanceStats({4, 0});
        NEAR(one.cv, 1); // μ 2, σ 2
        NEAR(one.balancedness, 0.5);
        NEAR(one.jain, 0.5);
        NEAR(one.maxvio, 1);
        NEAR(one.deadFraction, 0.5);
        NEAR(one.entropyBits, 0);
        NEAR(one.entropyNorm, 0.5);
        const auto none = balanceStats({0, 0, 0});
        QCOMPARE(none.tokens, int64_t(0));
        NEAR(none.cv, 0);
        NEAR(none.deadFraction, 1);
        const auto single = balanceStats({7});
        NEAR(single.cv, 0);
        NEAR(single.balancedness, 1);
        NEAR(single.jain, 1);
    }

    // The obvious, found, each with its evidence and a suggestion: four
    // experts taking 283, 231, 22 and 40 routing slots (CV 0.796 by hand:
    // mean 144, σ = √(52 590 / 4); the busiest 283 / 576 = 49 % against a fair
    // 25 %, yet its Z-score 1.21 is under the overload threshold), the
    // preprocessing at 15 % of the run, one module with 30 % of it as self time.
    // Graded by the share of the run each concerns: the imbalanced layer's MoE
    // block takes 30 % (a Warning although its CV alone says Info); a severe
    // imbalance in a block taking 3 % is Info.
    void findingsCatchTheObvious() {
        RunData d;
        d.run.status = RunStatus::Complete;
        d.run.wallNs = 1000;
        d.experts = 4;
        d.topK = 2;
        d.phases = {{Phase::Preprocess, 0, 0, 150},
                    {Phase::Vision, 0, 150, 400},
                    {Phase::Prefill, 0, 400, 700},
                    {Phase::Decode, 1, 700, 1000}};
        d.modules = {{1, "llm.layers.0.moe", "MoE", std::nullopt, 10, ModuleRole::Moe, 1}};
        d.spans = {{1, 1, std::nullopt, Phase::Prefill, 0, 400, 700, std::nullopt, 0, 0}};
        // Slot i: token i mod 288, rank i / 288 — no token meets an expert twice.
        const std::vector<int> slotExpert = expand({283, 231, 22, 40});
        for (size_t i = 0; i < slotExpert.size(); ++i)
            d.routing.push_back({1, Phase::Prefill, 0, int(i % 288), Modality::Visual, int(i / 288),
                                 slotExpert[i], 0.5});
        const RunAnalysis a = analyseRun(d);
        auto find = [&](const std::string& id) -> const Finding* {
            for (const auto& f : a.findings)
                if (f.id == id) return &f;
            return nullptr;
        };
        const Finding* moe = find("moe.imbalance.L1");
        QVERIFY(moe);
        // CV in (0.5, 1]: not "severe", but its block is 30 % of the run.
        QCOMPARE(moe->severity, Severity::Warning);
        QVERIFY(moe->title.find("severe") == std::string::npos);
        QCOMPARE(moe->evidence.back().name, std::string("run_share"));
        NEAR(moe->evidence.back().value, 0.3);
        QVERIFY2(moe->detail.find("30.0 % of the run") != std::string::npos, moe->detail.c_str());
        QVERIFY2(moe->title.find("expert 0 takes 49 %") != std::string::npos, moe->title.c_str());
        QVERIFY(moe->title.find("fair share 25 %") != std::string::npos);
        NEAR(moe->evidence[0].value, std::sqrt(52590.0 / 4) / 144); // cv
        NEAR(moe->evidence[1].value, 283.0 / 576);                  // top_share
        QCOMPARE(moe->target.expert.value_or(-1), 0);
        QVERIFY(!moe->suggestion.empty());
        QVERIFY(!find("moe.overloaded.L1.E0")); // what the share finding is for
        const Finding* pre = find("phase.outsized.preprocess");
        QVERIFY(pre);
        QCOMPARE(pre->severity, Severity::Info); // 15 %: under the 25 % of a warning
        NEAR(pre->evidence[0].value, 0.15);
        QVERIFY(pre->title.find("15 %") != std::string::npos && !pre->suggestion.empty());
        const Finding* module = find("modules.biggest_self");
        QVERIFY(module);
        QCOMPARE(module->target.module, std::string("llm.layers.0.moe"));
        NEAR(module->evidence[0].value, 0.3);
        QCOMPARE(module->severity, Severity::Warning); // 30 % of the run in one module
        // A severe imbalance (eight experts, two take every slot: CV 1.73) in a
        // block taking 3 % of the run.
        RunData small = d;
        small.experts = 8;
        small.spans[0].endNs = 430;
        small.routing.clear();
        const std::vector<int> skewed = expand({288, 0, 0, 0, 0, 0, 0, 288});
        for (size_t i = 0; i < skewed.size(); ++i)
            small.routing.push_back({1, Phase::Prefill, 0, int(i % 288), Modality::Visual,
                                     int(i / 288), skewed[i], 0.5});
        const RunAnalysis c = analyseRun(small);
        const auto tiny = std::find_if(c.findings.begin(), c.findings.end(),
                                       [](const Finding& f) { return f.id == "moe.imbalance.L1"; });
        QVERIFY(tiny != c.findings.end());
        QVERIFY(tiny->title.find("severe") != std::string::npos);
        QCOMPARE(tiny->severity, Severity::Info);
        // Below the thresholds nothing is said: an even layer, a 5 % preprocess.
        RunData even = d;
        even.phases[0].endNs = 50;
        even.routing.clear();
        const std::vector<int> flat = expand({144, 144, 144, 144});
        for (size_t i = 0; i < flat.size(); ++i)
            even.routing.push_back(
                {1, Phase::Prefill, 0, int(i % 288), Modality::Visual, int(i / 288), flat[i], 0.5});
        const RunAnalysis b = analyseRun(even);
        for (const auto& f : b.findings)
            QVERIFY2(f.id != "moe.imbalance.L1" && f.id != "phase.outsized.preprocess",
                     f.id.c_str());
    }

    void overloadThresholdIsStrict() {
        const std::vector<int64_t> counts{0, 128, 0, 96, 0, 0, 256, 0, 0, 544};
        const auto rows = rowsFor(expand(counts));
        const double z9 = balanceStats(counts).z[9];
        MoeThresholds t;
        t.overloadZ = z9; // exactly at the threshold: not overloaded
        QVERIFY(analyseLayer(0, rows, 10, t).experts[9].state != ExpertState::Overloaded);
        t.overloadZ = z9 - 1e-9;
        const auto rep = analyseLayer(0, rows, 10, t);
        const auto& e9 = rep.experts[9];
        QCOMPARE(e9.state, ExpertState::Overloaded);
        QCOMPARE(e9.targetTokens, int64_t(381)); // round(0.7 · 544)
        // Receivers: Δ < −1.0; here every idle expert sits at Δ = −0.61, so none qualify.
        QVERIFY(e9.receivers.empty());
        t.receiverZ = -0.6;
        QCOMPARE(analyseLayer(0, rows, 10, t).experts[9].receivers,
                 (std::vector<int>{0, 2, 4, 5, 7, 8}));
        // Default threshold 1.8: expert 9 (Δ 2.63) is overloaded, expert 6 (Δ 0.91) is hot (top-1
        // by Δ besides it? k = 1).
        const auto def = analyseLayer(0, rows, 10);
        QCOMPARE(def.experts[9].state, ExpertState::Overloaded);
        QCOMPARE(def.experts[0].state, ExpertState::Dead);
    }

    void coldExpertsNeedTwoConsecutiveWindows() {
        // 256 tokens over 4 experts; expert 3 gets 2 tokens in each 128-token window.
        std::vector<int> experts;
        for (int t = 0; t < 256; ++t)
            experts.push_back(t % 128 < 2 ? 3 : t % 3);
        auto rep = analyseLayer(0, rowsFor(experts), 4);
        QCOMPARE(rep.cold, (std::vector<int>{3}));
        QCOMPARE(rep.experts[3].state, ExpertState::Cold);
        // Three activations in the second window: no longer cold.
        experts[130] = 3;
        rep = analyseLayer(0, rowsFor(experts), 4);
        QVERIFY(rep.cold.empty());
        // Per-window statistics when asked for.
        rep = analyseLayer(0, rowsFor(experts), 4, {}, 100);
        QCOMPARE(rep.windows.size(), size_t(3));
        QCOMPARE(rep.windows[2].first, 200);
        QCOMPARE(rep.windows[2].stats.tokens, int64_t(56));
    }

    void statisticsIgnoreExpertLabels() {
        std::mt19937 rng(7);
        std::vector<int> experts;
        for (int t = 0; t < 500; ++t)
            experts.push_back(int(rng() % 8) < 5 ? int(rng() % 3) : int(rng() % 8));
        std::vector<int> perm{5, 2, 7, 0, 1, 6, 3, 4};
        std::vector<int> relabelled;
        for (int e : experts)
            relabelled.push_back(perm[size_t(e)]);
        const auto a = analyseLayer(0, rowsFor(experts, 200, 300), 8);
        const auto b = analyseLayer(0, rowsFor(relabelled, 200, 300), 8);
        for (auto [x, y] :
             {std::pair{&a.total, &b.total}, {&a.visual, &b.visual}, {&a.decode, &b.decode}}) {
            NEAR(x->cv, y->cv);
            NEAR(x->jain, y->jain);
            NEAR(x->balancedness, y->balancedness);
            NEAR(x->entropyNorm, y->entropyNorm);
            NEAR(x->deadFraction, y->deadFraction);
        }
        for (int e = 0; e < 8; ++e) {
            NEAR(a.total.z[size_t(e)], b.total.z[size_t(perm[size_t(e)])]);
            QCOMPARE(a.experts[size_t(e)].state, b.experts[size_t(perm[size_t(e)])].state);
        }
    }

    void splitsSumToTheTotal() {
        std::mt19937 rng(3);
        std::vector<int> experts;
        for (int t = 0; t < 400; ++t)
            experts.push_back(int(rng() % 6));
        const auto rep = analyseLayer(0, rowsFor(experts, 150, 320), 6);
        for (size_t e = 0; e < 6; ++e) {
            QCOMPARE(rep.visual.load[e] + rep.text.load[e], rep.total.load[e]);
            QCOMPARE(rep.prefill.load[e] + rep.decode.load[e], rep.total.load[e]);
        }
        QCOMPARE(rep.visual.tokens, int64_t(150));
        QCOMPARE(rep.decode.tokens, int64_t(80));
    }

    void headRedundancyExtremes() {
        const std::vector<float> m{0.5f, 0.5f, 0.2f, 0.8f};
        std::vector<AttnMapRow> same{{0, 0, 2, 2, m}, {0, 1, 2, 2, m}, {0, 2, 2, 2, m}};
        auto r = headRedundancy(0, same);
        QVERIFY(r.valid);
        NEAR(r.redundancy, 0);
        std::vector<AttnMapRow> ortho{
            {0, 0, 2, 2, {1, 0, 0, 0}}, {0, 1, 2, 2, {0, 1, 0, 0}}, {0, 2, 2, 2, {0, 0, 1, 0}}};
        r = headRedundancy(0, ortho);
        NEAR(r.redundancy, 1);
        // Two equal heads and one orthogonal: pairs 1, 0, 0 → 1 − 1/3.
        std::vector<AttnMapRow> mixed{
            {0, 0, 2, 2, {1, 0, 0, 0}}, {0, 1, 2, 2, {1, 0, 0, 0}}, {0, 2, 2, 2, {0, 0, 0, 1}}};
        r = headRedundancy(0, mixed);
        NEAR(r.redundancy, 2.0 / 3.0);
        QCOMPARE(r.topPairs.front().a, 0);
        QCOMPARE(r.topPairs.front().b, 1);
        QVERIFY(!headRedundancy(0, {{0, 0, 2, 2, m}}).valid);
    }

    // Redundant heads are graded by the time their layer's attention takes:
    // a Warning where the decoder layer's attention is 30 % of the run
    // (nested attention modules counted once, the vision encoder's not at
    // all), Info at 3 %, and Info without spans to say.
    void redundantHeadsGradedByAttentionTime() {
        const std::vector<float> m{0.5f, 0.5f, 0.2f, 0.8f};
        RunData d;
        d.run.status = RunStatus::Complete;
        d.run.wallNs = 1000;
        d.phases = {{Phase::Vision, 0, 0, 400}, {Phase::Prefill, 0, 400, 1000}};
        d.attnMaps[2] = {{2, 0, 2, 2, m}, {2, 1, 2, 2, m}}; // duplicates: redundancy 0
        d.modules = {{1, "decoder.layers.2.self_attn", "Attention", std::nullopt, 10,
                      ModuleRole::Attention, 2},
                     {2, "decoder.layers.2.self_attn.core", "Sdpa", 1, 0, ModuleRole::Attention, 2},
                     {3, "vision", "Encoder", std::nullopt, 10, ModuleRole::Vision},
                     {4, "vision.blocks.2.attn", "Attention", 3, 10, ModuleRole::Attention, 2}};
        d.spans = {{1, 1, std::nullopt, Phase::Prefill, 0, 500, 800, std::nullopt, 0, 0},
                   {2, 2, 1, Phase::Prefill, 0, 550, 750, std::nullopt, 0, 0},
                   {3, 3, std::nullopt, Phase::Vision, 0, 0, 400, std::nullopt, 0, 0},
                   {4, 4, 3, Phase::Vision, 0, 10, 390, std::nullopt, 0, 0}};
        auto heads = [](const RunData& data) {
            for (const auto& f : analyseRun(data).findings)
                if (f.id == "heads.redundant.L2") return f;
            return Finding{};
        };
        Finding f = heads(d);
        QCOMPARE(f.id, std::string("heads.redundant.L2"));
        QCOMPARE(f.severity, Severity::Warning);
        QCOMPARE(f.evidence.back().name, std::string("run_share"));
        NEAR(f.evidence.back().value, 0.3); // 300 of 1000 ns: the outer span only
        QVERIFY2(f.detail.find("attention takes 30.0 % of the run") != std::string::npos,
                 f.detail.c_str());
        d.spans[0].endNs = 530, d.spans[1].endNs = 520;
        f = heads(d);
        QCOMPARE(f.severity, Severity::Info);
        NEAR(f.evidence.back().value, 0.03);
        d.spans = {d.spans[2], d.spans[3]}; // the decoder's attention never ran
        f = heads(d);
        QCOMPARE(f.severity, Severity::Info);
        QCOMPARE(f.evidence.back().name, std::string("redundancy"));
    }

    void rooflineByHand() {
        const DeviceCeiling d{"test", 100e9, 10e9, "datasheet"};
        NEAR(d.ridge(), 10);
        auto p =
            rooflinePoint("mm", 2'000'000, 1'000'000, 1'000'000, d); // AI 2, 2 GFLOP/s achieved
        NEAR(p.intensity, 2);
        QCOMPARE(p.bound, Bound::Memory);
        NEAR(p.attainableFlops, 20e9);
        NEAR(p.achievedFlops, 2e9);
        NEAR(p.mismatch, 0.8);
        p = rooflinePoint("conv", 50'000'000, 1'000'000, 1'000'000, d); // AI 50
        QCOMPARE(p.bound, Bound::Compute);
        NEAR(p.attainableFlops, 100e9);
        NEAR(p.mismatch, 0);
        // §4: 2·(N·C + L·D)·bytes / t.
        NEAR(crossModalBandwidth(576, 1024, 32, 1024, 2, 1e-3),
             2.0 * (576 * 1024 + 32 * 1024) * 2 / 1e-3);
        QCOMPARE(datasheetDevices().size(), size_t(3));
    }

    void batchAdvisorByHand() {
        // Modelled bytes of R 256, L 100, H 2: 256²·12 + 100·1024 + 16 = 888 848.
        NEAR(modelledSampleBytes(256, 100, 2.0), 888848);
        const auto a = adviseBatch(2 * 888848, 256, 100, 2.0, int64_t(1) << 30, 256);
        QVERIFY(a.valid);
        NEAR(a.scale, 2.0);
        QCOMPARE(a.buckets.size(), size_t(27));
        const auto& big = a.buckets.back(); // R 1024, L 512, H 3.2
        QCOMPARE(big.shortSide, 1024);
        const int64_t sample =
            int64_t(std::ceil(2.0 * (1024.0 * 1024 * 12 + 512 * 1024 + 3.2 * 8)));
        QCOMPARE(big.sampleBytes, sample);
        QCOMPARE(big.batch, int((int64_t(1) << 30) / sample));
        QCOMPARE(a.buckets.front().batch, 256); // capped at B_max
        QVERIFY(!adviseBatch(0, 256, 100, 2.0, 1 << 30).valid);
    }

    void batchAdviceCalibratesOnWhatTheRunHeld() {
        // A 1000×800 photo the model sees at 224 px; 10 text tokens, no routing (H = 0).
        RunData d;
        d.run.id = 1;
        d.run.peakRssBytes = 900'000'000;
        d.imageWidth = 1000;
        d.imageHeight = 800;
        d.grid = PatchGridRow{16, 16, 14, 224, 1};
        for (int i = 0; i < 10; ++i)
            d.tokens.push_back(TokenRow{i, Phase::Prefill, 0, Modality::Text, 65 + i, -1});
        d.device = DeviceRow{"cpu", 1e11, 1e10, "test", int64_t(64) << 30, int64_t(8) << 30};
        d.runMetrics = {{"memory.rss_start_bytes", 700'000'000, "bytes", "measured", "test"},
                        {"weights.bytes", 600'000'000, "bytes", "measured", "test"}};
        const RunAnalysis a = analyseRun(d);
        QVERIFY2(a.batch.valid, a.batch.why.c_str());
        // k = (peak − start) / (224²·12 + 10·1024): the run's own bytes, the model's input size.
        NEAR(a.batch.scale, 200'000'000.0 / (224.0 * 224 * 12 + 10 * 1024));
        // A run whose peak never rose above its start gives no advice, and says why.
        d.run.peakRssBytes = 650'000'000;
        const RunAnalysis none = analyseRun(d);
        QVERIFY(!none.batch.valid);
        QVERIFY(QString::fromStdString(none.batch.why).contains(QStringLiteral("no measurable")));
    }

    void kvByHand() {
        const std::vector<std::vector<bool>> masks{{true, true, false, false, false},
                                                   {false, true, true, false, false}};
        NEAR(kvShareRatio(masks, 5), 0.6);
        // Two separate hot cells and one hot pair: 3 regions.
        const std::vector<double> grid{1, 0, 1, 0, 0, 0, 1, 1, 0};
        QCOMPARE(thresholdRegions(grid, 3, 3, 0.5).size(), size_t(3));
        const auto same =
            resamplingLoss({1, 2, 3, 4}, {1, 2, 3, 4}, 2, {0.5f, 0.5f}, {0.5f, 0.5f}, 2);
        NEAR(same.deltaCos.mean, 0);
        NEAR(same.relL2.p95, 0);
        NEAR(same.deltaKl.mean, 0);
        const auto turned = resamplingLoss({1, 0}, {0, 1}, 2, {1.0f, 0.0f}, {0.5f, 0.5f}, 2);
        NEAR(turned.deltaCos.mean, 1);
        NEAR(turned.relL2.mean, std::sqrt(2.0));
        NEAR(turned.deltaKl.mean, std::log(2.0));
        const auto s =
            spreadOf({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
        NEAR(s.mean, 10.5);
        NEAR(s.p95, 19);
    }

    void blendByHand() {
        // Two patches, two response tokens. a = W·q = (1·1 + 0·3, 0·1 + 1·3) = (1, 3) → patch level
        // (0, 1). softmax(q) = (e¹, e³)/(e¹ + e³); sequence level = W·softmax = softmax itself.
        const auto h = blendHeatmap({{1, 0}, {0, 1}}, {1, 3});
        const double s1 = std::exp(1.0) / (std::exp(1.0) + std::exp(3.0));
        NEAR(h[0], 0.6 * 0 + 0.4 * s1);
        NEAR(h[1], 0.6 * 1 + 0.4 * (1 - s1));
    }

    void gateAndExpertTimes() {
        // Names no convention would guess: the roles say what each module is.
        auto module = [](int64_t id, const char* path, ModuleRole role,
                         std::optional<int64_t> parent) {
            ModuleRow m{id, path, "Whatever", parent, 0, role};
            assignIndices(m);
            return m;
        };
        const std::vector<ModuleRow> modules{
            module(1, "dec.blocks.2.sparse", ModuleRole::Moe, std::nullopt),
            module(2, "dec.blocks.2.sparse.pick", ModuleRole::Router, 1),
            module(3, "dec.blocks.2.sparse.ffn0", ModuleRole::Expert, 1),
            module(4, "dec.blocks.2.sparse.ffn5", ModuleRole::Expert, 1)};
        const std::vector<SpanRow> spans{{1, 1, std::nullopt, Phase::Decode, 3, 0, 100, {}, 0, 0},
                                         {2, 2, 1, Phase::Decode, 3, 0, 10, {}, 0, 0},
                                         {3, 3, 1, Phase::Decode, 3, 20, 50, {}, 0, 0},
                                         {4, 4, 1, Phase::Decode, 3, 60, 90, {}, 0, 0}};
        const auto g = gateExpertTimes(modules, spans);
        QCOMPARE(g.size(), size_t(1));
        QCOMPARE(g[0].layer, 2);
        QCOMPARE(g[0].gateNs, int64_t(10));
        QCOMPARE(g[0].expertNs, int64_t(60));
        QCOMPARE(g[0].layerNs, int64_t(100));
        QCOMPARE(g[0].activeExperts, 2);
        QCOMPARE(moeLane(modules[3]), (std::optional<std::pair<int, int>>{{2, 5}}));
        QVERIFY(!moeLane(module(9, "vision.block.1.attn", ModuleRole::Attention, std::nullopt)));
    }

    void modulePathsOfAnyShape() {
        QCOMPARE(pathNumbers("model.layers.3.block_sparse_moe.experts.1"),
                 (std::vector<int>{3, 1}));
        QCOMPARE(pathNumbers("llm.layer0.moe.expert12"), (std::vector<int>{0, 12}));
        QCOMPARE(pathNumbers("llm.layer.attn"), std::vector<int>{});
        QCOMPARE(pathNumbers("x.99999999999999999999.y"),
                 std::vector<int>{}); // no index is that long
        QCOMPARE(pathNumbers(""), std::vector<int>{});
        QCOMPARE(pathNumbers("..."), std::vector<int>{});
        ModuleRow m{1, "llm.layer.attn", "Attention", std::nullopt, 0};
        inferLegacyRole(m);
        QCOMPARE(m.role, ModuleRole::Attention);
        QVERIFY(!m.layer); // reported without a layer, never an exception
        ModuleRow e{2, "experts.7", "Expert", std::nullopt, 0};
        inferLegacyRole(e);
        QCOMPARE(e.expert, std::optional<int>(7));
        QVERIFY(!e.layer); // its only number is the expert's
        QVERIFY(!moeLane(e));
    }

    void timelineLevelOfDetail() {
        // One lane of 1 M back-to-back 10 ns spans; 1000 pixels over the whole range.
        TimelineLane lane;
        for (int64_t i = 0; i < 1'000'000; ++i) {
            lane.starts.push_back(i * 20);
            lane.ends.push_back(i * 20 + 10);
        }
        const int64_t end = lane.ends.back();
        const auto boxes = levelOfDetail(lane, 0, end, double(end) / 1000.0);
        QVERIFY2(boxes.size() <= 1001, qPrintable(QString::number(boxes.size())));
        int64_t folded = 0;
        for (const auto& b : boxes)
            folded += b.count;
        QCOMPARE(folded, int64_t(1'000'000)); // nothing is lost, only folded
        // Zoomed in to 100 spans at 1 ns per pixel: every span is its own box.
        const auto zoomed = levelOfDetail(lane, 2000, 3990, 1.0);
        QCOMPARE(zoomed.size(), size_t(100));
        QCOMPARE(zoomed.front().start, int64_t(2000));
        QVERIFY(
            std::all_of(zoomed.begin(), zoomed.end(), [](const auto& b) { return b.count == 1; }));
        // Lanes from modules: a gate lane then the experts, per layer.
        const std::vector<ModuleRow> modules{
            {1, "llm.layer.0.moe.expert.1", "Expert", {}, 0, ModuleRole::Expert, 0, 1},
            {2, "llm.layer.0.moe.gate", "Router", {}, 0, ModuleRole::Router, 0},
            {3, "vision", "VisionEncoder", {}, 0, ModuleRole::Vision}};
        const auto t = buildTimeline(modules,
                                     {{1, 1, {}, Phase::Prefill, 0, 5, 9, {}, 0, 0},
                                      {2, 2, {}, Phase::Prefill, 0, 1, 4, {}, 0, 0}},
                                     {});
        QCOMPARE(t.lanes.size(), size_t(2));
        QCOMPARE(t.lanes[0].label, std::string("L0 gate"));
        QCOMPARE(t.lanes[1].starts, (std::vector<int64_t>{5}));
    }

    // Runs with parts missing give a report that says what is missing: no error, no NaN.
    void missingPartsAreNamedNotFatal() {
        RunData d;
        d.run.id = 1;
        d.run.status = RunStatus::Incomplete;
        d.run.probes = true;
        d.phases = {{Phase::Preprocess, 0, 0, 10}, {Phase::Prefill, 0, 10, 50}};
        d.experts = 1;
        d.routing = rowsFor({0, 0, 0});
        const auto a = analyseRun(d);
        auto has = [&](const char* needle) {
            return std::any_of(a.notes.begin(), a.notes.end(), [&](const std::string& n) {
                return n.find(needle) != std::string::npos;
            });
        };
        QVERIFY(has("incomplete"));
        QVERIFY(has("no image patch grid"));
        QVERIFY(has("no decode steps"));
        QVERIFY(has("single expert"));
        QVERIFY(has("no device ceilings"));
        QCOMPARE(a.moe.size(), size_t(1));
        NEAR(a.moe[0].total.cv, 0);
        SessionReport rep;
        rep.runs.push_back(a);
        const std::string json = formatJson(rep), text = formatText(rep), md = formatMarkdown(rep);
        const QRegularExpression bad(QStringLiteral("\\b-?(nan|inf)\\b|null"),
                                     QRegularExpression::CaseInsensitiveOption);
        for (const auto* s : {&text, &md}) {
            const auto m = bad.match(QString::fromStdString(*s));
            QVERIFY2(!m.hasMatch(), qPrintable(QString::fromStdString(*s).mid(
                                        std::max<qsizetype>(0, m.capturedStart() - 80), 160)));
        }
        // JSON writes a non-finite number as null: only the documented optional keys may be null.
        const QRegularExpression nullNumber(
            QStringLiteral("\"(cv|jain|balancedness|maxvio|mean|entropy_norm|entropy_bits|share|"
                           "coverage)\": null"));
        const bool nullFound = nullNumber.match(QString::fromStdString(json)).hasMatch();
        QVERIFY(!nullFound);
        RunData empty;
        empty.run.probes = true;
        const auto e = analyseRun(empty);
        QVERIFY(e.moe.empty());
        QVERIFY(std::any_of(e.notes.begin(), e.notes.end(),
                            [](auto& n) { return n.find("no MoE routing") != std::string::npos; }));
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "test_analysis.moc"
