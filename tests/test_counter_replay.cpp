// --hw-counters without a GPU: what the range profiler would be given and
// what its values become. A replay of the built-in model and of a
// TorchScript user model pushes one range per module span, named by the
// module's path, in the order, nesting and depth of the recorded run's spans
// (read back from the session the capture wrote); hand-made ranges become
// per-module metrics by the roofline's rule, worked here by hand.
#include "TestSupport.h"
#include "capture/cuda/CounterConfig.h"
#include "capture/cuda/CounterMetrics.h"
#include "capture/run/CapturerImpl.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace mvp;

namespace {

// The ranges a replay pushes, and whether they nest.
struct RecordedRanges final : cuda::RangeSink {
    std::vector<std::string> names;
    int depth = 0, deepest = 0;
    bool balanced = true;
    void push(const std::string& name) override {
        names.push_back(name);
        deepest = std::max(deepest, ++depth);
    }
    void pop() override {
        if (depth == 0) balanced = false;
        --depth;
    }
};

// The recorded run's spans in the order they opened, as module paths, and
// their deepest nesting.
struct SpanPaths {
    std::vector<std::string> paths;
    int deepest = 0;
};

SpanPaths recordedSpans(const std::string& session) {
    SpanPaths out;
    auto reader = SessionReader::open(session);
    if (!reader) return out;
    const auto modules = (*reader)->modules(1);
    const auto spans = (*reader)->spans(1);
    if (!modules || !spans) return out;
    std::map<int64_t, std::string> path;
    for (const auto& m : *modules)
        path[m.id] = m.path;
    std::map<int64_t, int> depth;
    for (const auto& s : *spans) { // by id: the order they opened
        depth[s.id] = s.parent ? depth[*s.parent] + 1 : 1;
        out.deepest = std::max(out.deepest, depth[s.id]);
        out.paths.push_back(path[s.module]);
    }
    return out;
}

std::map<std::string, double> zeroCounters() {
    std::map<std::string, double> v;
    for (const auto& m : cuda::rooflineMetrics())
        v[m] = 0;
    return v;
}

// A replay of the TorchScript model the capture loaded, loaded afresh.
void scriptedReplay(const PreparedCapture& prep, SessionWriter& scratch, int64_t run,
                    cuda::RangeSink& ranges) {
    auto model = ScriptedModel::load(*prep.userModel, torch::kCPU);
    QVERIFY(model);
    replayWithRanges(**model, prep, scratch, run, ranges);
}

const RunMetricRow* metric(const std::vector<RunMetricRow>& rows, const std::string& name) {
    for (const auto& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

} // namespace

class TestCounterReplay : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    // Captures `o` into a fresh session and checks a replay of `replay`
    // pushes the recorded run's spans as ranges.
    template <class Replay>
    void expectReplayMatches(CaptureOptions o, const char* name, Replay replay) {
        o.outPath =
            dir.filePath(QString::fromLatin1(name) + QStringLiteral(".mvprof")).toStdString();
        auto captured = capture(o);
        QVERIFY2(captured, captured ? "" : captured.error().message.c_str());
        const SpanPaths want = recordedSpans(o.outPath);
        QVERIFY(want.paths.size() > 10);
        auto prep = prepareCapture(o);
        QVERIFY(prep);
        const std::string scratchPath =
            dir.filePath(QString::fromLatin1(name) + QStringLiteral("-scratch.mvprof"))
                .toStdString();
        auto scratch = SessionWriter::open(scratchPath, SessionWriter::Mode::Overwrite);
        QVERIFY(scratch);
        auto run = (*scratch)->beginRun(RunInfo{});
        QVERIFY(run);
        RecordedRanges ranges;
        replay(*prep, **scratch, *run, ranges);
        QVERIFY(ranges.balanced && ranges.depth == 0);
        QCOMPARE(ranges.deepest, want.deepest);
        QCOMPARE(ranges.names.size(), want.paths.size());
        for (size_t i = 0; i < want.paths.size(); ++i)
            QVERIFY2(ranges.names[i] == want.paths[i],
                     ("range " + std::to_string(i) + " is \"" + ranges.names[i] +
                      "\", the recorded span's module \"" + want.paths[i] + "\"")
                         .c_str());
    }

private Q_SLOTS:
    void builtInReplayPushesTheRecordedSpans() {
        CaptureOptions o;
        o.imagePath = test::sampleImage().toStdString();
        o.steps = 3;
        expectReplayMatches(o, "builtin",
                            [](const PreparedCapture& prep, SessionWriter& scratch, int64_t run,
                               cuda::RangeSink& ranges) {
                                VlmModel model(prep.config); // seeded: the capture's weights
                                replayWithRanges(model, prep, visiblePatches(prep.config, {}),
                                                 scratch, run, ranges);
                            });
    }

    void scriptedReplayPushesTheRecordedSpans() {
        const QString folder = dir.filePath(QStringLiteral("user-model"));
        const auto made = test::runCli({QStringLiteral("example-model"), folder});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        CaptureOptions o;
        o.modelFile = QString(folder + QStringLiteral("/example-vlm.json")).toStdString();
        o.imagePath = test::sampleImage().toStdString();
        o.steps = 2;
        expectReplayMatches(o, "scripted", scriptedReplay);
    }

    // The Mixtral layout (examples/torchvision_vlm.py): experts in a
    // ModuleList, called from an unrolled loop, whose paths the hierarchy
    // alone does not give.
    void mixtralLayoutReplayPushesTheRecordedSpans() {
        const QString folder = dir.filePath(QStringLiteral("mixtral"));
        QProcess python;
        python.start(
            QStringLiteral("/usr/bin/python3"),
            {test::sourceDir() + QStringLiteral("/capture/models/examples/torchvision_vlm.py"),
             folder, QStringLiteral("--tower"), QStringLiteral("resnet18")});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        CaptureOptions o;
        o.modelFile = QString(folder + QStringLiteral("/resnet18-moe.json")).toStdString();
        o.imagePath = test::sampleImage().toStdString();
        o.steps = 2;
        expectReplayMatches(o, "mixtral", scriptedReplay);
    }

    // Ranges deeper than the profiler's levels are not pushed; their work
    // counts in their ancestors'.
    void rangesBelowTheLevelsAreLeftOut() {
        RecordedRanges seen;
        cuda::LevelLimitedRanges limited(seen, 2);
        limited.push("model");
        limited.push("model.llm");
        limited.push("model.llm.layer");
        limited.push("model.llm.layer.mlp");
        limited.pop();
        limited.pop();
        limited.push("model.llm.norm");
        limited.pop();
        limited.pop();
        limited.push("model.vision");
        limited.pop();
        limited.pop();
        QCOMPARE(seen.names, (std::vector<std::string>{"model", "model.llm", "model.vision"}));
        QVERIFY(seen.balanced && seen.depth == 0);
        QCOMPARE(seen.deepest, 2);
    }

    // Ranges named by module path, summed per innermost module over its
    // calls: FLOPs = 2·fma + add + mul (+ tensor ops), DRAM = read + write.
    void rangesBecomeModuleMetrics() {
        const std::string fma = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
        const std::string hfma = "sm__sass_thread_inst_executed_op_hfma_pred_on.sum";
        const std::string fadd = "sm__sass_thread_inst_executed_op_fadd_pred_on.sum";
        const std::string tensor = "sm__ops_path_tensor_src_bf16_dst_fp32.sum";
        auto llm = zeroCounters();
        llm[fma] = 100, llm[fadd] = 7, llm["dram__bytes_read.sum"] = 4096;
        llm["dram__bytes_write.sum"] = 1024, llm["gpu__time_duration.sum"] = 5000;
        auto layer = zeroCounters();
        layer[hfma] = 10, layer[tensor] = 64, layer["dram__bytes_read.sum"] = 300;
        layer["gpu__time_duration.sum"] = 1500;
        std::map<std::string, double> partial{{"dram__bytes_read.sum", 8},
                                              {"dram__bytes_write.sum", 2}};
        const std::vector<cuda::CounterRange> ranges{
            {{"llm"}, llm},
            {{"llm", "llm.layers.0"}, layer},
            {{"llm", "llm.layers.0"}, layer}, // a second call of the same module
            {{"vision", "vision.blocks.3.mlp"}, partial},
            {{""}, llm}, // no module: dropped
        };
        const auto rows = cuda::counterRunMetrics(ranges, {"GH100", 10, 5, 2, 1});
        const RunMetricRow* head = metric(rows, "hw.counters");
        QVERIFY(head && head->value == 10 && head->kind == "measured");
        for (const char* part :
             {"GH100", "5 per nesting level", "levels 1-2", "5 ranges", "1 dropped"})
            QVERIFY2(head->note.find(part) != std::string::npos, head->note.c_str());
        auto value = [&](const std::string& n) {
            const RunMetricRow* r = metric(rows, n);
            return r ? r->value : -1.0;
        };
        QCOMPARE(value("hw.llm.flops"), 2 * 100.0 + 7);
        QCOMPARE(value("hw.llm.dram_bytes"), 5120.0);
        QCOMPARE(value("hw.llm.gpu_ns"), 5000.0);
        QCOMPARE(value("hw.llm.layers.0.flops"), 2 * (2 * 10.0 + 64));
        QCOMPARE(value("hw.llm.layers.0.dram_bytes"), 600.0);
        QCOMPARE(value("hw.llm.layers.0.gpu_ns"), 3000.0);
        // Without the FLOP and time counters only its DRAM bytes are known.
        QCOMPARE(value("hw.vision.blocks.3.mlp.dram_bytes"), 10.0);
        QVERIFY(!metric(rows, "hw.vision.blocks.3.mlp.flops"));
        QVERIFY(!metric(rows, "hw.vision.blocks.3.mlp.gpu_ns"));
        QVERIFY(!metric(rows, "hw..flops"));
        QCOMPARE(rows.size(), size_t(1 + 3 + 3 + 1));
    }
};

QTEST_GUILESS_MAIN(TestCounterReplay)
#include "test_counter_replay.moc"
