// What-if planning without the CLI (capture/whatif/Plan.h): on hand-built
// baseline rows, the patches kept, the experts frozen, the transforms and the
// label are what the request asks for, worked out by hand; a request the
// baseline cannot serve is refused with what to change.
#include "capture/whatif/Plan.h"
#include "core/image/Image.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
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
        r.keepVisual = 0.5;
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
        r.saliencyLayer = 0;
        plan = planWhatIf(r, baseline(), moeConfig());
        QVERIFY(plan.ok());
        QCOMPARE(plan->run.keepPatches, (std::vector<int>{1, 2}));
        QVERIFY(plan->run.transform.find("by layer 0 attention") != std::string::npos);
    }

    void transformsCombineInOneLabel() {
        WhatIfRequest r;
        r.keepVisual = 0.25;
        r.quantBits = 8;
        r.kvThreshold = 0.9;
        r.freezeCold = true;
        r.freezeWindow = 2;
        r.freezeMin = 1;
        auto plan = planWhatIf(r, baseline(), moeConfig());
        QVERIFY2(plan.ok(), qPrintable(messageOf(plan)));
        QCOMPARE(plan->run.label, std::string("prune-visual 0.25 + freeze-cold + w8 + kv-int4"));
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
            r.freezeCold = true, cfg.llm.moeLayers.clear();
            break;
        case 1:
            r.freezeCold = true, r.freezeWindow = 100;
            break;
        case 2:
            r.quantBits = 4, base.stepOutputs.clear();
            break;
        case 3:
            r.keepVisual = 0.5, r.saliency = SaliencySource::Saliency;
            break;
        case 4:
            r.keepVisual = 0.5, r.saliency = SaliencySource::FeatureNorm;
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
        prune.keepVisual = 0.5;
        QVERIFY(messageOf(checkBaseline(base, prune))
                    .contains(QStringLiteral("run 3 is a user model: --prune-visual rewrites")));
        // The published methods say which observable a TorchScript model lacks.
        WhatIfRequest fastv;
        fastv.fastvRatio = 0.5;
        QVERIFY(messageOf(checkBaseline(base, fastv)).contains(QStringLiteral("mvprof.FastV")));
        WhatIfRequest zip;
        zip.visionZip = 64;
        QVERIFY(messageOf(checkBaseline(base, zip)).contains(QStringLiteral("mvprof.VisionZip")));
        WhatIfRequest h2o;
        h2o.kvMethod = KvMethodKind::H2O;
        QVERIFY(messageOf(checkBaseline(base, h2o)).contains(QStringLiteral("no cache")));
        WhatIfRequest quant;
        quant.quantBits = 8;
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
};

QTEST_GUILESS_MAIN(TestWhatIfPlan)
#include "test_whatif_plan.moc"
