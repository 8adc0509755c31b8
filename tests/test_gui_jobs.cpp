// GUI workflows that run mvprof-cli jobs beyond a plain capture: a user's
// TorchScript model and a Python script (mvprof-cli launch) from the New
// Capture dialog, and one-click what-ifs with
// their comparison, module diff and side-by-side heatmaps. Offscreen; fails
// on any Qt warning except the offscreen platform's size-hint notice.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/CaptureDialog.h"
#include "app/gui/MainWindow.h"
#include "app/gui/WhatIf.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"
#include "views/AbTimingsView.h"
#include "views/ComparisonModels.h"
#include "views/ComparisonView.h"
#include "views/ExpertLoadView.h"
#include "views/HeatmapView.h"
#include "views/LatestJob.h"
#include "views/SessionData.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QMenu>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QToolBar>
#include <QToolButton>
#include <algorithm>
#include <qcustomplot.h>

using namespace mvp;

static QDockWidget* dock(QMainWindow& w, QWidget* content) {
    for (auto* d : w.findChildren<QDockWidget*>())
        if (d->widget() == content) return d;
    return nullptr;
}

class TestGuiJobs : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;

private slots:
    void initTestCase() {
        test::isolateSettings();
        qputenv("MVPROF_CLI", test::cliPath().toUtf8());
        session = dir.filePath(QStringLiteral("jobs.mvprof"));
        const auto r = test::runCli({QStringLiteral("capture"), QStringLiteral("--image"),
                                     test::sampleImage(), QStringLiteral("--out"), session,
                                     QStringLiteral("--steps"), QStringLiteral("3"),
                                     QStringLiteral("--routing-skew"), QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    // The job helper: the newest start wins, an older result is dropped even
    // when it ends later, a cancelled one never arrives, and the work sees it
    // has gone stale.
    // A live run is followed: re-read when rows arrive, not every second
    // regardless, and once it ends the follow stops.
    void followReloadsOnlyWhenRowsArrive() {
        const QString path = dir.filePath(QStringLiteral("follow.mvprof"));
        auto writer = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Overwrite);
        QVERIFY(writer.ok());
        RunInfo info;
        info.label = "baseline";
        info.writerPid = QCoreApplication::applicationPid(); // alive: the run reads as live
        info.writerHost = mvp::hostName();
        auto run = (*writer)->beginRun(info);
        QVERIFY(run.ok());
        auto phase = [&](Phase name, int step, int64_t start) {
            Batch b;
            b.run = *run;
            b.phases = {{name, step, start, start + 1000}};
            (*writer)->submit(std::move(b));
            QVERIFY((*writer)->flush().ok());
        };
        phase(Phase::Prefill, 0, 0);
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        w.openSession(path);
        QVERIFY(loaded.wait(20000));
        // (Not QCOMPARE: QTest would free the static text toString(RunStatus) returns.)
        QVERIFY(w.session()->analysis.run.status == RunStatus::Live);
        QTest::qWait(1500); // the first tick reads once (it has no stamp yet)
        const auto settled = loaded.count();
        QTest::qWait(2500); // nothing written: nothing re-read
        QCOMPARE(loaded.count(), settled);
        phase(Phase::Decode, 1, 1000);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), settled + 1, 5000);
        QCOMPARE(w.session()->data.phases.size(), size_t(2));
        QVERIFY((*writer)->endRun(*run, RunResult{}).ok());
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->analysis.run.status == RunStatus::Complete, 5000);
        const auto ended = loaded.count();
        QTest::qWait(1500);
        QCOMPARE(loaded.count(), ended);
        QVERIFY((*writer)->close().ok());
    }

    void newestJobWins() {
        QObject context;
        std::vector<int> delivered;
        auto job = std::make_unique<views::LatestJob<int>>(&context,
                                                           [&](int v) { delivered.push_back(v); });
        std::atomic<bool> sawStale = false;
        job->start([&](const auto& stale) {
            QThread::msleep(300);
            sawStale = stale();
            return 1;
        });
        job->start([](const auto&) { return 2; });
        QVERIFY(job->busy());
        QTRY_VERIFY(!job->busy());
        QTest::qWait(400); // the first job ends now: its result must go nowhere
        QCOMPARE(delivered, std::vector<int>{2});
        QVERIFY(sawStale);
        job->start([](const auto&) {
            QThread::msleep(100);
            return 3;
        });
        job->cancel();
        QVERIFY(!job->busy());
        job.reset(); // waits for the cancelled job; nothing is delivered
        QCoreApplication::processEvents();
        QCOMPARE(delivered, std::vector<int>{2});
    }
    void init() { test::failOnWarnings(); }

    void userModelCaptureFromTheDialog() {
        const QString folder = dir.filePath(QStringLiteral("gui-user-model"));
        QCOMPARE(test::runCli({QStringLiteral("example-model"), folder}).exitCode, 0);
        qputenv("MVPROF_CLI", test::cliPath().toUtf8());
        CaptureRequest wanted;
        wanted.modelFile = folder + QStringLiteral("/example-vlm.json");
        wanted.image = test::sampleImage();
        wanted.prompt = QStringLiteral("Who is this?");
        wanted.steps = 2;
        wanted.output = dir.filePath(QStringLiteral("user-model.mvprof"));
        CaptureDialog dialog;
        dialog.setRequest(wanted);
        const CaptureRequest r = dialog.request();
        QCOMPARE(r.modelFile, wanted.modelFile);
        QVERIFY(r.arguments().contains(QStringLiteral("--model-file")));
        QVERIFY(!r.arguments().contains(QStringLiteral("--model")));
        MainWindow w;
        w.show();
        QSignalSpy finished(&w, &MainWindow::captureFinished);
        w.startCapture(r);
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(2).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(w.session() && w.session()->path == r.output &&
                                     w.session()->analysis.run.status == RunStatus::Complete,
                                 20000);
        QVERIFY(w.session()->analysis.run.model.rfind("file:", 0) == 0);
        bool found = false;
        for (const auto& m : w.session()->data.modules)
            found = found || m.path == "llm.layer1.moe.expert0";
        QVERIFY2(found, "the module tree should hold the TorchScript hierarchy");
    }

    void pythonScriptCaptureFromTheDialog() {
        // The runnable example, launched as the dialog's "Python script": its
        // session opens with the expert load of its MoE layers.
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral("import torch, torchvision")});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0)
            QSKIP("Debian's python3-torch and python3-torchvision are not installed");
        CaptureRequest wanted;
        wanted.script = test::sourceDir() + QStringLiteral("/capture/python/examples/llava_moe.py");
        wanted.scriptArguments = QStringLiteral("--steps 2 --prompt \"What is it?\"");
        wanted.output = dir.filePath(QStringLiteral("python-script.mvprof"));
        CaptureDialog dialog;
        dialog.setRequest(wanted);
        const CaptureRequest r = dialog.request();
        QCOMPARE(r.script, wanted.script);
        const QStringList a = r.arguments();
        QCOMPARE(a.first(), QStringLiteral("launch"));
        QCOMPARE(a.mid(a.indexOf(QStringLiteral("--")) + 1),
                 (QStringList{QStringLiteral("/usr/bin/python3"), wanted.script,
                              QStringLiteral("--steps"), QStringLiteral("2"),
                              QStringLiteral("--prompt"), QStringLiteral("What is it?")}));
        MainWindow w;
        w.show();
        QSignalSpy progress(&w, &MainWindow::captureProgress);
        QSignalSpy finished(&w, &MainWindow::captureFinished);
        w.startCapture(r);
        QVERIFY(finished.wait(180000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(2).toString()));
        QVERIFY(progress.count() >= 6); // one per phase the script began, and done
        QTRY_VERIFY_WITH_TIMEOUT(w.session() && w.session()->path == r.output &&
                                     w.session()->analysis.run.status == RunStatus::Complete,
                                 20000);
        QVERIFY(w.session()->analysis.run.model.rfind("python:", 0) == 0);
        auto* experts = test::expertLoadView(w);
        QCOMPARE(experts->layerBox()->count(), 4); // the example's MoE layers
        int64_t slotCount = 0;
        for (const auto& row : w.session()->data.routing)
            slotCount += row.layer == experts->layerBox()->currentData().toInt();
        QVERIFY(slotCount > 0);
        QCOMPARE(experts->shown().total.tokens, slotCount);
        QVERIFY(experts->barsPlot()->plottableCount() >= 2);
    }

    // "Any CUDA program": launched with --cuda-inject, each traced process's
    // session gathered into the chosen file, which opens. The program here
    // is a shell script that leaves a session where $MVPROF_INJECT_SESSION
    // says, as the injection library would in a CUDA process.
    void cudaProgramFromTheDialog() {
        const QString prepared = dir.filePath(QStringLiteral("prepared-cuda.mvprof"));
        {
            auto w = SessionWriter::open(prepared.toStdString(), SessionWriter::Mode::Overwrite);
            QVERIFY(w);
            RunInfo info;
            info.label = "cuda-inject";
            info.model = "process:app";
            info.device = "cuda";
            auto run = (*w)->beginRun(info);
            QVERIFY(run);
            Batch b;
            b.run = *run;
            DeviceActivityRow k;
            k.id = 1;
            k.name = "gemm";
            k.device = 0;
            k.stream = 7;
            k.endNs = 30000;
            b.activities.push_back(k);
            (*w)->submit(std::move(b));
            RunResult result;
            result.wallNs = 30000;
            QVERIFY((*w)->endRun(*run, result));
            QVERIFY((*w)->close());
        }
        const QString program = dir.filePath(QStringLiteral("app.sh"));
        QVERIFY(test::writeFile(program, "#!/bin/sh\n"
                                         "cp \"$1\" \"$(echo \"$MVPROF_INJECT_SESSION\" | "
                                         "sed \"s/%p/$$/\")\"\n"));
        QFile::setPermissions(program, QFile::permissions(program) | QFileDevice::ExeOwner);
        qputenv("MVPROF_CLI", test::cliPath().toUtf8());
        CaptureRequest wanted;
        wanted.program = program;
        wanted.scriptArguments = prepared;
        wanted.output = dir.filePath(QStringLiteral("cuda-program.mvprof"));
        CaptureDialog dialog;
        dialog.setRequest(wanted);
        const CaptureRequest r = dialog.request();
        QCOMPARE(r.program, program);
        const QStringList a = r.arguments();
        QVERIFY(a.contains(QStringLiteral("--cuda-inject")));
        QCOMPARE(a.mid(a.indexOf(QStringLiteral("--")) + 1), (QStringList{program, prepared}));
        MainWindow w;
        w.show();
        QSignalSpy finished(&w, &MainWindow::captureFinished);
        w.startCapture(r);
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(2).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(w.session() && w.session()->path == r.output, 20000);
        QCOMPARE(w.session()->analysis.run.model, std::string("process:app"));
        QCOMPARE(w.session()->analysis.run.device, std::string("cuda"));
        QVERIFY(w.session()->data.hasDeviceActivity);
    }

    // The dialog is built from the method catalogue: a choice per family of
    // methods, a check box for every other method, each with its value box.
    void customWhatIfDialogBuildsTheCommand() {
        WhatIfDialog dialog;
        auto find = [&](const char* name) {
            return dialog.findChild<QWidget*>(QString::fromLatin1(name));
        };
        auto choose = [&](const char* family, const char* key) {
            auto* box = qobject_cast<QComboBox*>(find(family));
            QVERIFY2(box, family);
            const int i = box->findData(QString::fromLatin1(key));
            QVERIFY2(i > 0, key);
            box->setCurrentIndex(i);
        };
        auto value = [&](const char* name) { return qobject_cast<QDoubleSpinBox*>(find(name)); };
        const auto checks = dialog.findChildren<QCheckBox*>();
        QCOMPARE(checks.size(), 6); // prune, channels, kv, freeze, skip experts, keep experts
        QCOMPARE(dialog.findChildren<QComboBox*>().size(), 5); // saliency + four families
        qobject_cast<QCheckBox*>(find("prune"))->setChecked(true);
        QCOMPARE(value("pruneValue")->value(), 0.4);
        qobject_cast<QComboBox*>(find("saliency"))->setCurrentIndex(2); // feature-norm
        choose("quant", "w4");
        QVERIFY(!value("decoderDropValue")->isEnabled()); // nothing dropped yet
        choose("decoderDrop", "pdrop");
        QVERIFY(value("decoderDropValue")->isEnabled());
        QCOMPARE(value("decoderDropValue")->value(), 0.5); // λ 0.5
        choose("kvMethod", "h2o");
        QCOMPARE(value("kvMethodValue")->value(), 0.4); // the fraction each KV head keeps
        QVERIFY(!value("encoderValue")->isEnabled());
        choose("encoder", "tome"); // the box now counts tokens merged per block
        QVERIFY(value("encoderValue")->isEnabled());
        QCOMPARE(value("encoderValue")->value(), 8.0);
        value("encoderValue")->setValue(12);
        qobject_cast<QCheckBox*>(find("keep-experts"))->setChecked(true); // 6 per layer
        auto* reps = dialog.findChild<QSpinBox*>(QStringLiteral("reps"));
        QVERIFY(reps);
        QCOMPARE(reps->value(), 5);
        reps->setValue(9);
        WhatIfJob job = dialog.job();
        job.session = QStringLiteral("s.mvprof");
        job.baseline = 1;
        const QStringList a = job.arguments();
        QCOMPARE(a.mid(0, 2), (QStringList{QStringLiteral("whatif"), QStringLiteral("s.mvprof")}));
        for (const char* expected :
             {"--prune-visual", "--saliency", "feature-norm", "--quant", "w4", "--run"})
            QVERIFY2(a.contains(QString::fromLatin1(expected)), expected);
        QVERIFY(!a.contains(QStringLiteral("--kv")) &&
                !a.contains(QStringLiteral("--freeze-cold")) &&
                !a.contains(QStringLiteral("--fastv")));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--pdrop")) + 1), QStringLiteral("0.5"));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--keep-experts")) + 1), QStringLiteral("6"));
        QVERIFY(!a.contains(QStringLiteral("--skip-experts")) &&
                !a.contains(QStringLiteral("--visionzip")) &&
                !a.contains(QStringLiteral("--dart")));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--tome")) + 1), QStringLiteral("12"));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--reps")) + 1), QStringLiteral("9"));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--kv-method")) + 1), QStringLiteral("h2o"));
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--kv-budget")) + 1), QStringLiteral("0.4"));
        QCOMPARE(job.label(), QStringLiteral("prune 0.4 + PyramidDrop λ 0.5 + ToMe r 12 + W4 + "
                                             "H2O KV 0.4 + keep 6 experts"));
        // DART and the downsample baseline, each with its own count.
        choose("decoderDrop", "dart");
        QCOMPARE(value("decoderDropValue")->value(), 128.0);
        choose("encoder", "downsample");
        QCOMPARE(value("encoderValue")->value(), 64.0);
        const QStringList d = dialog.job().arguments();
        QCOMPARE(d.at(d.indexOf(QStringLiteral("--dart")) + 1), QStringLiteral("128"));
        QCOMPARE(d.at(d.indexOf(QStringLiteral("--downsample")) + 1), QStringLiteral("64"));
        QVERIFY(!d.contains(QStringLiteral("--pdrop")) && !d.contains(QStringLiteral("--tome")));
        // KIVI from the menu: no budget (it keeps every position).
        WhatIfJob kivi;
        kivi.session = QStringLiteral("s.mvprof");
        kivi.request.methods[Method::Kivi] = 1;
        const QStringList k = kivi.arguments();
        QCOMPARE(k.at(k.indexOf(QStringLiteral("--kv-method")) + 1), QStringLiteral("kivi"));
        QVERIFY(!k.contains(QStringLiteral("--kv-budget")));
        // FastV from the menu: R 0.5 and mvprof-cli's K (the paper's 2).
        QAction* fastvAction = nullptr;
        QMenu menu;
        QToolBar bar;
        WhatIfActions actions(&menu, &bar, nullptr);
        fastvAction = actions.action(QStringLiteral("fastv"));
        QVERIFY(fastvAction);
        QSignalSpy asked(&actions, &WhatIfActions::requested);
        actions.setEnabled(true);
        fastvAction->trigger();
        QCOMPARE(asked.count(), 1);
        const QStringList f = asked.first().at(0).value<WhatIfJob>().arguments();
        QCOMPARE(f.at(f.indexOf(QStringLiteral("--fastv")) + 1), QStringLiteral("0.5"));
        QVERIFY(!f.contains(QStringLiteral("--fastv-layer")) &&
                !f.contains(QStringLiteral("--pdrop")));
        // Every one-click method of the catalogue is in the menu, and nothing else.
        for (const MethodSpec& m : whatIfMethods())
            QCOMPARE(actions.action(QString::fromLatin1(m.key)) != nullptr, m.oneClick);
    }

    // A what-if on a GPU: each setup's GPU memory (derived), labelled so; where
    // a run could not read its allocator, "n/a" with the reason.
    void setupTableShowsGpuMemory() {
        Comparison c;
        c.baseWallNs = 20'000'000;
        c.runWallNs = 10'000'000;
        c.basePeakGpuBytes = 1300.0 * (1 << 20);
        c.runPeakGpuBytes = 400.0 * (1 << 20);
        views::ComparisonModel m;
        QAbstractItemModelTester t(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setComparison(c, QStringLiteral("A"), QStringLiteral("B"));
        const int col = views::ComparisonModel::PeakGpu;
        QCOMPARE(m.index(0, col).data().toString(), QStringLiteral("1300.0"));
        QCOMPARE(m.index(1, col).data().toString(), QStringLiteral("400.0"));
        QVERIFY(m.headerData(col, Qt::Horizontal).toString().contains(QStringLiteral("derived")));
        QVERIFY(
            m.index(1, col).data(Qt::ToolTipRole).toString().contains(QStringLiteral("allocator")));
        c.basePeakGpuBytes.reset();
        c.runPeakGpuBytes.reset();
        c.gpuMemory = "n/a: no statistics in this libtorch";
        m.setComparison(c, QStringLiteral("A"), QStringLiteral("B"));
        QCOMPARE(m.index(1, col).data().toString(), QStringLiteral("n/a"));
        QCOMPARE(m.index(1, col).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("n/a: no statistics in this libtorch"));
    }

    void oneClickWhatIfShowsTheComparisonAndDiff() {
        const QString path = dir.filePath(QStringLiteral("whatif-gui.mvprof"));
        QVERIFY(QFile::copy(session, path));
        MainWindow w;
        w.resize(1400, 900); // the what-if toolbar's buttons in view (and the screenshots' size)
        w.show();
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        w.openSession(path);
        QVERIFY(loaded.wait(20000));
        QAction* combined = test::whatIfActions(w)->action(QStringLiteral("combined"));
        QVERIFY(combined && combined->isEnabled());
        auto* bar = w.findChild<QToolBar*>(QStringLiteral("whatIfToolbar"));
        QVERIFY(bar);
        QWidget* button = bar->widgetForAction(combined);
        QVERIFY(button && button->isVisible());
        QSignalSpy finished(&w, &MainWindow::whatIfFinished);
        QSignalSpy compared(test::comparisonView(w), &views::ComparisonView::compared);
        QTest::mouseClick(button, Qt::LeftButton); // one click
        QVERIFY(!combined->isEnabled());           // no second job while one runs
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QVERIFY(compared.count() > 0 || compared.wait(30000));
        auto* view = test::comparisonView(w);
        QCOMPARE(view->runA(), qint64(1));
        QCOMPARE(view->runB(), qint64(2));
        QCOMPARE(w.session()->runId, qint64(2)); // the main views show the what-if run
        // … and say so: the toolbar's selector names it, a button leads back,
        // the status bar says what happened (no stale "Loading …").
        auto* selector = w.findChild<QComboBox*>(QStringLiteral("runSelector"));
        QVERIFY(selector && selector->isEnabled());
        QCOMPARE(selector->count(), 2);
        QCOMPARE(selector->currentData().toLongLong(), qint64(2));
        auto* back = w.findChild<QToolButton*>(QStringLiteral("backToRun"));
        QVERIFY(back && back->isVisible());
        QCOMPARE(back->text(), QStringLiteral("Back to run 1"));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("run 2")),
                 qPrintable(w.statusBar()->currentMessage()));
        // The setup table: baseline, the what-if measured, and its predicted latency (W4).
        auto* setups = view->setups();
        QAbstractItemModelTester t1(setups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(setups->rowCount(), 3);
        QVERIFY(setups->index(1, views::ComparisonModel::Setup)
                    .data()
                    .toString()
                    .contains(QStringLiteral("run 2")));
        QCOMPARE(setups->index(1, views::ComparisonModel::VisualTokens).data().toInt(), 102);
        QVERIFY(setups->index(2, views::ComparisonModel::Setup)
                    .data()
                    .toString()
                    .contains(QStringLiteral("predicted")));
        const double weightsA =
            setups->index(0, views::ComparisonModel::Weights).data().toString().toDouble();
        const double weightsB =
            setups->index(1, views::ComparisonModel::Weights).data().toString().toDouble();
        QVERIFY2(weightsB > 0 && weightsB < weightsA,
                 qPrintable(QStringLiteral("%1 %2").arg(weightsA).arg(weightsB)));
        QVERIFY(setups->index(1, views::ComparisonModel::Kl).data().toString() !=
                QStringLiteral("–"));
        // Runs on the CPU: the GPU memory column stays hidden.
        QTableView* setupTable = nullptr;
        for (auto* t : view->findChildren<QTableView*>())
            if (auto* p = qobject_cast<QSortFilterProxyModel*>(t->model());
                p && p->sourceModel() == setups)
                setupTable = t;
        QVERIFY(setupTable && setupTable->isColumnHidden(views::ComparisonModel::PeakGpu));
        // No header is cut: each visible column at least as wide as its header's widest
        // line.
        const QHeaderView* header = setupTable->horizontalHeader();
        for (int c = 0; c < setups->columnCount(); ++c) {
            if (setupTable->isColumnHidden(c)) continue;
            const QString text = setups->headerData(c, Qt::Horizontal).toString();
            int widest = 0;
            for (const QString& line : text.split(QLatin1Char('\n')))
                widest = std::max(widest, header->fontMetrics().horizontalAdvance(line));
            QVERIFY2(header->sectionSize(c) >= widest, qPrintable(text));
        }
        // The setup table's rows whole (the page scrolls where the dock is too low; the
        // window grows the dock towards what the comparison needs).
        QTRY_VERIFY(setupTable->viewport()->height() >=
                    setups->rowCount() * setupTable->verticalHeader()->defaultSectionSize());
        // The A/B repetitions: every phase and the total with an interval, drawn as
        // A's and B's bars with error bars.
        auto* ab = view->abTimings();
        QAbstractItemModelTester t4(ab, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(ab->rowCount() >= 5);
        QCOMPARE(ab->index(ab->rowCount() - 1, views::AbTimingsModel::Phase).data().toString(),
                 QStringLiteral("total"));
        QVERIFY(ab->index(0, views::AbTimingsModel::Speedup)
                    .data()
                    .toString()
                    .contains(QStringLiteral("[")));
        QVERIFY(view->abChart()->timings().has_value());
        view->tabs()->setCurrentIndex(3);
        dock(w, view)->raise();
        QApplication::processEvents();
        const QImage chart = view->abChart()->grab().toImage();
        int blue = 0, orange = 0;
        for (int y = 0; y < chart.height(); ++y)
            for (int x = 0; x < chart.width(); ++x) {
                const QColor px = chart.pixelColor(x, y);
                blue += px == QColor(0x4c, 0x78, 0xa8);
                orange += px == QColor(0xf5, 0x85, 0x18);
            }
        QVERIFY2(blue > 50 && orange > 50,
                 qPrintable(QStringLiteral("%1 %2").arg(blue).arg(orange)));
        // What the transforms did, and the module diff sorted by impact.
        QAbstractItemModelTester t2(view->details(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(view->details()->rowCount() > 5);
        // … the profiler's own figures behind a disclosure, the transforms' shown.
        auto* detailsTable = test::find<QTableView>(*view, "comparisonDetails");
        auto* detailsShown = detailsTable->model();
        auto profilerRows = [&] {
            int n = 0;
            for (int row = 0; row < detailsShown->rowCount(); ++row)
                n += detailsShown->index(row, views::RunMetricsModel::Name)
                         .data()
                         .toString()
                         .startsWith(QStringLiteral("capture."));
            return n;
        };
        QVERIFY(detailsShown->rowCount() > 5);
        QCOMPARE(profilerRows(), 0);
        test::find<QCheckBox>(*view, "showProfilerFigures")->setChecked(true);
        QVERIFY(profilerRows() > 0);
        QCOMPARE(detailsShown->rowCount(), view->details()->rowCount());
        test::find<QCheckBox>(*view, "showProfilerFigures")->setChecked(false);
        auto* diff = view->moduleDiffProxy();
        QAbstractItemModelTester t3(view->moduleDiff(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(diff->rowCount() > 10);
        for (int r = 1; r < diff->rowCount(); ++r)
            QVERIFY(diff->index(r - 1, views::ModuleDiffModel::DeltaSelf)
                        .data(views::ComparisonSortRole)
                        .toDouble() >= diff->index(r, views::ModuleDiffModel::DeltaSelf)
                                           .data(views::ComparisonSortRole)
                                           .toDouble());
        // Side-by-side heatmaps: B greys out the 154 pruned patches, A none.
        QVERIFY(test::find<views::HeatmapCanvas>(*view->heatmapA(), "heatmapCanvas")
                    ->prunedPatches()
                    .empty());
        const auto& pruned =
            test::find<views::HeatmapCanvas>(*view->heatmapB(), "heatmapCanvas")->prunedPatches();
        QCOMPARE(int(std::count(pruned.begin(), pruned.end(), true)), 256 - 102);
        view->tabs()->setCurrentIndex(2);
        dock(w, view)->raise();
        QApplication::processEvents();
        auto* canvas = test::find<views::HeatmapCanvas>(*view->heatmapB(), "heatmapCanvas");
        const QImage shot = canvas->grab().toImage();
        const QRect r = canvas->imageRect();
        const int patch = int(std::find(pruned.begin(), pruned.end(), true) - pruned.begin());
        const QPoint centre(r.x() + int((patch % 16 + 0.5) * r.width() / 16.0),
                            r.y() + int((patch / 16 + 0.5) * r.height() / 16.0));
        const QColor c = shot.pixelColor(centre * shot.devicePixelRatio());
        QVERIFY2(std::abs(c.red() - c.green()) < 12 && std::abs(c.green() - c.blue()) < 12,
                 qPrintable(QStringLiteral("pruned patch is not grey: %1").arg(c.name())));
        // One click back to the baseline: the views show run 1 again, the
        // button goes, and choosing run 2 in the selector shows it with none.
        QSignalSpy reloaded(&w, &MainWindow::sessionLoaded);
        QTest::mouseClick(back, Qt::LeftButton);
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(w.session()->runId, qint64(1));
        QCOMPARE(selector->currentData().toLongLong(), qint64(1));
        QTRY_VERIFY(!back->isVisible()); // the toolbar lays itself out on the next event
        QVERIFY(!w.statusBar()->currentMessage().startsWith(QStringLiteral("Loading")));
        emit selector->activated(selector->findData(qint64(2)));
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(w.session()->runId, qint64(2));
        QApplication::processEvents();
        QVERIFY(!back->isVisible());
        // The session opened afresh compares its newest what-if with its
        // baseline, unasked.
        MainWindow fresh;
        QSignalSpy freshCompared(test::comparisonView(fresh), &views::ComparisonView::compared);
        fresh.openSession(path);
        QVERIFY(freshCompared.wait(30000));
        QCOMPARE(test::comparisonView(fresh)->runA(), qint64(1));
        QCOMPARE(test::comparisonView(fresh)->runB(), qint64(2));
        // packaging/make-screenshots.sh sets MVP_SCREENSHOT_DIR.
        const QString shots =
            QProcessEnvironment::systemEnvironment().value(QStringLiteral("MVP_SCREENSHOT_DIR"));
        if (!shots.isEmpty()) {
            w.resize(1400, 900);
            w.resizeDocks({dock(w, view)}, {460}, Qt::Vertical);
            for (const auto& [tab, name] :
                 {std::pair{0, "whatif-comparison"}, std::pair{1, "whatif-module-diff"},
                  std::pair{2, "whatif-heatmaps"}, std::pair{3, "whatif-ab"}}) {
                view->tabs()->setCurrentIndex(tab);
                QApplication::processEvents();
                QVERIFY(w.grab().save(
                    QDir(shots).filePath(QString::fromLatin1(name) + QStringLiteral(".png"))));
            }
        }
    }
};

QTEST_MAIN(TestGuiJobs)
#include "test_gui_jobs.moc"
