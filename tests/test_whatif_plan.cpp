// What-if planning without the CLI (capture/whatif/Plan.h): on hand-built
// baseline rows, the patches kept, the experts frozen, the transforms and the
// label are what the request asks for, worked out by hand; a request the
// baseline cannot serve is refused with what to change.
#include "capture/whatif/Plan.h"
#include "capture/whatif/SweepBudgets.h"
#include "core/image/Image.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"
#include "core/whatif/Methods.h"

#include <QTemporaryDir>
#include <set>
#include <QTest>

using namespace mvp;

namespace {
// A 2 × 2 patch grid; attention per layer (hand-picked so the rankings differ),
// one decode step, and 8 tokens routed to experts 0 and 1 only.
RunData baseline() {
    RunData d;
    d.run.id = 1;
    d.run.model = "ref:tiny";
    d.grid = PatchGridRow{2, 2, 14, 28, 1};
    const double layer0[] = {0.1, 0.4, 0.3, 0.2}, layer1[] = {0.4, 0.1, 0.1, 0.1};
    for (int p = 0; p < 4; ++p) {
        d.attention.push_back({0, "attention", p, layer0[p]});
        d.attention.push_back({1, "attention", p, layer1[p]});
    }
    d.stepOutputs = {{0, 2, {0.1f, 0.2f, 0.7f}}};
    for (int token = 0; token < 8; ++token) {
        d.routing.push_back({0, Phase::Prefill, 0, token, Modality::Text, 0, 0, 0.6});
        d.routing.push_back({0, Phase::Prefill, 0, token, Modality::Text, 1, 1, 0.4});
    }
    return d;
}

VlmConfig moeConfig() {
    VlmConfig c;
    c.llm.experts = 4;
    c.llm.topK = 2;
    c.llm.moeLayers = {0};
    return c;
}

QString messageOf(const Status& s) {
    return s ? QString() : QString::fromStdString(s.error().message);
}
template <typename T> QString messageOf(const Result<T>& r) {
    return r ? QString() : QString::fromStdString(r.error().message);
}
} // namespace

class TestWhatIfPlan : public QObject {
    Q_OBJECT
private slots:
    // A GPU baseline's observation reaches its what-ifs: exact device timing
    // (every op waits for the GPU: different times), no kernel trace, and
    // hardware counters to compare; a CPU baseline, which stores none of
    // them, leaves the defaults.
    void theBaselinesGpuObservationCarriesOver() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("gpu.mvprof")).toStdString();
        auto writer = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
        QVERIFY(writer);
        auto png = encodePng(RgbImage{2, 2, std::vector<uint8_t>(12, 128)});
        QVERIFY(png);
        for (const char* device : {"cuda:0", "cpu"}) {
            RunInfo info;
            info.model = "ref:tiny";
            info.device = device;
            info.steps = 2;
            info.configJson = std::string(device) == "cpu"
                                  ? R"({"seed": 0, "capture": {"warmup": 1}})"
                                  : R"({"seed": 0, "capture": {"warmup": 1, "device_timing": )"
                                    R"("exact", "gpu_trace": false, "hw_counters": true}})";
            auto run = (*writer)->beginRun(info);
            QVERIFY(run);
            Batch rows;
            rows.run = *run;
            rows.image = ImageRow{"", 2, 2, 2, 2, *png};
            (*writer)->submit(std::move(rows));
            QVERIFY((*writer)->endRun(*run, RunResult{}));
        }
        QVERIFY((*writer)->close());
        auto reader = SessionReader::open(path);
        QVERIFY(reader);
        auto gpu = baselineOptions(**reader, *(*reader)->run(1));
        QVERIFY2(gpu, qPrintable(messageOf(gpu)));
        QCOMPARE(gpu->device, std::string("cuda:0"));
        QVERIFY(gpu->deviceTiming == cuda::DeviceTiming::Exact);
        QVERIFY(!gpu->traceGpu && gpu->hwCounters);
        auto cpu = baselineOptions(**reader, *(*reader)->run(2));
        QVERIFY2(cpu, qPrintable(messageOf(cpu)));
        const CaptureOptions defaults;
        QVERIFY(cpu->deviceTiming == defaults.deviceTiming);
        QVERIFY(cpu->traceGpu == defaults.traceGpu && cpu->hwCounters == defaults.hwCounters);
    }

    void pruningKeepsTheMostAttendedPatches() {
        WhatIfRequest r;
        r.methods[Method::PruneVisual] = 0.5;
        // Summed over both layers: 0.5, 0.5, 0.4, 0.3 → the first two (ties keep spatial order).
        auto plan = planWhatIf(r, baseline(), moeConfig());
        QVERIFY2(plan.ok(), qPrintable(messageOf(plan)));
        QCOMPARE(plan->run.keepPatches, (std::vector<int>{0, 1}));
        QCOMPARE(plan->run.label, std::string("prune-visual 0.5"));
        QCOMPARE(plan->run.transform,
                 std::string("prune-visual 0.5 (2 of 4 visual tokens, by all layers attention)"));
        QCOMPARE(plan->run.baselineRun, std::optional<int64_t>(1));
        QVERIFY(!plan->model.touchesModel());
        // Layer 0 alone ranks 1 (0.4) and 2 (0.3) first.
        r.options.saliencyLayer = 0;
        plan = planWhatIf(r, baseline(), moeConfig());
        QVERIFY(plan.ok());
        QCOMPARE(plan->run.keepPatches, (std::vector<int>{1, 2}));
        QVERIFY(plan->run.transform.find("by layer 0 attention") != std::string::npos);
    }

    void transformsCombineInOneLabel() {
        WhatIfRequest r;
        r.methods = {{Method::PruneVisual, 0.25},
                     {Method::W8, 1},
                     {Method::KvInt4, 1},
                     {Method::FreezeCold, 1}};
        r.options.kvThreshold = 0.9;
        r.options.freezeWindow = 2;
        r.options.freezeMin = 1;
        auto plan = planWhatIf(r, baseline(), moeConfig());
        QVERIFY2(plan.ok(), qPrintable(messageOf(plan)));
        // In the catalogue's order, whatever the order they were asked in.
        QCOMPARE(plan->run.label, std::string("prune-visual 0.25 + w8 + kv-int4 + freeze-cold"));
        QCOMPARE(plan->run.keepPatches, std::vector<int>{0});
        QCOMPARE(plan->model.quantBits, 8);
        QVERIFY(plan->model.kv && plan->model.kv->threshold == 0.9);
        // Experts 2 and 3 never ran in any window of two tokens: both frozen, 0 and 1 kept.
        QCOMPARE(plan->model.frozenExperts, (std::map<int, std::vector<int>>{{0, {2, 3}}}));
        QCOMPARE(plan->model.baselineTokens, std::vector<int>{2});
        QVERIFY(plan->run.transform.find("w8 (AWQ; int8 kernels where libtorch has them)") !=
                std::string::npos);
    }

    void whatTheBaselineCannotServeIsRefused_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("says");
        QTest::newRow("no MoE") << 0 << QStringLiteral("has no MoE layers");
        QTest::newRow("windows too long")
            << 1 << QStringLiteral("needs two complete windows of 100");
        QTest::newRow("no tokens to calibrate")
            << 2 << QStringLiteral("stored no generated tokens");
        QTest::newRow("no saliency maps") << 3 << QStringLiteral("has no saliency map");
        QTest::newRow("no visual features") << 4 << QStringLiteral("stored no visual features");
    }
    void whatTheBaselineCannotServeIsRefused() {
        QFETCH(int, which);
        QFETCH(QString, says);
        WhatIfRequest r;
        RunData base = baseline();
        VlmConfig cfg = moeConfig();
        switch (which) {
        case 0:
            r.methods[Method::FreezeCold] = 1, cfg.llm.moeLayers.clear();
            break;
        case 1:
            r.methods[Method::FreezeCold] = 1, r.options.freezeWindow = 100;
            break;
        case 2:
            r.methods[Method::W4] = 1, base.stepOutputs.clear();
            break;
        case 3:
            r.methods[Method::PruneVisual] = 0.5, r.options.saliency = SaliencySource::Saliency;
            break;
        case 4:
            r.methods[Method::PruneVisual] = 0.5, r.options.saliency = SaliencySource::FeatureNorm;
            break;
        }
        const auto plan = planWhatIf(r, base, cfg);
        QVERIFY(!plan.ok());
        QVERIFY2(messageOf(plan).contains(says), qPrintable(messageOf(plan)));
    }

    void baselinesAreChecked() {
        RunInfo base;
        base.id = 3;
        base.model = "file:/models/vlm.json";
        base.status = RunStatus::Complete;
        WhatIfRequest prune;
        prune.methods[Method::PruneVisual] = 0.5;
        QVERIFY(messageOf(checkBaseline(base, prune))
                    .contains(QStringLiteral("run 3 is a user model: --prune-visual rewrites")));
        // The published methods say which observable a TorchScript model lacks.
        WhatIfRequest fastv;
        fastv.methods[Method::FastV] = 0.5;
        QVERIFY(messageOf(checkBaseline(base, fastv)).contains(QStringLiteral("mvprof.FastV")));
        WhatIfRequest zip;
        zip.methods[Method::VisionZip] = 64;
        QVERIFY(messageOf(checkBaseline(base, zip)).contains(QStringLiteral("mvprof.VisionZip")));
        WhatIfRequest h2o;
        h2o.methods[Method::H2O] = 1;
        QVERIFY(messageOf(checkBaseline(base, h2o)).contains(QStringLiteral("no cache")));
        WhatIfRequest quant;
        quant.methods[Method::W8] = 1;
        QVERIFY(checkBaseline(base, quant).ok()); // a user model's linears can be quantised
        base.probes = false;
        QVERIFY(messageOf(checkBaseline(base, quant)).contains(QStringLiteral("--no-probes")));
        base.probes = true;
        base.model = "python:llava";
        QVERIFY(messageOf(checkBaseline(base, quant)).contains(QStringLiteral("mvprof.whatif")));
        base.status = RunStatus::Incomplete;
        QVERIFY(messageOf(checkBaseline(base, quant))
                    .contains(QStringLiteral("a what-if needs a complete baseline")));
        QCOMPARE(saliencySourceFromString("feature-norm"),
                 std::optional(SaliencySource::FeatureNorm));
        QVERIFY(!saliencySourceFromString("entropy"));
    }

    // Each method is declared once in the catalogue and has its planner
    // row: keys and flags name it and only it, a TorchScript model runs it
    // exactly where the catalogue says, and it is swept exactly where the
    // catalogue gives it a budget.
    void everyMethodIsDeclaredOnceAndPlanned() {
        RunInfo user;
        user.id = 1;
        user.model = "file:/models/vlm.json";
        user.status = RunStatus::Complete;
        const ModelShape shape{8, 6, 576, 600, 64, 4};
        std::set<std::string> keys, flags;
        for (const MethodSpec& m : whatIfMethods()) {
            QVERIFY2(keys.insert(m.key).second, m.key);
            QVERIFY2(flags.insert(methodFlag(m.method)).second, m.key);
            QCOMPARE(methodFromKey(m.key), std::optional(m.method));
            QCOMPARE(&methodSpec(m.method), &m);
            if (m.word) QCOMPARE(methodFromWord(m.option, m.word), std::optional(m.method));
            WhatIfRequest alone;
            alone.methods[m.method] = m.preset;
            QVERIFY2(checkBaseline(user, alone).ok() == m.userModel, m.key);
            const auto swept = requestForBudget(m.method, 128, shape);
            QVERIFY2(swept.ok() || m.budget == Budget::None ||
                         messageOf(swept).indexOf(QStringLiteral("not swept")) < 0,
                     m.key);
            if (m.budget == Budget::None)
                QVERIFY2(messageOf(swept).contains(QStringLiteral("not swept")), m.key);
        }
        QCOMPARE(keys.size(), size_t(18));
    }

    // The flags a request turns into, and the request they parse back to,
    // are the same (the GUI runs what requestArguments writes).
    void aRequestIsItsArguments() {
        WhatIfRequest r;
        r.methods = {{Method::PruneVisual, 0.4}, {Method::Dart, 64}, {Method::W8, 1},
                     {Method::SnapKv, 1}, {Method::FreezeCold, 1}};
        r.options.saliency = SaliencySource::Saliency;
        r.options.decoderLayer = 1;
        r.options.kvBudget = 0.25;
        r.options.freezeMin = 2;
        const auto a = requestArguments(r);
        const std::vector<std::string> want{
            "--prune-visual", "0.4",        "--dart",       "64",     "--quant",
            "w8",             "--kv-method", "snapkv",      "--freeze-cold", "--saliency",
            "saliency",       "--fastv-layer", "1",         "--freeze-min", "2",
            "--kv-budget",    "0.25"};
        QCOMPARE(std::multiset<std::string>(a.begin(), a.end()),
                 std::multiset<std::string>(want.begin(), want.end()));
        WhatIfRequest twoDrops;
        twoDrops.methods = {{Method::FastV, 0.5}, {Method::PyramidDrop, 0.5}};
        QVERIFY(messageOf(checkRequest(twoDrops)).contains(QStringLiteral("choose one")));
        WhatIfRequest outOfRange;
        outOfRange.methods[Method::VisionZip] = 1.5;
        QVERIFY(messageOf(checkRequest(outOfRange)).contains(QStringLiteral("--visionzip")));
    }

    // A sweep's budgets as the papers count them (docs/whatif-methods.md
    // §0), on ref:small's shape: 576 image tokens, 8 decoder layers, 6
    // vision blocks — each worked by hand.
    void sweepBudgetsFollowThePapers() {
        const ModelShape shape{8, 6, 576, 600, 64, 4};
        QCOMPARE(defaultBudgets(Budget::TokensSent, shape), (std::vector<double>{192, 128, 64}));
        QCOMPARE(defaultBudgets(Budget::KvFraction, shape), (std::vector<double>{0.4, 0.2, 0.1}));
        const ModelShape tiny{2, 2, 256, 270, 16, 4};
        QCOMPARE(defaultBudgets(Budget::LayerAveraged, tiny), (std::vector<double>{85, 57, 28}));
        auto at = [&](Method m, double budget) {
            auto r = requestForBudget(m, budget, shape);
            if (!r) qWarning("%s", r.error().message.c_str());
            return r;
        };
        // Sent: 192 of 576 kept.
        QCOMPARE(at(Method::PruneVisual, 192)->request.value(Method::PruneVisual), 192.0 / 576);
        // Layer-averaged: layers 0, 1 hold 576, layers 2–7 hold x: (2·576 + 6x)/8 = 192 → x = 64,
        // FastV's R = 1 − 64/576 from layer K = 2.
        const auto fastv = at(Method::FastV, 192);
        QVERIFY(fastv.ok());
        QCOMPARE(fastv->request.value(Method::FastV), 1 - 64.0 / 576);
        QCOMPARE(fastv->request.options.decoderLayer, std::optional(2));
        // 128 is below what two full layers already average (2·576/8 = 144).
        QVERIFY(!requestForBudget(Method::FastV, 128, shape));
        QVERIFY(messageOf(requestForBudget(Method::FastV, 128, shape)).contains(QStringLiteral("144")));
        // DART keeps 4 + 8·floor(B/8): 196 for 192, 132 for 128 (the paper's "128").
        QCOMPARE(at(Method::Dart, 128)->request.value(Method::Dart), 128.0);
        QVERIFY(at(Method::Dart, 128)->parameter.find("16 per pivot") != std::string::npos);
        // ToMe sends exactly the budget: r = ceil((576 − 192) / 6) = 64, ceil(448 / 6) = 75.
        const auto tome = at(Method::ToMe, 128);
        QVERIFY(tome->request.options.tomeTokensSent);
        QCOMPARE(tome->parameter, std::string("r 75 per block"));
        QCOMPARE(at(Method::ToMe, 192)->parameter, std::string("r 64 per block"));
        // VisionZip: contextual = round(B·10/64): 30 for 192, 20 for 128.
        QCOMPARE(at(Method::VisionZip, 192)->parameter, std::string("162 dom + 30 ctx"));
        QCOMPARE(at(Method::VisionZip, 128)->parameter, std::string("108 dom + 20 ctx"));
        // Downsampling sends the nearest square grid: 14² for 192, 11² for 128.
        QCOMPARE(at(Method::Downsample, 192)->request.value(Method::Downsample), 196.0);
        QCOMPARE(at(Method::Downsample, 128)->request.value(Method::Downsample), 121.0);
        // KV: the fraction itself, each head keeping int(0.2 · 600) = 120 positions.
        const auto h2o = at(Method::H2O, 0.2);
        QCOMPARE(h2o->request.options.kvBudget, 0.2);
        QVERIFY(h2o->request.has(Method::H2O));
        QVERIFY(!requestForBudget(Method::SnapKv, 1.5, shape));
    }

    // What a run stores of its capture settings is what a what-if reads back:
    // one writer and one reader, checked against each other (the reading of a
    // hand-written config is checked above).
    void captureSettingsRoundTrip() {
        CaptureOptions gpu;
        gpu.device = "cuda:0";
        gpu.warmup = 3;
        gpu.nestedOps = true;
        gpu.threads = 2;
        gpu.traceGpu = false;
        gpu.deviceTiming = cuda::DeviceTiming::Exact;
        gpu.hwCounters = true;
        CaptureOptions back;
        readCaptureSettings(withCaptureSettings(R"({"seed": 1})", gpu), back);
        QVERIFY(back.warmup == 3 && back.nestedOps && back.threads == 2);
        QVERIFY(!back.traceGpu && back.deviceTiming == cuda::DeviceTiming::Exact &&
                back.hwCounters);
        CaptureOptions cpu = gpu;
        cpu.device = "cpu"; // a CPU run stores no GPU observation: a what-if keeps the defaults
        CaptureOptions fromCpu;
        readCaptureSettings(withCaptureSettings("{}", cpu), fromCpu);
        QVERIFY(fromCpu.traceGpu && fromCpu.deviceTiming == CaptureOptions().deviceTiming &&
                !fromCpu.hwCounters && fromCpu.warmup == 3);
        QCOMPARE(withCaptureSettings("not json", gpu), std::string("not json"));
        RunInfo info;
        gpu.model = "ref:small", gpu.prompt = "Why?", gpu.imagePath = "/x.png", gpu.steps = 7;
        gpu.dtype = "bfloat16";
        recordOptions(gpu, info);
        CaptureOptions again;
        optionsOfRun(info, again);
        QVERIFY(again.model == gpu.model && again.prompt == gpu.prompt &&
                again.imagePath == gpu.imagePath && again.steps == 7 &&
                again.device == "cuda:0" && again.dtype == "bfloat16");
    }
};

QTEST_GUILESS_MAIN(TestWhatIfPlan)
#include "test_whatif_plan.moc"
