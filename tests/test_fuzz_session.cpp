// Fuzzing the reader and every analysis on a real captured session (ref:tiny
// through mvprof-cli), damaged at the content level — a seeded table of SQL
// mutations: odd values in every column the analyses read, NULLs, empty
// strings and blobs, swapped columns, dropped or emptied tables, unknown
// tables and columns — and at the byte level (seeded flips). Each case must
// end as a result or a typed, non-internal error: no exception, no crash.
#include "TestSql.h"
#include "TestSupport.h"
#include "core/analysis/Analysis.h"
#include "core/report/Report.h"
#include "core/session/SessionReader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace mvp;

namespace {
// Columns the analyses read, with a column to pick rows by (all rows when it is empty).
struct Target {
    const char* table;
    const char* column;
    const char* key;
};
const Target kTargets[] = {
    {"run", "steps", ""},
    {"run", "threads", ""},
    {"run", "wall_ns", ""},
    {"run", "config_json", ""},
    {"run", "status", ""},
    {"run", "baseline_run", ""},
    {"module", "id", "id"},
    {"module", "parent", "id"},
    {"module", "params", "id"},
    {"module", "role", "id"},
    {"module", "layer", "id"},
    {"module", "expert", "id"},
    {"module", "path", "id"},
    {"phase", "start_ns", "step"},
    {"phase", "end_ns", "step"},
    {"phase", "phase", "step"},
    {"span", "module", "id"},
    {"span", "parent", "id"},
    {"span", "start_ns", "id"},
    {"span", "end_ns", "id"},
    {"span", "flops", "id"},
    {"span", "phase", "id"},
    {"op_chunk", "rows", "first_id"},
    {"op_chunk", "data", "first_id"},
    {"op_chunk", "encoding", ""},
    {"interned", "text", "id"},
    {"token", "position", "position"},
    {"token", "patch", "position"},
    {"token", "modality", "position"},
    {"step_output", "logits", "step"},
    {"step_output", "token", "step"},
    {"step_output", "step", "step"},
    {"vision_feature", "rows", ""},
    {"vision_feature", "data", ""},
    {"routing", "layer", "token"},
    {"routing", "token", "token"},
    {"routing", "expert", "token"},
    {"routing", "rank", "token"},
    {"routing", "weight", "token"},
    {"routing", "modality", "token"},
    {"image", "png", ""},
    {"image", "width", ""},
    {"patch_grid", "grid_h", ""},
    {"patch_grid", "grid_w", ""},
    {"patch_grid", "first_position", ""},
    {"patch_metric", "patch", "patch"},
    {"patch_metric", "layer", "patch"},
    {"patch_metric", "value", "patch"},
    {"device", "peak_flops", ""},
    {"device", "peak_bytes_per_s", ""},
    {"op_total", "calls", ""},
    {"op_total", "ns", ""},
    {"op_total", "known_ns", ""},
    {"leaf_flops", "flops", ""},
    {"run_metric", "value", ""},
    {"run_metric", "kind", ""},
    {"meta", "value", ""},
};
const char* const kValues[] = {
    "-1",     "-5",   "0",  "1",   "2147483647", "-9223372036854775808", "1e308",
    "-1e308", "NULL", "''", "'x'", "X'00'",      "zeroblob(64)",         "'{\"llm\": 3}'"};
const char* const kStructural[] = {
    "DROP TABLE routing",
    "DROP TABLE op_chunk",
    "DROP TABLE interned",
    "DROP TABLE patch_grid",
    "DROP TABLE span",
    "DROP TABLE run_metric",
    "DELETE FROM phase",
    "DELETE FROM module",
    "DELETE FROM token",
    "DELETE FROM interned",
    "DELETE FROM op_total",
    "DELETE FROM run",
    "UPDATE span SET start_ns = end_ns, end_ns = start_ns",
    "UPDATE routing SET layer = token, token = layer",
    "UPDATE phase SET start_ns = end_ns, end_ns = start_ns",
    "ALTER TABLE span ADD COLUMN extra TEXT",
    "CREATE TABLE unknown_table(x)",
    "UPDATE module SET parent = id",
    "UPDATE module SET parent = id + 1",
    "INSERT INTO run SELECT id + 100, label, model, config_json, prompt, image_path, steps, device,"
    " dtype, blas, threads, probes, transform, id, writer_pid, writer_host, started_utc, status,"
    " error, wall_ns, peak_rss_bytes, output_text FROM run",
    "UPDATE run SET baseline_run = id",
    "UPDATE run SET status = 'live'",
};

// Reads everything a user can ask for; a typed non-internal error is fine.
QString exercise(const QString& path) {
    try {
        auto r = SessionReader::open(path.toStdString());
        if (!r)
            return r.error().code == ErrorCode::Internal ? QString::fromStdString(r.error().message)
                                                         : QString();
        auto runs = (*r)->runs();
        if (!runs)
            return runs.error().code == ErrorCode::Internal
                       ? QString::fromStdString(runs.error().message)
                       : QString();
        for (const auto& run : *runs) {
            auto data = loadRunData(**r, run.id);
            if (!data) {
                if (data.error().code == ErrorCode::Internal)
                    return QString::fromStdString(data.error().message);
                continue;
            }
            (void)analyseRun(*data);
            (void)(*r)->ops(run.id);
        }
        auto report = buildReport(**r);
        if (report) {
            (void)formatText(*report);
            (void)formatJson(*report);
        } else if (report.error().code == ErrorCode::Internal) {
            return QString::fromStdString(report.error().message);
        }
        return {};
    } catch (const std::exception& e) {
        return QStringLiteral("exception: ") + QString::fromLocal8Bit(e.what());
    }
}
} // namespace

class TestFuzzSession : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString base;
    QByteArray baseBytes;
    QStringList failures;
    int cases = 0;

    void check(const QString& path, const QString& what) {
        ++cases;
        const QString bad = exercise(path);
        if (!bad.isEmpty() && failures.size() < 20) failures << what + QStringLiteral(": ") + bad;
    }

private slots:
    void initTestCase() {
        base = dir.filePath(QStringLiteral("base.mvprof"));
        QProcess cli;
        cli.start(test::cliPath(),
                  {QStringLiteral("capture"), QStringLiteral("--model"), QStringLiteral("ref:tiny"),
                   QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--image"),
                   test::sampleImage(), QStringLiteral("--out"), base});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QFile f(base);
        QVERIFY(f.open(QIODevice::ReadOnly));
        baseBytes = f.readAll();
        QVERIFY(exercise(base).isEmpty());
    }

    void contentMutations() {
        QRandomGenerator rng(20261201);
        QElapsedTimer clock;
        clock.start();
        const QString path = dir.filePath(QStringLiteral("content.mvprof"));
        auto mutate = [&](const std::string& sqlText) {
            QFile::remove(path);
            QVERIFY(QFile::copy(base, path));
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
            // Constraint failures leave the file as it was: still a case.
            (void)sqlite3_exec(db, sqlText.c_str(), nullptr, nullptr, nullptr);
            sqlite3_close(db);
            check(path, QString::fromStdString(sqlText));
        };
        // Twice over, each time other rows picked: two cases per column and value.
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& t : kTargets)
                for (const char* v : kValues) {
                    std::string where;
                    if (*t.key) {
                        const int k = 2 + int(rng.bounded(5)), r = int(rng.bounded(k));
                        where = std::string(" WHERE abs(") + t.key + ") % " + std::to_string(k) +
                                " = " + std::to_string(r);
                    }
                    mutate(std::string("UPDATE ") + t.table + " SET " + t.column + " = " + v +
                           where);
                }
        for (const char* s : kStructural)
            mutate(s);
        qInfo("content: %d cases in %lld ms", cases, static_cast<long long>(clock.elapsed()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n"))));
    }

    void byteMutations() {
        QRandomGenerator rng(7);
        QElapsedTimer clock;
        clock.start();
        const int before = cases;
        const QString path = dir.filePath(QStringLiteral("bytes.mvprof"));
        for (int i = 0; i < 600; ++i) {
            QByteArray bytes = baseBytes;
            const int flips = 1 + int(rng.bounded(8));
            for (int f = 0; f < flips; ++f)
                bytes[int(rng.bounded(bytes.size()))] = char(rng.bounded(256));
            if (i % 10 == 0) bytes.truncate(int(rng.bounded(bytes.size())));
            QVERIFY(test::writeFile(path, bytes));
            check(path, QStringLiteral("byte mutation %1").arg(i));
        }
        qInfo("bytes: %d cases in %lld ms", cases - before,
              static_cast<long long>(clock.elapsed()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n"))));
    }
};

QTEST_GUILESS_MAIN(TestFuzzSession)
#include "test_fuzz_session.moc"
