// MainWindow's child jobs: New Capture… and the What-if actions run
// mvprof-cli in a child process; the status bar shows progress and Cancel,
// and the views follow the session while it grows.
#include "app/gui/CaptureDialog.h"
#include "app/gui/MainWindow.h"
#include "core/Resources.h"
#include "views/ComparisonView.h"
#include "views/SessionData.h"

#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <cmath>
#include <optional>
#include <utility>

namespace mvp {

void MainWindow::setUpJobs() {
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(220);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, &runner_, &CaptureRunner::cancel);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(runLabel_);
    connect(&runner_, &CaptureRunner::progress, this,
            [this](double fraction, const QString& phase, int step, int steps) {
                // A script's length is unknown: a busy bar naming the phase.
                progress_->setRange(0, fraction < 0 ? 0 : 100);
                const int percent = fraction < 0 ? 0 : int(std::lround(fraction * 100.0));
                progress_->setValue(percent);
                // Time left, extrapolated from the time so far (an estimate, said as such).
                const double elapsed = double(captureClock_.elapsed()) / 1000.0;
                const QString left =
                    fraction > 0.05 && fraction < 1.0
                        ? tr(" · ~%1 s left")
                              .arg(std::max(1.0, elapsed * (1.0 - fraction) / fraction), 0, 'f', 0)
                        : QString();
                progress_->setFormat(
                    fraction < 0
                        ? (phase == QLatin1String("decode") ? tr("decode %1").arg(step) : phase)
                        : (phase == QLatin1String("decode")
                               ? tr("decode %1/%2 · %p%").arg(step).arg(steps)
                           : phase == QLatin1String("repetitions")
                               ? tr("A/B pass %1/%2 · %p%").arg(step).arg(steps)
                               : tr("%1 · %p%").arg(phase)) +
                              left);
                emit captureProgress(percent);
                // Follow the growing session, at most once a second.
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                if (!runner_.isWhatIf() &&
                    (phase == QLatin1String("decode") || phase == QLatin1String("done")) &&
                    now - lastLiveReload_ > 1000 && !loads_.busy()) {
                    lastLiveReload_ = now;
                    openSession(runner_.session());
                }
            });
    connect(&runner_, &CaptureRunner::finished, this,
            [this](bool ok, bool cancelled, const QString& message) {
                progress_->hide();
                cancel_->hide();
                whatIfs_->setEnabled(session_ != nullptr);
                const bool whatIf = runner_.isWhatIf();
                if (whatIf && ok) compareWhenLoaded_ = runner_.finishedRun();
                // A what-if's result replaces the run shown, with a way back.
                if (whatIf && ok && session_ && session_->path == runner_.session())
                    switchRun(runner_.finishedRun(), true);
                else if (QFileInfo::exists(runner_.session()))
                    openSession(runner_.session(), whatIf && ok ? runner_.finishedRun() : 0);
                if (!ok && !cancelled)
                    showError(whatIf ? tr("The what-if failed") : tr("The capture failed"),
                              message);
                if (std::exchange(sweeping_, false)) {
                    if (!runner_.sweepTable().isEmpty()) {
                        compare_->setTable(views::parseSweepTable(runner_.sweepTable()));
                        compare_->show();
                    }
                    emit sweepFinished(ok, message);
                }
                if (whatIf) {
                    statusBar()->showMessage(
                        ok          ? tr("What-if complete: see the comparison")
                        : cancelled ? tr("What-if cancelled: the run is kept, marked incomplete")
                                    : tr("What-if failed: %1").arg(message),
                        8000);
                    emit whatIfFinished(ok, message);
                    return;
                }
                statusBar()->showMessage(
                    ok          ? tr("Capture complete")
                    : cancelled ? tr("Capture cancelled: the run is kept, marked incomplete")
                                : tr("Capture failed: %1").arg(message),
                    8000);
                emit captureFinished(ok, cancelled, message);
            });
}

void MainWindow::newCapture() {
    if (runner_.isRunning()) {
        statusBar()->showMessage(tr("A capture is already running"), 4000);
        return;
    }
    captureWith(initialCaptureRequest(false));
}

void MainWindow::captureSample() {
    if (runner_.isRunning()) {
        statusBar()->showMessage(tr("A capture is already running"), 4000);
        return;
    }
    captureWith(initialCaptureRequest(true));
}

CaptureRequest MainWindow::initialCaptureRequest(bool sample) const {
    QSettings settings;
    CaptureRequest last;
    last.image = settings.value(QStringLiteral("capture/image")).toString();
    if (sample || last.image.isEmpty())
        if (const auto found = resourcePath(kSampleImage))
            last.image = QString::fromStdString(*found);
    last.prompt =
        settings.value(QStringLiteral("capture/prompt"), tr("Describe the image.")).toString();
    last.output = settings
                      .value(QStringLiteral("capture/output"),
                             QDir::home().filePath(QStringLiteral("capture.mvprof")))
                      .toString();
    last.script = settings.value(QStringLiteral("capture/script")).toString();
    last.scriptArguments = settings.value(QStringLiteral("capture/scriptArguments")).toString();
    last.workingFolder = settings.value(QStringLiteral("capture/workingFolder")).toString();
    if (sample) {
        // The demo: the trained built-in model on the bundled scene, asked
        // about it (as ./run.sh does), so the answer and heatmap mean something.
        last.script.clear();
        last.program.clear();
        last.modelFile.clear();
        last.model = QStringLiteral("ref:demo");
        if (const auto scene = resourcePath(kSampleScene))
            last.image = QString::fromStdString(*scene);
        last.prompt = QStringLiteral("What colour is the circle?");
    }
    return last;
}

void MainWindow::captureWith(const CaptureRequest& initial) {
    CaptureDialog dialog(this);
    QSettings settings;
    dialog.setRequest(initial);
    if (dialog.exec() != QDialog::Accepted) return;
    const CaptureRequest r = dialog.request();
    settings.setValue(QStringLiteral("capture/image"), r.image);
    settings.setValue(QStringLiteral("capture/prompt"), r.prompt);
    settings.setValue(QStringLiteral("capture/output"), r.output);
    settings.setValue(QStringLiteral("capture/script"), r.script);
    settings.setValue(QStringLiteral("capture/scriptArguments"), r.scriptArguments);
    settings.setValue(QStringLiteral("capture/workingFolder"), r.workingFolder);
    startCapture(r);
}

void MainWindow::showJobStarted(const QString& message) {
    lastLiveReload_ = 0;
    captureClock_.start();
    progress_->setRange(0, 100);
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    whatIfs_->setEnabled(false);
    statusBar()->showMessage(message);
}

void MainWindow::startCapture(const CaptureRequest& request) {
    if (!request.script.isEmpty()) {
        showJobStarted(
            tr("Running %1 with the mvprof package…").arg(QFileInfo(request.script).fileName()));
        runner_.start(request);
        return;
    }
    const QString model =
        request.modelFile.isEmpty() ? request.model : QFileInfo(request.modelFile).fileName();
    showJobStarted(tr("Capturing %1 on %2…").arg(model, QFileInfo(request.image).fileName()));
    runner_.start(request);
}

std::optional<qint64> MainWindow::whatIfBaseline() {
    if (!session_) {
        statusBar()->showMessage(tr("Open a session with a baseline run first"), 5000);
        return std::nullopt;
    }
    if (runner_.isRunning()) {
        statusBar()->showMessage(tr("Wait for the running job to finish, or cancel it"), 5000);
        return std::nullopt;
    }
    // The run shown if it is a baseline, else its baseline.
    const RunInfo& shown = session_->analysis.run;
    return shown.transform.empty() ? shown.id : shown.baselineRun.value_or(0);
}

void MainWindow::startWhatIf(WhatIfJob job) {
    const auto baseline = whatIfBaseline();
    if (!baseline) return;
    job.session = session_->path;
    job.baseline = *baseline;
    showJobStarted(tr("Running what-if %1 against run %2…").arg(job.label()).arg(job.baseline));
    runner_.startJob(job.arguments(), job.session, true);
}

void MainWindow::startSweep(SweepRequest request) {
    const auto baseline = whatIfBaseline();
    if (!baseline) return;
    request.session = session_->path;
    request.baseline = *baseline;
    showJobStarted(tr("Comparing %1 against run %2…")
                       .arg(request.methods.join(QStringLiteral(", ")))
                       .arg(request.baseline));
    sweeping_ = true;
    runner_.startJob(request.arguments(), request.session, true);
}

} // namespace mvp
