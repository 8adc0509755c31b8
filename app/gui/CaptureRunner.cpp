#include "app/gui/CaptureRunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace mvp {

QStringList CaptureRequest::arguments() const {
    if (!script.isEmpty() || !program.isEmpty()) {
        const QString launched = !program.isEmpty() ? program : script;
        const QString folder =
            workingFolder.isEmpty() ? QFileInfo(launched).absolutePath() : workingFolder;
        QStringList a{QStringLiteral("launch"),
                      QStringLiteral("--out"),
                      output,
                      QStringLiteral("--cwd"),
                      folder,
                      QStringLiteral("--progress"),
                      QStringLiteral("jsonl")};
        if (force) a << QStringLiteral("--force");
        if (!program.isEmpty()) a << QStringLiteral("--cuda-inject");
        a << QStringLiteral("--");
        if (program.isEmpty()) a << python;
        a << QFileInfo(launched).absoluteFilePath() << QProcess::splitCommand(scriptArguments);
        return a;
    }
    QStringList a{QStringLiteral("capture"),
                  QStringLiteral("--image"),
                  image,
                  QStringLiteral("--prompt"),
                  prompt,
                  QStringLiteral("--steps"),
                  QString::number(steps),
                  QStringLiteral("--device"),
                  device,
                  QStringLiteral("--out"),
                  output,
                  QStringLiteral("--progress"),
                  QStringLiteral("jsonl")};
    if (!modelFile.isEmpty()) {
        // A user model brings its own depth, precision and routing.
        a << QStringLiteral("--model-file") << modelFile;
    } else {
        a << QStringLiteral("--model") << model << QStringLiteral("--dtype") << dtype
          << QStringLiteral("--routing-skew") << QString::number(routingSkew);
        if (layers > 0) a << QStringLiteral("--layers") << QString::number(layers);
        if (!attnLayers.isEmpty()) a << QStringLiteral("--attn-layers") << attnLayers;
    }
    if (device != QLatin1String("cpu")) {
        a << QStringLiteral("--device-timing") << deviceTiming;
        if (hwCounters) a << QStringLiteral("--hw-counters");
    }
    if (force) a << QStringLiteral("--force");
    return a;
}

CaptureRunner::CaptureRunner(QObject* parent) : QObject(parent) {
    connect(&process_, &QProcess::readyReadStandardOutput, this, &CaptureRunner::readLines);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit finished(false, false,
                          tr("Could not start %1: %2").arg(cliPath(), process_.errorString()));
    });
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readLines();
        const QString err = QString::fromUtf8(process_.readAllStandardError()).trimmed();
        const bool ok = status == QProcess::NormalExit && code == 0;
        QString message = err;
        if (!ok && message.isEmpty())
            message = status == QProcess::CrashExit
                          ? tr("The mvprof-cli process crashed; the session keeps what it wrote.")
                          : tr("The mvprof-cli process exited with status %1.").arg(code);
        emit finished(ok, cancelled_, ok ? QString() : message);
    });
}

CaptureRunner::~CaptureRunner() {
    if (process_.state() != QProcess::NotRunning) {
        process_.terminate();
        if (!process_.waitForFinished(5000)) process_.kill();
        process_.waitForFinished();
    }
}

QString CaptureRunner::cliPath() {
    const QString env = qEnvironmentVariable("MVPROF_CLI");
    if (!env.isEmpty()) return env;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("mvprof-cli"));
}

void CaptureRunner::start(const CaptureRequest& request) {
    request_ = request;
    startJob(request.arguments(), request.output, false);
}

void CaptureRunner::startJob(const QStringList& arguments, const QString& session, bool whatIf) {
    session_ = session;
    whatIf_ = whatIf;
    finishedRun_ = 0;
    sweepTable_ = QJsonObject();
    cancelled_ = false;
    pending_.clear();
    process_.start(cliPath(), arguments);
}

void CaptureRunner::cancel() {
    if (process_.state() == QProcess::NotRunning) return;
    cancelled_ = true;
    process_.terminate(); // SIGTERM: the capture stops between steps and marks the run incomplete
}

bool CaptureRunner::isRunning() const {
    return process_.state() != QProcess::NotRunning;
}

void CaptureRunner::readLines() {
    pending_ += process_.readAllStandardOutput();
    qsizetype nl;
    while ((nl = pending_.indexOf('\n')) >= 0) {
        const QByteArray line = pending_.left(nl);
        pending_.remove(0, nl + 1);
        const QJsonObject j = QJsonDocument::fromJson(line).object();
        if (j.value(QStringLiteral("event")).toString() == QLatin1String("progress"))
            emit progress(j.value(QStringLiteral("fraction")).toDouble(),
                          j.value(QStringLiteral("phase")).toString(),
                          j.value(QStringLiteral("step")).toInt(),
                          j.value(QStringLiteral("steps")).toInt());
        else if (j.value(QStringLiteral("event")).toString() == QLatin1String("sweep"))
            sweepTable_ = j.value(QStringLiteral("table")).toObject();
        else if (j.value(QStringLiteral("event")).toString() == QLatin1String("done")) {
            finishedRun_ = j.value(QStringLiteral("run")).toInteger();
            emit progress(1.0, QStringLiteral("done"), 0, 0);
        }
    }
}

} // namespace mvp
