// Trace import through mvprof-cli: a generated 200 MB Kineto trace imports
// in bounded memory (peak RSS measured, against the CLI's idle size), and a
// capture exported to Chrome trace and imported again keeps its op, span and
// phase counts, durations within 1 µs and every op inside its span.
#include "SyntheticTrace.h"
#include "TestSupport.h"
#include "core/interop/TraceImport.h"
#include "core/session/SessionReader.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sys/resource.h>

using namespace mvp;

namespace {
std::string str(const QString& s) {
    return s.toStdString();
}

std::string pathIn(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromUtf8(name)).toStdString();
}
} // namespace

class TraceCliTest : public QObject {
    Q_OBJECT
private slots:
    void bigTraceImportsInBoundedMemory();
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
    const auto peakChildMiB = [] {
        rusage usage{};
        getrusage(RUSAGE_CHILDREN, &usage);
        return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
    };
    QProcess idle;
    idle.start(cli, {QStringLiteral("--version")});
    QVERIFY(idle.waitForFinished(60000));
    const double baseMiB = peakChildMiB();
    QProcess p;
    p.start(cli, {QStringLiteral("import"), QString::fromStdString(in), QStringLiteral("--out"),
                  QString::fromStdString(out), QStringLiteral("--quiet")});
    QVERIFY(p.waitForFinished(600000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const double peakMiB = peakChildMiB();
    std::printf("import of a %.0f MB trace (%lld events): peak RSS %.0f MiB, %.0f MiB above "
                "mvprof-cli's idle %.0f MiB\n",
                mb, (long long)events, peakMiB, peakMiB - baseMiB, baseMiB);
    QVERIFY2(peakMiB - baseMiB < 100, "the import held more than 100 MiB for a 200 MB trace");
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto count = (*reader)->opCount(1);
    QVERIFY(count && *count == events);
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
