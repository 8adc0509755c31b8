// The GUI's captures, under QT_QPA_PLATFORM=offscreen: New Capture's device,
// precision and timing choices (a stand-in CLI lists a GPU), a capture run
// from the main window to completion, a cancelled one kept as incomplete, and
// Attach… following a running CLI capture. Fails on any Qt warning except the
// offscreen platform's own size-hint notice.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/AttachDialog.h"
#include "app/gui/CaptureDialog.h"
#include "app/gui/MainWindow.h"
#include "core/session/LiveRuns.h"
#include "core/session/SessionReader.h"
#include "views/LiveRunsModel.h"
#include "views/SessionData.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace mvp;

class TestGuiCapture : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void initTestCase() { test::isolateSettings(); }
    void init() { test::failOnWarnings(); }

    // New Capture lists the devices `mvprof-cli devices` names: here a
    // stand-in CLI answers with a GPU, which brings float16 and the device-
    // timing choice, and both reach the capture's arguments.
    void newCaptureOffersTheGpusTheCliLists() {
        const QString fake = dir.filePath(QStringLiteral("fake-cli.sh"));
        QVERIFY(test::writeFile(
            fake, "#!/bin/sh\n"
                  "[ \"$1\" = devices ] || exit 2\n"
                  "echo '{\"devices\":[{\"id\":\"cpu\",\"name\":\"x\",\"memory_bytes\":1,"
                  "\"dtypes\":[\"float32\",\"bfloat16\"]},{\"id\":\"cuda:0\",\"name\":"
                  "\"NVIDIA H200\",\"memory_bytes\":150323855360,\"dtypes\":[\"bfloat16\","
                  "\"float16\",\"float32\"]}]}'\n"));
        QFile(fake).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("MVPROF_CLI", fake.toUtf8());
        CaptureRequest wanted;
        wanted.device = QStringLiteral("cuda:0");
        wanted.dtype = QStringLiteral("float16");
        wanted.deviceTiming = QStringLiteral("exact");
        wanted.hwCounters = true;
        CaptureDialog dialog;
        dialog.setRequest(wanted);
        auto* device = dialog.findChild<QComboBox*>(QStringLiteral("device"));
        auto* dtype = dialog.findChild<QComboBox*>(QStringLiteral("dtype"));
        auto* timing = dialog.findChild<QComboBox*>(QStringLiteral("deviceTiming"));
        QVERIFY(device && dtype && timing);
        QCOMPARE(dialog.request().device, QStringLiteral("cpu")); // until the CLI answers
        QVERIFY(!timing->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(device->count(), 2, 10000);
        QVERIFY(device->itemText(1).contains(QStringLiteral("NVIDIA H200 (140 GiB)")));
        QVERIFY(timing->isEnabled());
        const QStringList args = dialog.request().arguments();
        const auto after = [&](const char* option) {
            const qsizetype i = args.indexOf(QLatin1String(option));
            return i >= 0 && i + 1 < args.size() ? args[i + 1] : QString();
        };
        QCOMPARE(after("--device"), QStringLiteral("cuda:0"));
        QCOMPARE(after("--dtype"), QStringLiteral("float16"));
        QCOMPARE(after("--device-timing"), QStringLiteral("exact"));
        QVERIFY(args.contains(QStringLiteral("--hw-counters")));
        // A user model runs on the GPU too, timed so, its counters read by
        // a replay of its own.
        auto* model = dialog.findChild<QComboBox*>(QStringLiteral("model"));
        QVERIFY(model);
        model->setCurrentIndex(model->findData(QStringLiteral("file")));
        auto* counters = dialog.findChild<QCheckBox*>(QStringLiteral("hwCounters"));
        QVERIFY(counters && counters->isEnabled() && counters->isChecked());
        QVERIFY(timing->isEnabled());
        const QStringList user = dialog.request().arguments();
        QCOMPARE(user.at(user.indexOf(QStringLiteral("--device")) + 1), QStringLiteral("cuda:0"));
        QVERIFY(user.contains(QStringLiteral("--hw-counters")));
        model->setCurrentIndex(0);
        QVERIFY(counters->isEnabled());
        // Back on the CPU, float16 is not offered, the timing has no say and
        // there are no counters to read.
        device->setCurrentIndex(0);
        QCOMPARE(dialog.request().dtype, QStringLiteral("float32"));
        QVERIFY(!timing->isEnabled());
        QVERIFY(!dialog.request().arguments().contains(QStringLiteral("--device-timing")));
        QVERIFY(!dialog.request().arguments().contains(QStringLiteral("--hw-counters")));
        QVERIFY(!counters->isEnabled() && !counters->isChecked());
    }

    // The real CLI on a machine without CUDA: the CPU only, and why.
    void newCaptureSaysWhyThereIsNoGpu() {
        qputenv("MVPROF_CLI", test::cliPath().toUtf8());
        CaptureDialog dialog;
        auto* device = dialog.findChild<QComboBox*>(QStringLiteral("device"));
        QTRY_VERIFY_WITH_TIMEOUT(!device->toolTip().startsWith(QStringLiteral("Looking")), 20000);
        if (device->count() > 1) QSKIP("this machine has a CUDA device");
        QVERIFY2(device->toolTip().startsWith(QStringLiteral("No CUDA device: ")),
                 qPrintable(device->toolTip()));
    }

    void captureFromTheGuiRunsToCompletion() {
        MainWindow w;
        w.show();
        const CaptureRequest r =
            fromDialog(QStringLiteral("from-gui.mvprof"), QStringLiteral("What is this?"), 3,
                       QStringLiteral("bfloat16"));
        QCOMPARE(r.steps, 3);
        QCOMPARE(r.model, QStringLiteral("ref:tiny"));
        QCOMPARE(r.dtype, QStringLiteral("bfloat16"));
        QSignalSpy finished(&w, &MainWindow::captureFinished);
        QSignalSpy progress(&w, &MainWindow::captureProgress);
        w.startCapture(r);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toBool(), true);
        int best = 0;
        for (const auto& p : progress)
            best = std::max(best, p.first().toInt());
        QCOMPARE(best, 100);
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        if (!w.session() || w.session()->path != r.output) QVERIFY(loaded.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.session() && w.session()->analysis.run.status == RunStatus::Complete, 20000);
        QCOMPARE(w.session()->analysis.run.dtype,
                 std::string("bfloat16")); // the dialog's precision reached the capture
    }

    void cancelledCaptureKeepsAnIncompleteRun() {
        MainWindow w;
        w.show();
        const CaptureRequest r =
            fromDialog(QStringLiteral("cancelled.mvprof"), QStringLiteral("Cancel me."), 220);
        connect(test::captureRunner(w), &CaptureRunner::progress, this,
                [&](double, const QString& phase, int step, int) {
                    if (phase == QLatin1String("decode") && step >= 5)
                        test::captureRunner(w)->cancel();
                });
        QSignalSpy finished(&w, &MainWindow::captureFinished);
        w.startCapture(r);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toBool(), false); // not ok
        QCOMPARE(finished.first().at(1).toBool(), true);  // cancelled
        auto reader = SessionReader::open(r.output.toStdString());
        QVERIFY(reader.ok());
        auto run = (*reader)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Incomplete);
        QVERIFY(run->steps == 220);
    }

    void attachFollowsARunningCapture() {
        qputenv("XDG_RUNTIME_DIR", dir.path().toUtf8()); // the child inherits it
        const QString out = dir.filePath(QStringLiteral("attached.mvprof"));
        QProcess child;
        child.start(test::cliPath(),
                    {QStringLiteral("capture"), QStringLiteral("--image"), test::sampleImage(),
                     QStringLiteral("--out"), out, QStringLiteral("--steps"), QStringLiteral("220"),
                     QStringLiteral("--progress"), QStringLiteral("jsonl")});
        QVERIFY(child.waitForStarted());
        // Wait until the capture has announced itself and reached its decode steps.
        bool decoding = false;
        while (!decoding && child.waitForReadyRead(30000))
            decoding = child.readAll().contains("\"decode\"");
        QVERIFY(decoding);
        AttachDialog dialog;
        dialog.model()->refresh();
        int row = -1;
        for (int r = 0; r < dialog.model()->rowCount(); ++r)
            if (dialog.model()->index(r, views::LiveRunsModel::Pid).data().toLongLong() ==
                child.processId())
                row = r;
        QVERIFY(row >= 0);
        dialog.table()->selectRow(row);
        dialog.accept();
        QCOMPARE(dialog.chosenSession(), out);

        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        w.openSession(dialog.chosenSession(), dialog.chosenRun());
        QVERIFY(loaded.wait(20000));
        // Opened while the child still writes, then followed until it completes.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.session() && w.session()->analysis.run.status == RunStatus::Complete, 60000);
        if (child.state() != QProcess::NotRunning) QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitCode(), 0);
        QVERIFY(listLiveRuns().empty()); // the announcement went with the run
        qunsetenv("XDG_RUNTIME_DIR");
    }

private:
    // A capture request as the New Capture dialog hands it over.
    CaptureRequest fromDialog(const QString& output, const QString& prompt, int steps,
                              const QString& dtype = QStringLiteral("float32")) {
        qputenv("MVPROF_CLI", test::cliPath().toUtf8());
        CaptureRequest r;
        r.dtype = dtype;
        r.image = test::sampleImage();
        r.prompt = prompt;
        r.steps = steps;
        r.output = dir.filePath(output);
        CaptureDialog dialog;
        dialog.setRequest(r);
        return dialog.request();
    }
};

QTEST_MAIN(TestGuiCapture)
#include "test_gui_capture.moc"
