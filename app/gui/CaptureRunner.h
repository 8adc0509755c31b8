#pragma once
// Runs `mvprof-cli capture|whatif … --progress jsonl` as a child process, so
// a model run that crashes never takes the GUI with it. Reports progress from
// the child's JSON lines; cancel() sends SIGTERM, and the child marks its run
// incomplete and keeps what it wrote.

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>

namespace mvp {

struct CaptureRequest {
    QString model = QStringLiteral("ref:tiny");
    QString modelFile; // a user model's manifest; replaces `model` when set
    // A Python script that profiles its own model with the mvprof package
    // (`mvprof-cli launch`); replaces the model, image, prompt and steps when set.
    QString script;
    QString scriptArguments; // one line, split at spaces; "double quotes" group
    QString workingFolder;   // where the script runs; empty: the script's folder
    // Any CUDA program, traced through CUPTI (`mvprof-cli launch
    // --cuda-inject`); replaces the model like a script, and takes
    // scriptArguments and workingFolder (empty: the program's folder).
    QString program;
    QString python = QStringLiteral("/usr/bin/python3");
    int layers = 0; // 0: the preset's depth
    QString image;
    QString prompt;
    int steps = 8;
    QString device = QStringLiteral("cpu");
    QString dtype = QStringLiteral("float32");
    QString deviceTiming = QStringLiteral("events"); // on a GPU: events, exact or off
    bool hwCounters = false; // on a GPU: replay the run under CUPTI's range profiler
    QString attnLayers;      // "", "all", "0-1", …
    double routingSkew = 1.0;
    QString output;
    bool force = true; // the dialog already asked before replacing a file
    QStringList arguments() const;
};

class CaptureRunner : public QObject {
    Q_OBJECT
public:
    explicit CaptureRunner(QObject* parent = nullptr);
    ~CaptureRunner() override;

    // mvprof-cli next to this executable, or $MVPROF_CLI.
    static QString cliPath();

    void start(const CaptureRequest& request);
    // Any mvprof-cli job that writes into `session` and speaks --progress jsonl.
    void startJob(const QStringList& arguments, const QString& session, bool whatIf);
    void cancel();
    bool isRunning() const;
    const CaptureRequest& request() const { return request_; }
    QString session() const { return session_; } // the file the current job writes
    bool isWhatIf() const { return whatIf_; }
    qint64 finishedRun() const { return finishedRun_; } // from the job's "done" line; 0 if none
    // A sweep job's table (its "sweep" line); empty for other jobs.
    const QJsonObject& sweepTable() const { return sweepTable_; }

signals:
    // fraction < 0: unknown (a script's length is its own); steps 0: unknown.
    void progress(double fraction, const QString& phase, int step, int steps);
    // ok: the run completed. cancelled: stopped by cancel(). message: the child's error, if any.
    void finished(bool ok, bool cancelled, const QString& message);

private:
    void readLines();

    QProcess process_;
    CaptureRequest request_;
    QString session_;
    bool whatIf_ = false;
    qint64 finishedRun_ = 0;
    QJsonObject sweepTable_;
    bool cancelled_ = false;
    QByteArray pending_;
};

} // namespace mvp
