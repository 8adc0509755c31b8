#pragma once
// Helpers shared by the tests: environment paths, temp dirs, running the CLI.

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mvp::test {

QString sourceDir();   // $MVP_SOURCE_DIR
QString cliPath();     // $MVP_CLI
QString sampleImage(); // $MVP_SAMPLE_IMAGE
// True under the full suite (./test.sh --full sets MVP_FULL_TESTS): tests of
// the full-size models run there only, keeping the default suite in its
// five minutes.
bool fullSuite();
// A path CTest passes in the environment (a built helper library, …): an
// environment variable rather than a compile-time define, so that a clone
// elsewhere reuses the cached object files.
std::string envPath(const char* name);

struct CliResult {
    int exitCode = -1;
    QByteArray out, err;
};
// Runs mvprof-cli with `args`, waiting up to `timeoutMs`.
CliResult runCli(const QStringList& args, int timeoutMs = 120000);

// Writes `bytes` to `path`; QFAIL-style checks belong to the caller.
bool writeFile(const QString& path, const QByteArray& bytes);

// The child of `parent` of type T called `name` (its objectName): tests find
// widgets as style sheets and UI automation do, never through accessors.
// A missing one ends the test: its name is a contract of the window.
template <typename T> T* find(const QObject& parent, const char* name) {
    T* child = parent.findChild<T*>(QString::fromLatin1(name));
    if (!child) qFatal("no %s called '%s'", T::staticMetaObject.className(), name);
    return child;
}

// The eval task's scoring rule restated for tests (not core's code): the
// output's first word, lower case, without trailing punctuation.
std::string firstWord(const std::string& output);

// A routing row of `run` as docs/format.md lays out routing_chunk (v10),
// decoded here — SQL, zlib and the documented varints — not through
// mvprof's reader.
struct StoredRouting {
    int layer = 0, token = 0, rank = 0, expert = 0;
    bool visual = false;
    double weight = 0;
};
std::vector<StoredRouting> storedRouting(const QString& session, int64_t run);

// Routed token slots per expert (`experts` wide) of each MoE layer of `run`,
// counted from storedRouting, not through mvprof's reader.
std::map<int, std::vector<double>> routedSlotsBySql(const QString& session, int64_t run,
                                                    int experts);
// EPLB's balancedness of one layer, restated: the mean of the GPUs' loads ÷
// the largest.
double balancednessOf(const std::vector<double>& gpuLoads);

} // namespace mvp::test
