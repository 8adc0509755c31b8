// The window on a sample of the session fuzz corpus (FuzzCases.h): every
// mutated session opens or fails with a reason, every view painted, no Qt
// warning, no abort.
#include "FuzzCases.h"
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/MainWindow.h"

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>

using namespace mvp;

class TestGuiFuzz : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void initTestCase() { test::isolateSettings(); }
    void init() { test::failOnWarnings(); }

    // A sample of the fuzz corpus (FuzzCases.h) on a real capture: each
    // opens or fails with a reason, every view painted, no Qt warning, no abort.
    void fuzzSampleOpensOrFailsWithAReason() {
        const QString base = dir.filePath(QStringLiteral("fuzz-base.mvprof"));
        const auto cli = test::runCli({QStringLiteral("capture"), QStringLiteral("--model"),
                                       QStringLiteral("ref:tiny"), QStringLiteral("--steps"),
                                       QStringLiteral("1"), QStringLiteral("--image"),
                                       test::sampleImage(), QStringLiteral("--out"), base});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const auto cases = test::contentMutations(20261201, 1);
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        int opened = 0, refused = 0;
        for (size_t i = 0; i < cases.size(); i += 11) {
            const QString path = dir.filePath(QStringLiteral("fuzz-%1.mvprof").arg(i));
            QVERIFY(QFile::copy(base, path));
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
            (void)sqlite3_exec(db, cases[i].c_str(), nullptr, nullptr, nullptr);
            sqlite3_close(db);
            QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
            QSignalSpy failed(&w, &MainWindow::loadFailed);
            w.openSession(path);
            QVERIFY2(QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 20000),
                     cases[i].c_str());
            (loaded.isEmpty() ? refused : opened) += 1;
            w.grab();
            QApplication::processEvents();
            QVERIFY(w.isVisible());
        }
        qInfo("fuzz sample: %d opened, %d refused with a reason", opened, refused);
        QVERIFY(opened > 0 && refused > 0);
    }
};

QTEST_MAIN(TestGuiFuzz)
#include "test_gui_fuzz.moc"
