#include "TestSupport.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <sqlite3.h>
#include <string>
#include <zlib.h>

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

namespace {
// One LEB128 varint at data[at] (docs/format.md), `at` moved past it.
uint64_t varintAt(const std::string& data, size_t& at) {
    uint64_t v = 0;
    for (int shift = 0; at < data.size() && shift < 64; shift += 7) {
        const auto byte = uint8_t(data[at++]);
        v |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) break;
    }
    return v;
}
int64_t unzigzag(uint64_t v) {
    return int64_t(v >> 1) ^ -int64_t(v & 1);
}
} // namespace

std::vector<StoredRouting> storedRouting(const QString& session, int64_t run) {
    std::vector<StoredRouting> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(session.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT layer, rows, encoding, data FROM routing_chunk WHERE run = ?",
                           -1, &st, nullptr);
        sqlite3_bind_int64(st, 1, run);
        while (sqlite3_step(st) == SQLITE_ROW) {
            std::string data(static_cast<const char*>(sqlite3_column_blob(st, 3)),
                             size_t(sqlite3_column_bytes(st, 3)));
            if (sqlite3_column_int(st, 2) == 2) { // deflated
                std::string plain(size_t(sqlite3_column_int64(st, 1)) * 68 + 64, '\0');
                uLongf size = uLongf(plain.size());
                if (uncompress(reinterpret_cast<Bytef*>(plain.data()), &size,
                               reinterpret_cast<const Bytef*>(data.data()), uLong(data.size())) !=
                    Z_OK)
                    continue;
                plain.resize(size);
                data = std::move(plain);
            }
            size_t at = 0;
            int64_t token = 0;
            for (int64_t i = 0; i < sqlite3_column_int64(st, 1) && at < data.size(); ++i) {
                StoredRouting r;
                r.layer = sqlite3_column_int(st, 0);
                token += unzigzag(varintAt(data, at));
                (void)varintAt(data, at);            // phase
                (void)unzigzag(varintAt(data, at)); // step
                r.visual = varintAt(data, at) == 1;
                r.rank = int(unzigzag(varintAt(data, at)));
                r.expert = int(unzigzag(varintAt(data, at)));
                if (at + 8 > data.size()) break;
                std::memcpy(&r.weight, data.data() + at, 8);
                at += 8;
                r.token = int(token);
                out.push_back(r);
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

std::map<int, std::vector<double>> routedSlotsBySql(const QString& session, int64_t run,
                                                    int experts) {
    std::map<int, std::vector<double>> counts;
    for (const auto& r : storedRouting(session, run)) {
        auto& row = counts[r.layer];
        row.resize(size_t(experts), 0.0);
        if (r.expert >= 0 && r.expert < experts) row[size_t(r.expert)] += 1;
    }
    return counts;
}

double balancednessOf(const std::vector<double>& gpuLoads) {
    double sum = 0, top = 0;
    for (const double v : gpuLoads)
        sum += v, top = std::max(top, v);
    return top > 0 ? sum / double(gpuLoads.size()) / top : 1.0;
}

} // namespace mvp::test
