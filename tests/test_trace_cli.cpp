// Trace import through mvprof-cli: a generated 200 MB Kineto trace imports
// in bounded memory (peak RSS measured, against the CLI's idle size), and a
// capture exported to Chrome trace and imported again keeps its op, span and
// phase counts, durations within 1 µs and every op inside its span.
#include "SyntheticTrace.h"
#include "TestSupport.h"
#include "core/interop/TraceImport.h"
#include "core/session/SessionReader.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

using namespace mvp;

namespace {
std::string str(const QString& s) {
    return s.toStdString();
}

std::string pathIn(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromUtf8(name)).toStdString();
}

struct Measured {
    int exitCode = -1;
    double peakMiB = 0; // the child's own peak resident size
    QByteArray err;
};

// Runs `cli` with `args` and reaps it with wait4, which gives this child's
// own rusage (RUSAGE_CHILDREN would mix in every earlier child).
Measured runMeasured(const QString& cli, const QStringList& args, const QString& errFile) {
    std::vector<std::string> argv{cli.toStdString()};
    for (const auto& a : args)
        argv.push_back(a.toStdString());
    std::vector<char*> ptrs;
    for (auto& a : argv)
        ptrs.push_back(a.data());
    ptrs.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, errFile.toUtf8().constData(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    Measured m;
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, ptrs.data(), environ) == 0) {
        int status = 0;
        rusage usage{};
        if (wait4(pid, &status, 0, &usage) == pid && WIFEXITED(status))
            m.exitCode = WEXITSTATUS(status);
        m.peakMiB = double(usage.ru_maxrss) / 1024.0; // KiB on Linux
    }
    posix_spawn_file_actions_destroy(&actions);
    QFile f(errFile);
    if (f.open(QIODevice::ReadOnly)) m.err = f.readAll();
    return m;
}
} // namespace

class TraceCliTest : public QObject {
    Q_OBJECT
private slots:
    void bigTraceImportsInBoundedMemory();
    void endlessLineIsRefusedInBoundedMemory();
    void captureRoundTrips();
};

void TraceCliTest::bigTraceImportsInBoundedMemory() {
    const QString cli = test::cliPath();
    if (cli.isEmpty()) QSKIP("MVP_CLI is not set: no mvprof-cli to measure");
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "big.json"), out = pathIn(dir, "big.mvprof");
    const int64_t events = 740000; // ~200 MB on one line
    QVERIFY(test::writeSyntheticTrace(in, events));
    const double mb = double(QFileInfo(QString::fromStdString(in)).size()) / 1e6;
    QVERIFY(mb > 190);
    // mvprof-cli maps libtorch whatever it does: its resident size doing
    // nothing is the baseline, measured first (getrusage keeps the maximum
    // over the children waited for).
    // mvprof-cli maps libtorch whatever it does: its resident size doing
    // nothing is the baseline.
    const QString errFile = dir.filePath(QStringLiteral("err.txt"));
    const Measured idle = runMeasured(cli, {QStringLiteral("--version")}, errFile);
    const Measured m =
        runMeasured(cli,
                    {QStringLiteral("import"), QString::fromStdString(in), QStringLiteral("--out"),
                     QString::fromStdString(out), QStringLiteral("--quiet")},
                    errFile);
    QVERIFY2(m.exitCode == 0, m.err.constData());
    std::printf("import of a %.0f MB trace (%lld events): peak RSS %.0f MiB, %.0f MiB above "
                "mvprof-cli's idle %.0f MiB\n",
                mb, (long long)events, m.peakMiB, m.peakMiB - idle.peakMiB, idle.peakMiB);
    QVERIFY2(m.peakMiB - idle.peakMiB < 100,
             "the import held more than 100 MiB for a 200 MB trace");
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto count = (*reader)->opCount(1);
    QVERIFY(count && *count == events);
}

// 300 MB on one line, one string: refused when the string passes 4 MiB,
// long before the file is read, with the memory of the CLI idle.
void TraceCliTest::endlessLineIsRefusedInBoundedMemory() {
    const QString cli = test::cliPath();
    if (cli.isEmpty()) QSKIP("MVP_CLI is not set: no mvprof-cli to measure");
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "line.json"), out = pathIn(dir, "line.mvprof");
    {
        std::FILE* f = std::fopen(in.c_str(), "wb");
        QVERIFY(f);
        std::fputs(R"({"traceEvents":[{"ph":"X","ts":1,"dur":1,"name":")", f);
        const std::string block(1 << 20, 'x');
        for (int i = 0; i < 300; ++i)
            std::fwrite(block.data(), 1, block.size(), f);
        std::fputs(R"("}]})", f);
        QVERIFY(std::fclose(f) == 0);
    }
    const QString errFile = dir.filePath(QStringLiteral("err.txt"));
    const Measured idle = runMeasured(cli, {QStringLiteral("--version")}, errFile);
    const Measured m = runMeasured(cli,
                                   {QStringLiteral("import"), QString::fromStdString(in),
                                    QStringLiteral("--out"), QString::fromStdString(out)},
                                   errFile);
    QCOMPARE(m.exitCode, 2);
    QVERIFY2(m.err.contains("longer than 4 MiB"), m.err.constData());
    std::printf("a 300 MB line: refused at 4 MiB, peak RSS %.0f MiB (%.0f above idle)\n", m.peakMiB,
                m.peakMiB - idle.peakMiB);
    QVERIFY(m.peakMiB - idle.peakMiB < 100);
    QVERIFY(!QFileInfo::exists(QString::fromStdString(out)));
}

void TraceCliTest::captureRoundTrips() {
    const QString cli = test::cliPath();
    if (cli.isEmpty()) QSKIP("MVP_CLI is not set: no mvprof-cli to capture with");
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("c.mvprof")),
                  trace = dir.filePath(QStringLiteral("c.json")),
                  back = dir.filePath(QStringLiteral("back.mvprof"));
    auto cap = test::runCli({QStringLiteral("capture"), QStringLiteral("--model"),
                             QStringLiteral("ref:tiny"), QStringLiteral("--image"),
                             test::sampleImage(), QStringLiteral("--out"), session});
    QVERIFY2(cap.exitCode == 0, cap.err.constData());
    auto exp =
        test::runCli({QStringLiteral("export"), session, QStringLiteral("--chrome-trace"), trace});
    QVERIFY2(exp.exitCode == 0, exp.err.constData());
    auto imported = importTraces({str(trace)}, str(back));
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    auto a = SessionReader::open(str(session));
    auto b = SessionReader::open(str(back));
    QVERIFY(a && b);
    auto opsA = (*a)->ops(1), opsB = (*b)->ops(imported->front().run);
    auto spansA = (*a)->spans(1), spansB = (*b)->spans(imported->front().run);
    auto phasesA = (*a)->phases(1), phasesB = (*b)->phases(imported->front().run);
    QVERIFY(opsA && opsB && spansA && spansB && phasesA && phasesB);
    QCOMPARE(opsB->size(), opsA->size());
    QCOMPARE(spansB->size(), spansA->size());
    QCOMPARE(phasesB->size(), phasesA->size());
    // Durations within 1 µs (the export writes exact ns: they are equal),
    // matched as multisets by name.
    auto durations = [](const std::vector<OpRow>& ops) {
        std::multimap<std::string, int64_t> out;
        for (const auto& o : ops)
            out.emplace(o.name, o.endNs - o.startNs);
        return out;
    };
    const auto da = durations(*opsA), db = durations(*opsB);
    QVERIFY(da.size() == db.size());
    for (auto ia = da.begin(), ib = db.begin(); ia != da.end(); ++ia, ++ib) {
        QCOMPARE(ib->first, ia->first);
        QVERIFY(std::abs(ib->second - ia->second) <= 1000);
    }
    std::vector<int64_t> sa, sb;
    for (const auto& s : *spansA)
        sa.push_back(s.endNs - s.startNs);
    for (const auto& s : *spansB)
        sb.push_back(s.endNs - s.startNs);
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    for (size_t i = 0; i < sa.size(); ++i)
        QVERIFY(std::abs(sa[i] - sb[i]) <= 1000);
    // Spans keep their modules' paths; ops stay inside their spans.
    auto modsA = (*a)->modules(1), modsB = (*b)->modules(imported->front().run);
    QVERIFY(modsA && modsB && modsA->size() == modsB->size());
    int64_t inSpanA = 0, inSpanB = 0;
    for (const auto& o : *opsA)
        inSpanA += o.span.has_value();
    for (const auto& o : *opsB)
        inSpanB += o.span.has_value();
    QCOMPARE(inSpanB, inSpanA);
}

QTEST_GUILESS_MAIN(TraceCliTest)
#include "test_trace_cli.moc"
