#include "TestSupport.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <cctype>

namespace mvp::test {

namespace {
QString env(const char* name) {
    return QProcessEnvironment::systemEnvironment().value(QString::fromLatin1(name));
}
} // namespace

QString sourceDir() {
    return env("MVP_SOURCE_DIR");
}
QString cliPath() {
    return env("MVP_CLI");
}
QString sampleImage() {
    return env("MVP_SAMPLE_IMAGE");
}
std::string envPath(const char* name) {
    return env(name).toStdString();
}

CliResult runCli(const QStringList& args, int timeoutMs) {
    QProcess p;
    p.start(cliPath(), args);
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return f.write(bytes) == bytes.size();
}

std::string firstWord(const std::string& output) {
    std::string w;
    for (char c : output) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!w.empty()) break;
            continue;
        }
        w += char(std::tolower(static_cast<unsigned char>(c)));
    }
    while (!w.empty() && std::ispunct(static_cast<unsigned char>(w.back())))
        w.pop_back();
    return w;
}

} // namespace mvp::test
