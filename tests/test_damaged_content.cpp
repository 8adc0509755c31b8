// Sessions damaged at the content level (valid SQLite, impossible values):
// each case is refused with a message naming the table, the row and what is
// wrong, as a typed error — never a crash, never an index used, never a
// number made from it. The untouched session loads, so each refusal is the
// damage's doing.
#include "TestSql.h"
#include "core/analysis/Analysis.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <limits>

using namespace mvp;

namespace {
Batch rows(int64_t run) {
    Batch b;
    b.run = run;
    b.modules = {{1, "llm", "Decoder", std::nullopt, 10, ModuleRole::Llm},
                 {2, "llm.layer.0.moe.gate", "Router", 1, 4, ModuleRole::Router, 0}};
    b.phases = {{Phase::Prefill, 0, 0, 100}, {Phase::Decode, 1, 100, 150}};
    b.spans = {{1, 1, std::nullopt, Phase::Prefill, 0, 5, 95, std::nullopt, 1000, 64},
               {2, 2, 1, Phase::Prefill, 0, 10, 90, std::nullopt, 800, 32}};
    b.tokens = {{0, Phase::Prefill, 0, Modality::Text, 256},
                {1, Phase::Prefill, 0, Modality::Visual, -1, 0},
                {2, Phase::Prefill, 0, Modality::Visual, -1, 3}};
    b.routing = {{0, Phase::Prefill, 0, 1, Modality::Visual, 0, 3, 0.75},
                 {0, Phase::Prefill, 0, 1, Modality::Visual, 1, 1, 0.25}};
    b.patchGrid = PatchGridRow{2, 2, 14, 28, 1};
    b.patchMetrics = {{0, "attention", 0, 0.5}, {0, "attention", 3, 0.25}};
    b.stepOutputs = {{0, 2, {0.1f, 0.2f, 0.7f}}, {1, 0, {0.5f, 0.25f, 0.25f}}};
    b.visionFeatures = VisionFeatureRow{2, 2, {1, 2, 3, 4}};
    b.attnMaps = {{0, 0, 2, 2, {1, 0, 0.5f, 0.5f}}};
    b.ops = {{1, 2, std::nullopt, "aten::mm", Phase::Prefill, 0, 20, 60, "[[1,8],[8,4]]", "float",
              64, 160},
             {2, 2, 1, "aten::add", Phase::Prefill, 0, 30, 40, "[[1,4]]", "float", 4, 48}};
    b.leafFlops = {{Phase::Prefill, "aten::mm", 1, 64}};
    b.runMetrics = {{"weights.bytes", 4096, "bytes", "measured", ""}};
    b.repetitions = {{Arm::Baseline, 0, Phase::Prefill, 100, false},
                     {Arm::WhatIf, 0, Phase::Prefill, 90, false}};
    DeviceActivityRow kernel;
    kernel.id = 1;
    kernel.name = "sgemm";
    kernel.device = 0;
    kernel.stream = 7;
    kernel.startNs = 25, kernel.endNs = 55;
    kernel.op = 1;
    b.activities = {kernel};
    b.evalSet = EvalSetRow{"set.jsonl", std::string(64, 'f'), 1};
    EvalItemRow item;
    item.id = "a", item.prompt = "What shape is red?", item.answers = {"circle"};
    item.output = "circle", item.correct = true, item.klMean = 0.5, item.top1Agreement = 1;
    item.visualTokens = 4, item.keptPatches = {0, 3};
    item.times = {{Phase::Prefill, 10}, {Phase::Decode, 20}};
    item.heatmap = EvalItemHeatmap{"a.png", 2, 2, {0.f, 0.25f, 0.5f, 0.25f}};
    b.evalItems = {item};
    return b;
}

// `damage`, if given, changes the rows before they are written.
void writeSession(const QString& path, const std::function<void(Batch&)>& damage = {}) {
    auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Overwrite);
    QVERIFY(w.ok());
    RunInfo info;
    info.label = "baseline";
    info.configJson = R"({"llm": {"experts": 4, "top_k": 2, "dim": 8, "heads": 2}})";
    auto run = (*w)->beginRun(info);
    QVERIFY(run.ok());
    Batch b = rows(*run);
    if (damage) damage(b);
    (*w)->submit(std::move(b));
    QVERIFY((*w)->endRun(*run, RunResult{}).ok());
    QVERIFY((*w)->close().ok());
}

// Everything an analysis reads, as the GUI and the report load it.
Status loadAll(const QString& path) {
    auto r = SessionReader::open(path.toStdString());
    if (!r) return r.error();
    auto data = loadRunData(**r, 1);
    if (!data) return data.error();
    auto maps = (*r)->attnMaps(1, 0);
    if (!maps) return maps.error();
    // What the report, the comparison and the op table read beside the run's data.
    if (auto runs = (*r)->runs(); !runs) return runs.error();
    if (auto ops = (*r)->ops(1); !ops) return ops.error();
    if (auto totals = (*r)->opTotals(1); !totals) return totals.error();
    if (auto leaves = (*r)->leafFlops(1); !leaves) return leaves.error();
    if (auto reps = (*r)->repetitions(1); !reps) return reps.error();
    if (auto acts = (*r)->activities(1); !acts) return acts.error();
    (void)analyseRun(*data);
    return Ok{};
}
} // namespace

class TestDamagedContent : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void intactSessionLoads() {
        const QString path = dir.filePath(QStringLiteral("intact.mvprof"));
        writeSession(path);
        const auto s = loadAll(path);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
    }

    void damageIsNamedNotUsed_data() {
        QTest::addColumn<QString>("sqlText");
        QTest::addColumn<QString>("says");
        auto row = [](const char* name, const char* sqlText, const char* says) {
            QTest::newRow(name) << QString::fromUtf8(sqlText) << QString::fromUtf8(says);
        };
        row("negative grid", "UPDATE patch_grid SET grid_h = -3", "patch_grid of run 1: grid_h -3");
        row("huge grid", "UPDATE patch_grid SET grid_h = 100000, grid_w = 100000",
            "grid_h 100000 is outside 1..1024");
        row("short vision features", "UPDATE vision_feature SET data = substr(data, 1, 8)",
            "vision_feature of run 1: its data holds 2 floats, not 2 × 2");
        row("logits of another length",
            "UPDATE step_output SET logits = substr(logits, 1, 8) WHERE step = 1",
            "step_output (step 1) of run 1: its logits hold 2 floats");
        row("token outside its logits", "UPDATE step_output SET token = 7 WHERE step = 0",
            "token 7 is not in its logits");
        row("negative patch", "UPDATE token SET patch = -7 WHERE position = 2", "patch -7");
        row("patch beyond the grid", "UPDATE token SET patch = 4 WHERE position = 2",
            "patch 4 is outside the 4 patches of its grid");
        // The matrix (one layer) stored plain with a fifth value: 0.5, none,
        // none, 0.25, then 1.0 (little-endian float64s, NaN for none).
        row("metric beyond the grid",
            "UPDATE patch_values SET encoding = 1, patches = 5, data = "
            "X'000000000000E03F000000000000F87F000000000000F87F000000000000D03F000000000000F03F'"
            " WHERE metric = 'attention'",
            "patch_values attention: patch 4 is outside the 4 patches");
        row("bytes after a deflated matrix",
            // A valid stream of one 0.0, then a stray byte.
            "UPDATE patch_values SET encoding = 2, patches = 1, "
            "data = X'789C636080000000080001' || X'00'",
            "patch_values attention of run 1");
        row("unknown matrix encoding", "UPDATE patch_values SET encoding = 3",
            "patch_values attention of run 1");
        row("metric matrix cut", "UPDATE patch_values SET data = substr(data, 1, 12)",
            "patch_values attention of run 1");
        row("matrix of more layers than its data", "UPDATE patch_values SET layers = 2",
            "patch_values attention of run 1");
        row("matrix before layer -1", "UPDATE patch_values SET first_layer = -2",
            "patch_values attention of run 1");
        row("inverted phase", "UPDATE phase SET end_ns = -5 WHERE phase = 'decode'",
            "phase decode (step 1)");
        row("attention map of another size", "UPDATE attn_map SET rows = 3",
            "attn_map of run 1: its data holds 4 floats, not 3 × 2");
        row("attention map too big", "UPDATE attn_map SET rows = 100000000, cols = 100000000",
            "is not a size mvprof writes");
        row("negative wall time", "UPDATE run SET wall_ns = -1",
            "the run row of run 1: wall_ns -1");
        row("run its own baseline", "UPDATE run SET baseline_run = 1",
            "baseline_run 1 is no other run");
        row("module its own parent", "UPDATE module SET parent = 2 WHERE id = 2",
            "module 2 (llm.layer.0.moe.gate) of run 1: parent 2 is outside 0..1");
        row("negative op total", "UPDATE op_total SET ns = -40",
            "op_total aten::mm (prefill) of run 1: ns -40");
        row("known time beyond the time", "UPDATE op_total SET known_ns = ns + 1", "known_ns");
        row("huge leaf FLOPs", "UPDATE leaf_flops SET flops = 9223372036854775807",
            "leaf_flops aten::mm");
        row("infinite metric", "UPDATE run_metric SET value = 1e999",
            "run_metric weights.bytes of run 1");
        row("negative repetition", "UPDATE repetition SET ns = -3 WHERE arm = 'whatif'",
            "repetition 0 (prefill) of run 1: ns -3");
        row("kernel name not interned", "DELETE FROM interned WHERE text = 'sgemm'",
            "device_activity 1 of run 1: its name id");
        // Phases and modalities are read into types: a name that is none is damage.
        row("unknown phase", "UPDATE phase SET phase = 'warmup' WHERE phase = 'decode'",
            "a phase row of run 1: phase \"warmup\" is none of preprocess, h2d, vision");
        row("phase row naming none", "UPDATE phase SET phase = '' WHERE phase = 'decode'",
            "a phase row (step 1) of run 1: it names no phase");
        row("token of an unknown modality",
            "UPDATE token SET modality = 'audio' WHERE position = 1",
            "token 1 of run 1: modality \"audio\" is neither visual nor text");
        row("op chunk in an unknown phase",
            "UPDATE interned SET text = 'later' WHERE text = 'prefill'", "phase \"later\"");
        row("op total in an unknown phase", "UPDATE op_total SET phase = 'x'",
            "op_total aten::mm of run 1: phase \"x\"");
        row("repetition in an unknown phase", "UPDATE repetition SET phase = 'warm'",
            "repetition 0 of run 1: phase \"warm\"");
        row("eval item's kept patches not JSON", "UPDATE eval_item SET kept_patches = '[0, 3'",
            "eval_item 0 of run 1: kept_patches is not a JSON array");
        row("eval item's answers not strings", "UPDATE eval_item SET answers = '[1]'",
            "eval_item 0 of run 1: answers is not a JSON array");
        row("negative KL", "UPDATE eval_item SET kl_mean = -1", "eval_item 0 of run 1: a fidelity");
        row("eval heatmap blob short", "UPDATE eval_item_heatmap SET answer_attention = x'0000'",
            "eval_item_heatmap 0 of run 1: its data holds 0 floats, not 2 × 2");
        row("eval heatmap grid absurd", "UPDATE eval_item_heatmap SET grid_h = 5000",
            "eval_item_heatmap 0 of run 1: grid_h 5000");
        row("eval heatmap negative value",
            "UPDATE eval_item_heatmap SET answer_attention = x'00000000000080bf0000000000000000'",
            "eval_item_heatmap 0 of run 1: an answer_attention value is negative");
        row("negative eval phase time", "UPDATE eval_item_phase SET ns = -5 WHERE phase = 'decode'",
            "eval_item 0 of run 1: ns -5");
        row("eval phase unknown",
            "UPDATE eval_item_phase SET phase = 'later' WHERE phase = 'decode'",
            "eval_item 0 of run 1: phase \"later\"");
        // A step no int holds must not wrap into a plausible one (2^32 + 1 → 1).
        row("step beyond an int", "UPDATE phase SET step = 4294967297 WHERE phase = 'decode'",
            "step 2147483647 is outside");
    }

    void damageIsNamedNotUsed() {
        QFETCH(QString, sqlText);
        QFETCH(QString, says);
        const QString path = dir.filePath(QStringLiteral("damaged.mvprof"));
        writeSession(path);
        test::execSql(path, sqlText.toUtf8().constData());
        const auto s = loadAll(path);
        QVERIFY2(!s.ok(), qPrintable(sqlText));
        QCOMPARE(s.error().code, ErrorCode::NotASession);
        const QString message = QString::fromStdString(s.error().message);
        QVERIFY2(message.contains(says), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("damaged")), qPrintable(message));
    }

    // Routing (v10), spans and device activity (v11) are packed, their
    // phases, modalities and kinds codes (test_routing_chunks,
    // test_span_chunks, test_activity_chunks): damage to their values is
    // written through the writer, not patched in.
    void damagedPackedRowsAreNamedNotUsed() {
        struct Case {
            const char* name;
            std::function<void(Batch&)> damage;
            const char* says;
        };
        const int64_t most = std::numeric_limits<int64_t>::max();
        const Case cases[] = {
            {"negative expert", [](Batch& b) { b.routing[0].expert = -5; },
             "routing (layer 0, token 1, rank 0) of run 1: expert -5"},
            {"expert the model lacks", [](Batch& b) { b.routing[1].expert = 9; },
             "expert 9 is outside 0..3 (the model has 4 experts)"},
            {"negative layer", [](Batch& b) { b.routing[1].layer = -2; }, "layer -2"},
            {"gate weight", [](Batch& b) { b.routing[0].weight = -0.5; }, "weight -0.5"},
            {"inverted span", [](Batch& b) { b.spans[1].endNs = 1; }, "span 2 of run 1: it ends"},
            {"span from before any clock",
             [](Batch& b) { b.spans[0].startNs = std::numeric_limits<int64_t>::min(); },
             "span 1 of run 1: start_ns -9223372036854775808 is outside"},
            {"negative device time", [](Batch& b) { b.spans[1].deviceNs = -4; },
             "span 2 of run 1: device_ns -4 is outside"},
            {"huge span FLOPs", [&](Batch& b) { b.spans[0].flops = most; },
             "span 1 of run 1: flops 9223372036854775807 is outside"},
            {"kernel ending before it starts", [](Batch& b) { b.activities[0].endNs = 5; },
             "device_activity 1 of run 1: end_ns 5 is outside 25.."},
            {"kernel on device -1", [](Batch& b) { b.activities[0].device = -1; },
             "device_activity 1 of run 1: device -1 is outside 0..1023"},
            {"negative bytes", [](Batch& b) { b.activities[0].bytes = -8; },
             "device_activity 1 of run 1: bytes -8"},
        };
        for (const auto& c : cases) {
            const QString path = dir.filePath(QStringLiteral("packed.mvprof"));
            writeSession(path, c.damage);
            const auto s = loadAll(path);
            QVERIFY2(!s.ok(), c.name);
            QCOMPARE(s.error().code, ErrorCode::NotASession);
            const QString message = QString::fromStdString(s.error().message);
            QVERIFY2(message.contains(QString::fromUtf8(c.says)), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("damaged")), qPrintable(message));
        }
    }

    // A config of the wrong types loses its extras, not the session.
    void oddConfigValuesReadAsUnknown() {
        const QString path = dir.filePath(QStringLiteral("config.mvprof"));
        writeSession(path);
        test::execSql(path, "UPDATE run SET config_json = '{\"llm\": {\"experts\": \"four\","
                            " \"top_k\": -1, \"dim\": 1e99}, \"format\": 7}'");
        auto r = SessionReader::open(path.toStdString());
        QVERIFY(r.ok());
        auto data = loadRunData(**r, 1);
        QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
        QCOMPARE(data->experts, 0);
        QCOMPARE(data->topK, 0);
        QVERIFY(!data->userModel);
    }
};

QTEST_GUILESS_MAIN(TestDamagedContent)
#include "test_damaged_content.moc"
