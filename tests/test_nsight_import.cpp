// Nsight Systems' SQLite export, as a fixture built here from the schema
// NVIDIA documents (StringIds, CUPTI_ACTIVITY_KIND_KERNEL / MEMCPY / RUNTIME,
// NVTX_EVENTS, TARGET_INFO_GPU; docs/interop.md §C): every kernel
// and copy lands in the innermost NVTX range around its launch call on the
// launching thread — as NVIDIA's nvtx_kern_sum report joins them, worked out
// by hand below — emit_nvtx ranges become ops with their FLOPs, two
// processes become two runs, and foreign or damaged SQLite is refused.
#include "TestSql.h"
#include "TestSupport.h"
#include "core/interop/TraceImport.h"
#include "core/session/SessionReader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace mvp;

namespace {
std::string pathIn(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromUtf8(name)).toStdString();
}

constexpr int64_t kPid = 4242, kOtherPid = 77;
constexpr int64_t tid(int64_t pid, int64_t t) {
    return (pid << 24) | t; // globalTid
}

// Thread 1 of process 4242 pushes "forward" [100, 1000] and inside it
// "layer1" [200, 500] and an emit_nvtx op range; thread 2 has "loader"
// [0, 5000] around all of it in time — but on another thread. Launches:
//   corr 1 at 250 (thread 1, inside layer1)   → kernel sgemm, outlasting the range
//   corr 2 at 700 (thread 1, forward only)    → kernel relu
//   corr 3 at 1100 (thread 1, in no range)    → kernel tail
//   corr 4 at 300 (thread 2, inside loader)   → kernel load
//   corr 5 at 400 (thread 1, inside layer1)   → a HtoD copy of 4096 bytes
// and process 77 launches one kernel of its own, with correlation id 1 too.
const char* kFixture = R"sql(
CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1,'sgemm'),(2,'cudaLaunchKernel_v7000'),(3,'forward'),
  (4,'relu'),(5,'tail'),(6,'load'),(7,'cudaMemcpyAsync_v3020'),(8,'other_kernel');
CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
  endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS(start,end,eventType,text,globalTid,endGlobalTid,textId) VALUES
  (100, 1000, 59, NULL, TID1, NULL, 3),
  (200, 500, 59, 'layer1', TID1, NULL, NULL),
  (210, 240, 59, 'aten::mm, seq = 4, op_id = 9, sizes = [[16, 32], [32, 8]]', TID1, NULL, NULL),
  (150, NULL, 34, 'a mark', TID1, NULL, NULL),
  (0, 5000, 60, 'loader', TID2, NULL, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL,
  eventClass INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER,
  returnValue INTEGER, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start,end,globalTid,correlationId,nameId) VALUES
  (250, 260, TID1, 1, 2), (700, 710, TID1, 2, 2), (1100, 1110, TID1, 3, 2),
  (300, 310, TID2, 4, 2), (400, 405, TID1, 5, 7), (50, 60, OTHER, 1, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,
  globalPid INTEGER, demangledName INTEGER, shortName INTEGER, gridX INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (270, 2000, 0, 1, 7, 1, PID, 1, 1, 64), (720, 800, 0, 1, 7, 2, PID, 4, 4, 8),
  (1120, 1200, 0, 1, 7, 3, PID, 5, 5, 1), (320, 400, 0, 1, 13, 4, PID, 6, 6, 1),
  (70, 90, 1, 1, 7, 1, OTHERPID, 8, 8, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,
  globalPid INTEGER, bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (410, 450, 0, 1, 7, 5, PID, 4096, 1, 0, 1);
CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, totalMemory INTEGER, smCount INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H200', 150754820096, 132);
CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000);
)sql";

std::string fixtureSql() {
    std::string s = kFixture;
    const std::pair<std::string, int64_t> values[] = {{"TID1", tid(kPid, 1)},
                                                      {"TID2", tid(kPid, 2)},
                                                      {"OTHERPID", kOtherPid << 24},
                                                      {"OTHER", tid(kOtherPid, 1)},
                                                      {"PID", kPid << 24}};
    for (const auto& [key, v] : values)
        for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at))
            s.replace(at, key.size(), std::to_string(v));
    return s;
}
} // namespace

class NsightImportTest : public QObject {
    Q_OBJECT
private slots:
    void kernelsLandInTheRangeAroundTheirLaunch();
    void foreignAndDamagedSqliteAreRefused();
};

void NsightImportTest::kernelsLandInTheRangeAroundTheirLaunch() {
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "report.sqlite"), out = pathIn(dir, "n.mvprof");
    test::execSql(QString::fromStdString(in), fixtureSql().c_str());
    if (QTest::currentTestFailed()) return;
    auto done = importTraces({in}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    QCOMPARE(done->size(), size_t(2)); // one run per process
    const ImportedTrace* main = nullptr;
    for (const auto& t : *done)
        if (t.file.find("pid 4242") != std::string::npos) main = &t;
    QVERIFY(main);
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto modules = (*reader)->modules(main->run);
    auto spans = (*reader)->spans(main->run);
    auto acts = (*reader)->activities(main->run);
    auto ops = (*reader)->ops(main->run);
    QVERIFY(modules && spans && acts && ops);
    std::map<int64_t, std::string> pathOfSpan;
    for (const auto& s : *spans)
        for (const auto& m : *modules)
            if (m.id == s.module) pathOfSpan[s.id] = m.path;
    std::map<std::string, std::string> rangeOf; // GPU work → its range's module path
    for (const auto& a : *acts)
        if (a.kind != ActivityKind::Runtime)
            rangeOf[a.name] = a.span ? pathOfSpan[*a.span] : std::string("(none)");
    const std::map<std::string, std::string> expected = {
        {"sgemm", "forward.layer1"},      // launched inside layer1; it ends after the range
        {"relu", "forward"},              // launched in forward only
        {"tail", "(none)"},               // launched outside every range
        {"load", "loader"},               // on thread 2, in thread 2's range
        {"Memcpy HtoD", "forward.layer1"} // through its runtime call
    };
    QVERIFY2(rangeOf == expected,
             [&] {
                 std::string s;
                 for (const auto& [k, v] : rangeOf)
                     s += k + "→" + v + " ";
                 return s;
             }()
                 .c_str());
    for (const auto& a : *acts)
        if (a.name == "Memcpy HtoD") QCOMPARE(a.bytes, int64_t(4096));
    // The emit_nvtx range is an op, its FLOPs from its sizes: 2·16·8·32.
    QCOMPARE(ops->size(), size_t(1));
    QCOMPARE(ops->front().name, std::string("aten::mm"));
    QCOMPARE(ops->front().flops, int64_t(2 * 16 * 8 * 32));
    QCOMPARE(pathOfSpan[ops->front().span.value()], std::string("forward.layer1"));
    // Exact ns on the run's clock (origin: the first event, loader at 0).
    for (const auto& a : *acts)
        if (a.name == "sgemm") QCOMPARE(a.endNs - a.startNs, int64_t(1730));
    auto runs = (*reader)->runs();
    QVERIFY(runs);
    for (const auto& r : *runs)
        if (r.id == main->run) {
            QCOMPARE(r.device, std::string("cuda"));
            QVERIFY(r.configJson.find("NVIDIA H200") != std::string::npos);
            QVERIFY(r.configJson.find("nsight-sqlite") != std::string::npos);
            QCOMPARE(r.startedUtc, std::string("2023-11-14T22:13:20Z"));
        }
    // The other process's kernel shares correlation id 1 but is its own run's.
    for (const auto& t : *done)
        if (&t != main) {
            auto other = (*reader)->activities(t.run);
            QVERIFY(other && other->size() == 2);
            for (const auto& a : *other)
                if (a.kind == ActivityKind::Kernel) QCOMPARE(a.name, std::string("other_kernel"));
        }
}

void NsightImportTest::foreignAndDamagedSqliteAreRefused() {
    QTemporaryDir dir;
    const std::string foreign = pathIn(dir, "songs.sqlite"), out = pathIn(dir, "x.mvprof");
    test::execSql(QString::fromStdString(foreign), "CREATE TABLE songs(title TEXT);");
    auto r = importTraces({foreign}, out);
    QVERIFY(!r);
    QVERIFY2(r.error().message.find("not an Nsight Systems export") != std::string::npos,
             r.error().message.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(out)));

    // An mvprof session handed to the importer: told to open it directly.
    const std::string session = pathIn(dir, "s.mvprof"), trace = pathIn(dir, "t.json");
    QVERIFY(test::writeFile(QString::fromStdString(trace),
                            R"({"traceEvents":[{"ph":"X","name":"aten::mm","ts":1,"dur":2}]})"));
    QVERIFY(importTraces({trace}, session));
    auto again = importTraces({session}, out);
    QVERIFY(!again && again.error().message.find("is an mvprof session") != std::string::npos);

    // Truncated: SQLite's header, then garbage.
    const std::string damaged = pathIn(dir, "damaged.sqlite");
    QFile whole(QString::fromStdString(pathIn(dir, "report.sqlite")));
    test::execSql(whole.fileName(), fixtureSql().c_str());
    QVERIFY(whole.open(QIODevice::ReadOnly));
    QByteArray bytes = whole.readAll();
    bytes.truncate(bytes.size() / 3);
    bytes.append(QByteArray(5000, '\x5a'));
    QVERIFY(test::writeFile(QString::fromStdString(damaged), bytes));
    auto bad = importTraces({damaged}, out);
    QVERIFY(!bad);
    QVERIFY2(!bad.error().message.empty(), "no reason given");
    QVERIFY(!QFile::exists(QString::fromStdString(out)));
    QVERIFY(!QFile::exists(QString::fromStdString(out + ".partial")));
}

QTEST_GUILESS_MAIN(NsightImportTest)
#include "test_nsight_import.moc"
