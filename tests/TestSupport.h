#pragma once
// Helpers shared by the tests: environment paths, temp dirs, running the CLI.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace mvp::test {

QString sourceDir();   // $MVP_SOURCE_DIR
QString cliPath();     // $MVP_CLI
QString sampleImage(); // $MVP_SAMPLE_IMAGE

struct CliResult {
    int exitCode = -1;
    QByteArray out, err;
};
// Runs mvprof-cli with `args`, waiting up to `timeoutMs`.
CliResult runCli(const QStringList& args, int timeoutMs = 120000);

// Writes `bytes` to `path`; QFAIL-style checks belong to the caller.
bool writeFile(const QString& path, const QByteArray& bytes);

} // namespace mvp::test
