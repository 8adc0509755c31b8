// Sessions written by older mvprof versions (schema v1 … v10): read as they
// are, and migrated forward when a run is appended (docs/format.md).
#include "SessionSample.h"
#include "TestSql.h"
#include "core/session/Schema.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace mvp;
using test::execSql;

class TestSessionMigrations : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString file(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }

    // Turns a current session into what an older mvprof wrote: v10 stored a
    // patch array per layer, spans and device activity as rows; v9 stored op
    // chunks and patch arrays plain and routing as rows; v8 stored patch metrics as a row per
    // patch; v7 had no eval_item_heatmap; v6 no eval tables; v5 no device_activity; v4 stored op
    // rows as rows; v3 had no repetition table; v2 no module roles, no flops_known, op_total
    // without phases and no leaf_flops; v1 also had no run_metric.
    static void downgrade(const QString& path, int version) {
        test::unpackSpans(path);
        test::unpackActivities(path);
        test::unpackPatchMatrices(path);
        if (version < 10) {
            test::plainOpChunks(path);
            test::plainPatchArrays(path);
            test::unpackRouting(path);
        }
        if (version < 9) test::unpackPatchValues(path);
        if (version < 8) execSql(path, "DROP TABLE eval_item_heatmap;");
        if (version < 7)
            execSql(path, "DROP TABLE eval_set; DROP TABLE eval_item; DROP TABLE eval_item_phase;");
        if (version < 6) execSql(path, "DROP TABLE device_activity;");
        if (version < 5) test::unpackOps(path);
        if (version < 4) execSql(path, "DROP TABLE repetition;");
        if (version < 3)
            execSql(path,
                    "ALTER TABLE module DROP COLUMN role; ALTER TABLE module DROP COLUMN layer;"
                    " ALTER TABLE module DROP COLUMN expert;"
                    " ALTER TABLE op DROP COLUMN flops_known;"
                    " ALTER TABLE span DROP COLUMN flops_known; DROP TABLE leaf_flops;"
                    " DROP TABLE op_total; CREATE TABLE op_total(run INTEGER NOT NULL, name TEXT"
                    " NOT NULL, calls INTEGER NOT NULL, flops INTEGER NOT NULL, bytes INTEGER"
                    " NOT NULL, ns INTEGER NOT NULL, PRIMARY KEY(run, name)) WITHOUT ROWID;"
                    " INSERT INTO op_total SELECT run, name, COUNT(*), SUM(flops), SUM(bytes),"
                    " SUM(end_ns - start_ns) FROM op GROUP BY run, name;");
        if (version < 2) execSql(path, "DROP TABLE run_metric;");
        const std::string v = std::to_string(version);
        execSql(path, ("UPDATE meta SET value='" + v +
                       "' WHERE key='schema_version'; PRAGMA user_version = " + v + ";")
                          .c_str());
    }

    // A kernel, a copy and the API call that launched them (ids 10–12; the
    // test appends id 1 after the migration).
    static void appendActivities(const QString& path) {
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Append);
        QVERIFY(w.ok());
        Batch b;
        b.run = 1;
        DeviceActivityRow call, kernel, copy;
        call.id = 10, call.kind = ActivityKind::Runtime, call.name = "cudaLaunchKernel";
        call.thread = 4242, call.startNs = 30, call.endNs = 32, call.correlation = 7, call.op = 2;
        kernel.id = 11, kernel.name = "void gemm<128>(float*)", kernel.device = 0;
        kernel.stream = 7, kernel.startNs = 40, kernel.endNs = 70, kernel.correlation = 7;
        kernel.op = 2, kernel.span = 2;
        copy.id = 12, copy.kind = ActivityKind::Memcpy, copy.name = "Memcpy HtoD";
        copy.device = 1, copy.stream = 13, copy.startNs = 75, copy.endNs = 80, copy.bytes = 4096;
        b.activities = {kernel, copy, call}; // not in id order
        (*w)->submit(std::move(b));
        QVERIFY((*w)->close().ok());
    }

    static void compareActivities(const std::vector<DeviceActivityRow>& got,
                                  const std::vector<DeviceActivityRow>& want) {
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            const auto &a = got[i], &b = want[i];
            QVERIFY(a.id == b.id && a.kind == b.kind && a.name == b.name && a.device == b.device &&
                    a.stream == b.stream && a.thread == b.thread && a.startNs == b.startNs &&
                    a.endNs == b.endNs && a.correlation == b.correlation && a.op == b.op &&
                    a.span == b.span && a.bytes == b.bytes);
        }
    }

private slots:
    void olderSessionsReadAndMigrateWhenAppendedTo() {
        // The sample's patch metric as every version reads it.
        const auto samplePatches = [](SessionReader& r) {
            auto rows = r.patchMetrics(1, "attention");
            return rows.ok() && rows->size() == 2 && (*rows)[0].patch == 0 &&
                   (*rows)[0].value == 0.5 && (*rows)[1].patch == 1 && (*rows)[1].value == 0.25 &&
                   (*rows)[0].layer == 0 && (*rows)[1].layer == 0;
        };
        for (int version : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
            const QString path = file(("v" + std::to_string(version) + ".mvprof").c_str());
            test::writeSession(path);
            appendActivities(path);
            std::vector<OpRow> before;
            std::vector<RoutingRow> routingBefore;
            std::vector<SpanRow> spansBefore;
            std::vector<DeviceActivityRow> activitiesBefore;
            {
                auto r = SessionReader::open(path.toStdString());
                QVERIFY(r.ok());
                before = *(*r)->ops(1);
                spansBefore = *(*r)->spans(1);
                QVERIFY(!spansBefore.empty());
                activitiesBefore = *(*r)->activities(1);
                QCOMPARE(activitiesBefore.size(), size_t(3));
                routingBefore = *(*r)->routing(1);
                QVERIFY(!routingBefore.empty());
                QVERIFY(samplePatches(**r));
            }
            downgrade(path, version);
            {
                auto r = SessionReader::open(path.toStdString());
                QVERIFY(r.ok());
                QCOMPARE((*r)->schemaVersion(), version);
                auto metrics = (*r)->runMetrics(1);
                if (version == 1)
                    QVERIFY(metrics.ok() && metrics->empty()); // "no run metrics", not an error
                // Read directly, an old file's totals are summed by phase, its
                // roles inferred from the built-in model's kinds.
                auto totals = (*r)->opTotals(1);
                QVERIFY(totals.ok() && !totals->empty());
                QVERIFY(totals->front().phase != Phase::None);
                auto modules = (*r)->modules(1);
                QVERIFY(modules.ok() && !modules->empty());
                auto reps = (*r)->repetitions(1);
                if (version < 4)
                    QVERIFY(reps.ok() && reps->empty()); // none before v4, not an error
                auto acts = (*r)->activities(1);         // none before v6, not an error
                QVERIFY(acts.ok());
                if (version < 6)
                    QVERIFY(acts->empty());
                else
                    compareActivities(*acts, activitiesBefore);
                auto evalItems = (*r)->evalItems(1);
                QVERIFY(evalItems.ok() && evalItems->empty()); // none before v7, not an error
                auto evalSet = (*r)->evalSet(1);
                QVERIFY(evalSet.ok() && !*evalSet);
                auto ops = (*r)->ops(1);
                QVERIFY(ops.ok());
                QCOMPARE(ops->size(), before.size());
                QVERIFY(samplePatches(**r));        // a row per patch
                auto oldRouting = (*r)->routing(1); // a row of the routing table each
                QVERIFY(oldRouting.ok() && oldRouting->size() == routingBefore.size());
                QCOMPARE((*r)->opCount(1).value(), int64_t(before.size()));
                auto oldSpans = (*r)->spans(1); // a row of the span table each
                QVERIFY(oldSpans.ok());
                QCOMPARE(oldSpans->size(), spansBefore.size());
                for (size_t i = 0; i < spansBefore.size() && !QTest::currentTestFailed(); ++i)
                    test::compareSpans((*oldSpans)[i], spansBefore[i], version >= 3);
                if (QTest::currentTestFailed()) return;
            }
            auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Append);
            QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
            Batch b;
            b.run = 1;
            b.runMetrics.push_back({"kv.bytes", 42, "bytes", "measured", "test"});
            b.repetitions.push_back({Arm::WhatIf, 0, Phase::Decode, 1234, false});
            DeviceActivityRow kernel;
            kernel.id = 1;
            kernel.name = "sgemm";
            kernel.device = 0;
            kernel.stream = 7;
            kernel.startNs = 10, kernel.endNs = 20;
            kernel.correlation = 5;
            b.activities.push_back(kernel);
            b.evalSet = EvalSetRow{"set.jsonl", std::string(64, 'a'), 2};
            EvalItemRow item;
            item.id = "first", item.kind = "colour", item.prompt = "What colour is the circle?";
            item.answers = {"red", "rot"};
            // A model's bytes need not be UTF-8; the session's text is.
            item.output = "re\xff"
                          "d",
            item.correct = true, item.klMean = 0.25;
            item.visualTokens = 3, item.keptPatches = {1, 9, 17};
            item.times = {{Phase::Prefill, 5}, {Phase::Decode, 7}};
            item.heatmap = EvalItemHeatmap{"/sets/a.png", 2, 3, {0.f, 0.5f, 0.25f, 0.f, 1.f, 2.f}};
            b.evalItems.push_back(item);
            (*w)->submit(std::move(b));
            QVERIFY((*w)->close().ok());
            auto r = SessionReader::open(path.toStdString());
            QVERIFY(r.ok());
            QCOMPARE((*r)->schemaVersion(), schema::kVersion);
            QVERIFY(samplePatches(**r)); // moved into an array
            auto metrics = (*r)->runMetrics(1);
            QVERIFY(metrics.ok());
            QVERIFY(std::any_of(metrics->begin(), metrics->end(), [](const auto& m) {
                return m.name == "kv.bytes" && m.value == 42;
            }));
            QCOMPARE((*r)->runs()->size(), size_t(1)); // the old run is intact
            auto reps = (*r)->repetitions(1);
            QVERIFY(reps.ok() && !reps->empty());
            auto acts = (*r)->activities(1);
            QVERIFY(acts.ok());
            // The one appended (id 1), then v6–v10's rows moved into chunks, field for field.
            QCOMPARE(acts->size(), size_t(version < 6 ? 1 : 4));
            if (version >= 6) compareActivities({acts->begin() + 1, acts->end()}, activitiesBefore);
            acts->resize(1);
            QCOMPARE(acts->front().name, std::string("sgemm"));
            QCOMPARE(acts->front().stream, int64_t(7));
            QCOMPARE(acts->front().correlation.value(), int64_t(5));
            QVERIFY(!acts->front().op);
            QCOMPARE(reps->back().arm, Arm::WhatIf);
            QCOMPARE(reps->back().ns, int64_t(1234));
            // v7's eval rows, written into the migrated file, read back field for field.
            auto evalSet = (*r)->evalSet(1);
            QVERIFY(evalSet.ok() && *evalSet && (*evalSet)->items == 2);
            auto items = (*r)->evalItems(1);
            QVERIFY2(items.ok(), items.ok() ? "" : items.error().message.c_str());
            QCOMPARE(items->size(), size_t(1));
            const EvalItemRow& e = items->front();
            QCOMPARE(e.answers, (std::vector<std::string>{"red", "rot"}));
            QCOMPARE(e.output, std::string("re\xEF\xBF\xBD"
                                           "d"));
            QVERIFY(e.correct && *e.correct && e.klMean == 0.25 && !e.klMax);
            QCOMPARE(e.keptPatches, (std::vector<int>{1, 9, 17}));
            QCOMPARE(e.times.size(), size_t(2));
            QCOMPARE(e.totalNs(), int64_t(12));
            // v8's heatmap, likewise.
            QVERIFY(e.heatmap);
            QCOMPARE(e.heatmap->image, std::string("/sets/a.png"));
            QCOMPARE(e.heatmap->gridH, 2);
            QCOMPARE(e.heatmap->gridW, 3);
            QCOMPARE(e.heatmap->answerAttention,
                     (std::vector<float>{0.f, 0.5f, 0.25f, 0.f, 1.f, 2.f}));
            // Migrated: per-phase totals rebuilt, old zero-FLOP ops read as unknown.
            auto totals = (*r)->opTotals(1);
            auto ops = (*r)->ops(1);
            QVERIFY(totals.ok() && ops.ok());
            int64_t opFlops = 0, totalFlops = 0;
            for (const auto& o : *ops) {
                if (!o.parentOp) opFlops += o.flops;
                if (o.flops == 0) QCOMPARE(o.flopsKnown, version >= 3);
            }
            for (const auto& t : *totals)
                totalFlops += t.flops;
            QCOMPARE(totalFlops, opFlops);
            // Every op row survives the move into chunks, field for field
            // (before v3 a 0-FLOP op reads as unknown, which the loop above checks).
            QCOMPARE(ops->size(), before.size());
            for (size_t i = 0; i < before.size() && !QTest::currentTestFailed(); ++i)
                test::compareOps((*ops)[i], before[i], version >= 3);
            if (QTest::currentTestFailed()) return;
            // Routing read from the old table, then moved into chunks, field for field.
            auto routing = (*r)->routing(1);
            QVERIFY(routing.ok());
            QCOMPARE(routing->size(), routingBefore.size());
            for (size_t i = 0; i < routingBefore.size(); ++i) {
                const RoutingRow &a = (*routing)[i], &b = routingBefore[i];
                QVERIFY(a.layer == b.layer && a.phase == b.phase && a.step == b.step &&
                        a.token == b.token && a.modality == b.modality && a.rank == b.rank &&
                        a.expert == b.expert && a.weight == b.weight);
            }
            // Spans read from the old table, then moved into chunks, field for field.
            auto spans = (*r)->spans(1);
            QVERIFY(spans.ok());
            QCOMPARE(spans->size(), spansBefore.size());
            for (size_t i = 0; i < spansBefore.size() && !QTest::currentTestFailed(); ++i)
                test::compareSpans((*spans)[i], spansBefore[i], version >= 3);
            if (QTest::currentTestFailed()) return;
            auto leaves = (*r)->leafFlops(1);
            QVERIFY(leaves.ok());
            if (version < 3) QVERIFY(leaves->empty()); // not recorded by the old writer
        }
    }
};

QTEST_GUILESS_MAIN(TestSessionMigrations)
#include "test_session_migrations.moc"
