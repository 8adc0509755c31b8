// The session file: round trips, live reading, and every kind of bad file.
#include "TestSql.h"
#include "TestSupport.h"
#include "core/session/LiveRuns.h"
#include "core/session/Schema.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <set>
#include <sqlite3.h>

using namespace mvp;

namespace {
// A writer's spare record buffers, taken until none is left.
std::vector<std::vector<OpRecord>> drainSpares(SessionWriter& w) {
    std::vector<std::vector<OpRecord>> out;
    for (auto b = w.spareRecords(); b.capacity() > 0; b = w.spareRecords())
        out.push_back(std::move(b));
    return out;
}
std::set<const OpRecord*> addresses(const std::vector<std::vector<OpRecord>>& v) {
    std::set<const OpRecord*> out;
    for (const auto& b : v)
        out.insert(b.data());
    return out;
}

RunInfo sampleRun() {
    RunInfo r;
    r.label = "baseline";
    r.model = "ref:test";
    r.configJson = "{}";
    r.prompt = "hello";
    r.imagePath = "x.png";
    r.steps = 2;
    r.device = "cpu";
    r.dtype = "float32";
    r.blas = "OpenBLAS";
    r.threads = 2;
    r.writerPid = QCoreApplication::applicationPid();
    r.writerHost = hostName();
    r.startedUtc = "2026-11-29T00:00:00Z";
    return r;
}

Batch sampleBatch(int64_t run) {
    Batch b;
    b.run = run;
    b.modules = {{1, "llm", "Decoder", std::nullopt, 10}, {2, "llm.layer.0", "DecoderLayer", 1, 7}};
    b.phases = {{Phase::Prefill, 0, 0, 100}, {Phase::Decode, 1, 100, 150}};
    b.spans = {{1, 1, std::nullopt, Phase::Prefill, 0, 5, 95, std::nullopt, 1000, 64},
               {2, 2, 1, Phase::Prefill, 0, 10, 90, 42, 800, 32}};
    b.ops = {
        {1, 2, std::nullopt, "aten::mm", Phase::Prefill, 0, 20, 30, "[[2,3],[3,4]]", "Float", 48,
         80},
        {2, 2, std::nullopt, "aten::linear", Phase::Prefill, 0, 40, 80, "[[2,3],[4,3]]", "Float",
         48, 80},
        {3, 2, 2, "aten::addmm", Phase::Prefill, 0, 45, 75, "[[4],[2,3],[3,4]]", "Float", 48, 80},
        {4, std::nullopt, std::nullopt, "aten::view", Phase::Decode, 1, 110, 111, "[[8]]", "Float",
         0, 0}};
    b.tokens = {{0, Phase::Prefill, 0, Modality::Text, 256},
                {1, Phase::Prefill, 0, Modality::Visual, -1}};
    b.routing = {{0, Phase::Prefill, 0, 1, Modality::Visual, 0, 3, 0.75},
                 {0, Phase::Prefill, 0, 1, Modality::Visual, 1, 1, 0.25}};
    b.patchMetrics = {{0, "attention", 0, 0.5}, {0, "attention", 1, 0.25}};
    b.attnMaps = {{0, 1, 2, 2, {1.0f, 0.0f, 0.5f, 0.5f}}};
    b.image = ImageRow{"x.png", 2, 1, 4, 2, {1, 2, 3}};
    b.patchGrid = PatchGridRow{1, 2, 14, 28, 1};
    return b;
}

// Creates a complete one-run session at `path`.
void writeSession(const QString& path) {
    auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
    QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
    auto run = (*w)->beginRun(sampleRun());
    QVERIFY(run.ok());
    (*w)->submit(sampleBatch(*run));
    RunResult done;
    done.wallNs = 150;
    done.outputText = "hi";
    QVERIFY((*w)->endRun(*run, done).ok());
    QVERIFY((*w)->close().ok());
}

using test::execSql;

ErrorCode openError(const QString& path, std::string* message = nullptr) {
    auto r = SessionReader::open(path.toStdString());
    if (r) {
        // Damage may only show when the rows are read.
        auto runs = (*r)->runs();
        if (runs) {
            for (const auto& run : *runs) {
                auto spans = (*r)->spans(run.id);
                if (!spans) {
                    if (message) *message = spans.error().message;
                    return spans.error().code;
                }
            }
            return ErrorCode::Internal; // opened fine: the caller expected an error
        }
        if (message) *message = runs.error().message;
        return runs.error().code;
    }
    if (message) *message = r.error().message;
    return r.error().code;
}
} // namespace

class TestSession : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString file(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }
    std::string file_(const char* name) const { return file(name).toStdString(); }
    QString file_qs(const char* name) const { return file(name); }

private slots:
    // The names docs/format.md gives, and nothing else, read back as phases and modalities.
    void phaseAndModalityNames() {
        const char* names[] = {"preprocess", "h2d", "vision", "projector", "prefill", "decode"};
        QCOMPARE(kPhases.size(), std::size(names));
        for (size_t i = 0; i < kPhases.size(); ++i) {
            QCOMPARE(std::string(toString(kPhases[i])), std::string(names[i]));
            QVERIFY(phaseFromString(names[i]) == kPhases[i]);
        }
        QVERIFY(phaseFromString("") == Phase::None);
        for (const char* other : {"Decode", "total", "done", " prefill", "vision "})
            QVERIFY2(!phaseFromString(other), other);
        QVERIFY(modalityFromString("visual") == Modality::Visual);
        QVERIFY(modalityFromString("text") == Modality::Text);
        QVERIFY(!modalityFromString("") && !modalityFromString("image"));
        QCOMPARE(modalityName(Modality::Visual), std::string("visual"));
    }

    void roundTrip() {
        const QString path = file("round.mvprof");
        writeSession(path);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal"))); // a closed session is one file
        auto r = SessionReader::open(path.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE((*r)->schemaVersion(), schema::kVersion);
        auto runs = (*r)->runs();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        const RunInfo& run = runs->front();
        QCOMPARE(run.status, RunStatus::Complete);
        QCOMPARE(run.model, std::string("ref:test"));
        QCOMPARE(run.outputText, std::string("hi"));
        QCOMPARE(run.wallNs, int64_t(150));
        auto spans = (*r)->spans(run.id);
        QVERIFY(spans.ok());
        QCOMPARE(spans->size(), size_t(2));
        QCOMPARE(spans->at(1).parent, std::optional<int64_t>(1));
        QCOMPARE(spans->at(1).deviceNs, std::optional<int64_t>(42));
        QCOMPARE(spans->at(0).deviceNs, std::optional<int64_t>());
        auto ops = (*r)->ops(run.id);
        QVERIFY(ops.ok());
        QCOMPARE(ops->at(0).shapes, std::string("[[2,3],[3,4]]"));
        QCOMPARE(ops->at(0).flops, int64_t(48));
        auto routing = (*r)->routing(run.id);
        QVERIFY(routing.ok());
        QCOMPARE(routing->size(), size_t(2));
        QCOMPARE(routing->at(0).expert, 3);
        QCOMPARE(routing->at(0).weight, 0.75);
        auto maps = (*r)->attnMaps(run.id, 0);
        QVERIFY(maps.ok());
        QCOMPARE(maps->size(), size_t(1));
        QCOMPARE(maps->at(0).data, (std::vector<float>{1.0f, 0.0f, 0.5f, 0.5f}));
        auto image = (*r)->image(run.id);
        QVERIFY(image.ok() && image->has_value());
        QCOMPARE((*image)->png, (std::vector<uint8_t>{1, 2, 3}));
        auto grid = (*r)->patchGrid(run.id);
        QVERIFY(grid.ok() && grid->has_value());
        QCOMPARE((*grid)->gridW, 2);
        auto metrics = (*r)->patchMetrics(run.id, "attention");
        QVERIFY(metrics.ok());
        QCOMPARE(metrics->size(), size_t(2));
        auto missing = (*r)->run(99);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
    }

    // Rows reach the disk within about a second without any flush, so a crash
    // loses at most the last second and a reader can follow a live run.
    void commitsWhileRunning() {
        const QString path = file("live.mvprof");
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(sampleRun());
        QVERIFY(run.ok());
        (*w)->submit(sampleBatch(*run));
        QElapsedTimer t;
        t.start();
        size_t seen = 0;
        while (t.elapsed() < 1500 && seen < 2) {
            auto r = SessionReader::open(path.toStdString());
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
            auto runs = (*r)->runs();
            QVERIFY(runs.ok());
            QCOMPARE(runs->front().status, RunStatus::Live); // its writer (us) is alive
            auto spans = (*r)->spans(*run);
            QVERIFY(spans.ok());
            seen = spans->size();
            if (seen < 2) QThread::msleep(50);
        }
        QCOMPARE(seen, size_t(2));
        QVERIFY((*w)->close().ok());
    }

    // The writer's thread readies record buffers when asked (a capture is
    // starting) and hands each out once, empty and at full capacity.
    void writerPreparesRecordBuffersOffTheCallersThread() {
        auto w = SessionWriter::open(file("buffers.mvprof").toStdString(),
                                     SessionWriter::Mode::CreateNew);
        QVERIFY(w.ok());
        QVERIFY((*w)->spareRecords().capacity() == 0); // none before they are asked for
        (*w)->prepareRecordBuffers();
        QElapsedTimer t;
        t.start();
        std::vector<std::vector<OpRecord>> got;
        while (got.size() < 3 && t.elapsed() < 5000) {
            auto b = (*w)->spareRecords();
            if (b.capacity() == 0) {
                QThread::msleep(5);
                continue;
            }
            QVERIFY(b.empty());
            QCOMPARE(b.capacity(), SessionWriter::kRecordBufferRows);
            got.push_back(std::move(b));
        }
        QCOMPARE(got.size(), size_t(3));
        std::set<const OpRecord*> distinct;
        for (const auto& b : got)
            distinct.insert(b.data());
        QCOMPARE(distinct.size(), got.size());
        QVERIFY((*w)->close().ok());
    }

    // A capture that fills buffers as fast as they come must not have the
    // writer make new ones while the lent ones are still being written (and
    // unmap the surplus when they return): the same buffers circulate.
    void recordBuffersCirculateInAFixedPool() {
        auto w =
            SessionWriter::open(file("pool.mvprof").toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(sampleRun());
        QVERIFY(run.ok());
        // The writer serves a buffer request before a flush that follows it.
        (*w)->prepareRecordBuffers();
        QVERIFY((*w)->flush().ok());
        auto lent = drainSpares(**w);
        QVERIFY(lent.size() >= 2);
        const auto first = addresses(lent);
        QCOMPARE(first.size(), lent.size());
        (*w)->prepareRecordBuffers(); // all lent: none more
        QVERIFY((*w)->flush().ok());
        QCOMPARE((*w)->spareRecords().capacity(), size_t(0));
        static const std::string add = "aten::add";
        int64_t id = 0;
        for (auto& b : lent) {
            OpRecord r;
            r.id = ++id;
            r.name = &add;
            r.phase = Phase::Decode;
            r.startNs = 10 * id, r.endNs = 10 * id + 5;
            b.push_back(r);
            Batch batch;
            batch.run = *run;
            batch.opRecords = std::move(b);
            (*w)->submit(std::move(batch));
        }
        // A batch's buffer goes back after its flush is answered: the next flush sees it back.
        QVERIFY((*w)->flush().ok());
        QVERIFY((*w)->flush().ok());
        (*w)->prepareRecordBuffers();
        QVERIFY((*w)->flush().ok());
        const auto back = drainSpares(**w);
        for (const auto& b : back) {
            QVERIFY(b.empty());
            QCOMPARE(b.capacity(), SessionWriter::kRecordBufferRows);
        }
        QCOMPARE(addresses(back), first);
        QVERIFY((*w)->close().ok());
        auto r = SessionReader::open(file("pool.mvprof").toStdString());
        QVERIFY(r.ok());
        const auto written = (*r)->opCount(*run);
        QVERIFY(written.ok());
        QCOMPARE(*written, id);
    }

    void createNewRefusesAnExistingFile() {
        const QString path = file("exists.mvprof");
        QVERIFY(test::writeFile(path, "keep me"));
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(!w.ok());
        QCOMPARE(w.error().code, ErrorCode::BadInput);
        QVERIFY(QString::fromStdString(w.error().message).contains(QStringLiteral("--force")));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me")); // nothing lost
    }

    void writerInMissingFolderFails() {
        auto w = SessionWriter::open(file("no/such/dir/x.mvprof").toStdString(),
                                     SessionWriter::Mode::CreateNew);
        QVERIFY(!w.ok());
        QCOMPARE(w.error().code, ErrorCode::Io);
    }

    void deadWriterMeansIncomplete() {
        QProcess p;
        p.start(QStringLiteral("/bin/true"));
        QVERIFY(p.waitForStarted());
        const qint64 deadPid = p.processId();
        QVERIFY(p.waitForFinished());
        const QString path = file("killed.mvprof");
        writeSession(path);
        execSql(path, QStringLiteral("UPDATE run SET status='live', writer_pid=%1")
                          .arg(deadPid)
                          .toUtf8()
                          .constData());
        auto r = SessionReader::open(path.toStdString());
        QVERIFY(r.ok());
        auto runs = (*r)->runs();
        QVERIFY(runs.ok());
        QCOMPARE(runs->front().status, RunStatus::Incomplete);
    }

    void missingFile() { QCOMPARE(openError(file("nope.mvprof")), ErrorCode::NotFound); }

    void emptyFile() {
        const QString path = file("empty.mvprof");
        QVERIFY(test::writeFile(path, {}));
        std::string msg;
        QCOMPARE(openError(path, &msg), ErrorCode::NotASession);
        QVERIFY(QString::fromStdString(msg).contains(QStringLiteral("empty")));
    }

    void randomBytes() {
        const QString path = file("random.mvprof");
        QByteArray bytes(64 * 1024, '\0');
        auto* rng = QRandomGenerator::global();
        for (auto& b : bytes)
            b = char(rng->bounded(256));
        QVERIFY(test::writeFile(path, bytes));
        QCOMPARE(openError(path), ErrorCode::NotASession);
    }

    void truncated() {
        const QString path = file("truncated.mvprof");
        writeSession(path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.size() > 8192);
        QVERIFY(f.resize(f.size() / 2));
        f.close();
        std::string msg;
        QCOMPARE(openError(path, &msg), ErrorCode::NotASession);
        QVERIFY2(QString::fromStdString(msg).contains(QStringLiteral("truncated")), msg.c_str());
    }

    void foreignSqlite() {
        const QString path = file("foreign.db");
        execSql(path, "CREATE TABLE songs(title TEXT); INSERT INTO songs VALUES ('x');");
        std::string msg;
        QCOMPARE(openError(path, &msg), ErrorCode::NotASession);
        QVERIFY(QString::fromStdString(msg).contains(QStringLiteral("not an mvprof session")));
    }

    void newerSchema() {
        const QString path = file("newer.mvprof");
        writeSession(path);
        execSql(path, "PRAGMA user_version = 99;");
        std::string msg;
        QCOMPARE(openError(path, &msg), ErrorCode::NewerSchema);
        QVERIFY(QString::fromStdString(msg).contains(QStringLiteral("update mvprof")));
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Append);
        QVERIFY(!w.ok());
        QCOMPARE(w.error().code, ErrorCode::NewerSchema);
    }

    // Turns a current session into what an older mvprof wrote: v7 had no
    // eval_item_heatmap; v6 no eval tables; v5 no device_activity; v4 stored
    // op rows as rows; v3 had no repetition table; v2 no module roles, no
    // flops_known, op_total without phases and no leaf_flops; v1 also had no
    // run_metric.
    static void downgrade(const QString& path, int version) {
        execSql(path, "DROP TABLE eval_item_heatmap;");
        if (version < 7)
            execSql(path,
                    "DROP TABLE eval_set; DROP TABLE eval_item; DROP TABLE eval_item_phase;");
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

    void olderSessionsReadAndMigrateWhenAppendedTo() {
        for (int version : {1, 2, 3, 4, 5, 6, 7}) {
            const QString path = file(("v" + std::to_string(version) + ".mvprof").c_str());
            writeSession(path);
            std::vector<OpRow> before;
            {
                auto r = SessionReader::open(path.toStdString());
                QVERIFY(r.ok());
                before = *(*r)->ops(1);
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
                auto acts = (*r)->activities(1);
                QVERIFY(acts.ok() && acts->empty()); // none before v6, not an error
                auto evalItems = (*r)->evalItems(1);
                QVERIFY(evalItems.ok() && evalItems->empty()); // none before v7, not an error
                auto evalSet = (*r)->evalSet(1);
                QVERIFY(evalSet.ok() && !*evalSet);
                auto ops = (*r)->ops(1);
                QVERIFY(ops.ok());
                QCOMPARE(ops->size(), before.size());
                QCOMPARE((*r)->opCount(1).value(), int64_t(before.size()));
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
            item.output = "red", item.correct = true, item.klMean = 0.25;
            item.visualTokens = 3, item.keptPatches = {1, 9, 17};
            item.times = {{Phase::Prefill, 5}, {Phase::Decode, 7}};
            item.heatmap = EvalItemHeatmap{"/sets/a.png", 2, 3, {0.f, 0.5f, 0.25f, 0.f, 1.f, 2.f}};
            b.evalItems.push_back(item);
            (*w)->submit(std::move(b));
            QVERIFY((*w)->close().ok());
            auto r = SessionReader::open(path.toStdString());
            QVERIFY(r.ok());
            QCOMPARE((*r)->schemaVersion(), schema::kVersion);
            auto metrics = (*r)->runMetrics(1);
            QVERIFY(metrics.ok());
            QVERIFY(std::any_of(metrics->begin(), metrics->end(), [](const auto& m) {
                return m.name == "kv.bytes" && m.value == 42;
            }));
            QCOMPARE((*r)->runs()->size(), size_t(1)); // the old run is intact
            auto reps = (*r)->repetitions(1);
            QVERIFY(reps.ok() && !reps->empty());
            auto acts = (*r)->activities(1);
            QVERIFY(acts.ok() && acts->size() == 1);
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
            auto leaves = (*r)->leafFlops(1);
            QVERIFY(leaves.ok());
            if (version < 3) QVERIFY(leaves->empty()); // not recorded by the old writer
        }
    }

    void liveRunsAnnounceThemselves() {
        qputenv("XDG_RUNTIME_DIR", dir.path().toUtf8());
        QCOMPARE(QString::fromStdString(liveRunsDirectory()),
                 dir.filePath(QStringLiteral("mvprof")));
        std::string file;
        {
            LiveRunAnnouncement a(file_("live.mvprof"), "ref:tiny", 3, "2026-11-29T10:00:00Z");
            file = a.file();
            QVERIFY(QFile::exists(QString::fromStdString(file)));
            const auto runs = listLiveRuns();
            QCOMPARE(runs.size(), size_t(1));
            QCOMPARE(runs[0].pid, QCoreApplication::applicationPid());
            QCOMPARE(runs[0].run, int64_t(3));
            QVERIFY(!runs[0].stale);
            QCOMPARE(QString::fromStdString(runs[0].session), file_qs("live.mvprof"));
        }
        QVERIFY(!QFile::exists(QString::fromStdString(file))); // removed when the run ends
        // A process killed mid-run leaves its file behind: stale, and cleaned up on request.
        QProcess p;
        p.start(QStringLiteral("/bin/true"));
        QVERIFY(p.waitForFinished());
        const QString dead = dir.filePath(QStringLiteral("mvprof/%1.json").arg(p.processId()));
        QVERIFY(test::writeFile(
            dead, QStringLiteral("{\"pid\": %1, \"host\": \"%2\", \"session\": \"/x.mvprof\"}")
                      .arg(p.processId())
                      .arg(QString::fromStdString(hostName()))
                      .toUtf8()));
        auto runs = listLiveRuns();
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(runs[0].stale);
        QCOMPARE(cleanStaleLiveRuns(), 1);
        QVERIFY(listLiveRuns().empty());
        qunsetenv("XDG_RUNTIME_DIR");
    }

    void appendAddsARun() {
        const QString path = file("append.mvprof");
        writeSession(path);
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Append);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(sampleRun());
        QVERIFY(run.ok());
        QCOMPARE(*run, int64_t(2));
        QVERIFY((*w)->endRun(*run, RunResult{}).ok());
        QVERIFY((*w)->close().ok());
        auto r = SessionReader::open(path.toStdString());
        QVERIFY(r.ok());
        QCOMPARE((*r)->runs()->size(), size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"
