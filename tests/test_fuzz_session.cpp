// Fuzzing the reader and every analysis on a real captured session (ref:tiny
// through mvprof-cli), damaged at the content level — a seeded table of SQL
// mutations: odd values in every column the analyses read, NULLs, empty
// strings and blobs, swapped columns, dropped or emptied tables, unknown
// tables and columns — and at the byte level (seeded flips). Each case must
// end as a result or a typed, non-internal error: no exception, no crash.
#include "FuzzCases.h"
#include "TestSql.h"
#include "TestSupport.h"
#include "core/analysis/Analysis.h"
#include "core/report/Report.h"
#include "core/session/SessionReader.h"

#include <QElapsedTimer>
#include <algorithm>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace mvp;

namespace {
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
    // MVP_FUZZ_STRIDE=N runs every Nth case of the same seeded corpus: the
    // sanitizer pass (10× slower per case) samples it.
    const int stride = std::max(1, qEnvironmentVariableIntValue("MVP_FUZZ_STRIDE"));

    void check(const QString& path, const QString& what) {
        ++cases;
        const QString bad = exercise(path);
        if (!bad.isEmpty() && failures.size() < 20) failures << what + QStringLiteral(": ") + bad;
    }

private slots:
    void initTestCase() {
        base = dir.filePath(QStringLiteral("base.mvprof"));
        const auto cli = test::runCli({QStringLiteral("capture"), QStringLiteral("--model"),
                                       QStringLiteral("ref:tiny"), QStringLiteral("--steps"),
                                       QStringLiteral("2"), QStringLiteral("--image"),
                                       test::sampleImage(), QStringLiteral("--out"), base});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QFile f(base);
        QVERIFY(f.open(QIODevice::ReadOnly));
        baseBytes = f.readAll();
        QVERIFY(exercise(base).isEmpty());
    }

    void contentMutations() {
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
        int i = 0;
        for (const auto& sqlText : test::contentMutations(20261201))
            if (i++ % stride == 0) mutate(sqlText);
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
            if (i % stride) continue;
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
