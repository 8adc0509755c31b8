#include "TestSupport.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <algorithm>
#include <cctype>
#include <sqlite3.h>

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
bool fullSuite() {
    return env("MVP_FULL_TESTS") == QLatin1String("1");
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

std::map<int, std::vector<double>> routedSlotsBySql(const QString& session, int64_t run,
                                                    int experts) {
    std::map<int, std::vector<double>> counts;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(session.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT layer, expert, COUNT(*) FROM routing WHERE run = ? "
                               "GROUP BY layer, expert", -1, &st, nullptr);
        sqlite3_bind_int64(st, 1, run);
        while (sqlite3_step(st) == SQLITE_ROW) {
            auto& row = counts[sqlite3_column_int(st, 0)];
            row.resize(size_t(experts), 0.0);
            const int expert = sqlite3_column_int(st, 1);
            if (expert >= 0 && expert < experts) row[size_t(expert)] = sqlite3_column_double(st, 2);
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return counts;
}

double balancednessOf(const std::vector<double>& gpuLoads) {
    double sum = 0, top = 0;
    for (const double v : gpuLoads)
        sum += v, top = std::max(top, v);
    return top > 0 ? sum / double(gpuLoads.size()) / top : 1.0;
}

} // namespace mvp::test
