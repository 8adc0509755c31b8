// The session file: round trips, live reading, and every kind of bad file.
#include "SessionSample.h"
#include "TestSql.h"
#include "TestSupport.h"
#include "core/Utf8.h"
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
#include <tuple>

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
    // Text the session stores as TEXT: bytes that are not UTF-8 replaced one
    // by one with U+FFFD, UTF-8 (2-, 3- and 4-byte sequences) kept.
    void textIsMadeValidUtf8() {
        QCOMPARE(validUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82"),
                 std::string("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82"));
        const std::string bad = "\xFF"
                                "a\xE2\x82"; // a stray byte, a cut 3-byte sequence
        QCOMPARE(validUtf8(bad), std::string("\xEF\xBF\xBD"
                                             "a\xEF\xBF\xBD\xEF\xBF\xBD"));
        QCOMPARE(validUtf8("\xC3"), std::string("\xEF\xBF\xBD"));
    }

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
        test::writeSession(path);
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
        QCOMPARE(run.outputText, std::string("hi\xEF\xBF\xBD")); // stored as UTF-8
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

    // Per-patch figures are stored as one array per metric and layer (v9):
    // a later write for some patches replaces those and keeps the others,
    // as a row per patch did (a live heatmap is written again at the end);
    // patches without a value read as none; a patch past the largest grid
    // is refused, not an 8 GB array.
    void patchValuesMergeLikeRows() {
        const QString path = file("patches.mvprof");
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(w.ok());
        RunInfo info;
        info.model = "ref:test";
        auto run = (*w)->beginRun(info);
        QVERIFY(run.ok());
        Batch first;
        first.run = *run;
        first.patchMetrics = {{0, "attention", 0, 0.5},
                              {0, "attention", 1, 0.25},
                              {1, "attention", 2, 2.0},
                              {0, "tokens.kept", 1, 1.0}};
        (*w)->submit(std::move(first));
        QVERIFY((*w)->flush().ok());
        Batch second;
        second.run = *run;
        second.patchMetrics = {{0, "attention", 1, 0.75},
                               {0, "attention", 5, -1.5},
                               {0, "attention", 5, 3.0}}; // the later of two rows wins
        (*w)->submit(std::move(second));
        QVERIFY((*w)->endRun(*run, RunResult{}).ok());
        QVERIFY((*w)->close().ok());

        auto r = SessionReader::open(path.toStdString());
        QVERIFY(r.ok());
        auto attention = (*r)->patchMetrics(*run, "attention");
        QVERIFY2(attention.ok(), attention.ok() ? "" : attention.error().message.c_str());
        std::vector<std::tuple<int, int, double>> got;
        for (const auto& m : *attention)
            got.emplace_back(m.layer, m.patch, m.value);
        const std::vector<std::tuple<int, int, double>> want = {
            {0, 0, 0.5}, {0, 1, 0.75}, {0, 5, 3.0}, {1, 2, 2.0}};
        QVERIFY(got == want);
        auto kept = (*r)->patchMetrics(*run, "tokens.kept");
        QVERIFY(kept.ok() && kept->size() == 1 && kept->front().patch == 1);

        const QString badPath = file("patches-bad.mvprof");
        auto bad = SessionWriter::open(badPath.toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(bad.ok());
        auto badRun = (*bad)->beginRun(info);
        QVERIFY(badRun.ok());
        Batch huge;
        huge.run = *badRun;
        huge.patchMetrics = {{0, "attention", 1024 * 1024, 1.0}};
        (*bad)->submit(std::move(huge));
        const Status flushed = (*bad)->flush();
        QVERIFY(!flushed.ok());
        QVERIFY2(flushed.error().message.find("outside the largest grid") != std::string::npos,
                 flushed.error().message.c_str());
    }

    // Rows reach the disk within about a second without any flush, so a crash
    // loses at most the last second and a reader can follow a live run.
    void commitsWhileRunning() {
        const QString path = file("live.mvprof");
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(test::sampleRun());
        QVERIFY(run.ok());
        (*w)->submit(test::sampleBatch(*run));
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
        auto run = (*w)->beginRun(test::sampleRun());
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
        test::writeSession(path);
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
        test::writeSession(path);
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
        test::writeSession(path);
        execSql(path, "PRAGMA user_version = 99;");
        std::string msg;
        QCOMPARE(openError(path, &msg), ErrorCode::NewerSchema);
        QVERIFY(QString::fromStdString(msg).contains(QStringLiteral("update mvprof")));
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Append);
        QVERIFY(!w.ok());
        QCOMPARE(w.error().code, ErrorCode::NewerSchema);
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
        test::writeSession(path);
        auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Append);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(test::sampleRun());
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
