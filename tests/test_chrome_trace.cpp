// The Chrome-trace export, on a session written here row by row: every
// phase, span, op and token becomes one event at its exact time, each track
// nests, the routing counters hold the counts worked by hand, and a failed
// export leaves no file.
#include "TestSupport.h"
#include "core/report/ChromeTrace.h"
#include "core/report/PerfettoTrace.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <vector>

using namespace mvp;

namespace {
RunInfo runInfo(const std::string& label) {
    RunInfo r;
    r.label = label;
    r.model = "ref:test";
    r.configJson = "{}";
    r.steps = 1;
    r.device = "cpu";
    r.dtype = "float32";
    r.writerPid = QCoreApplication::applicationPid();
    r.startedUtc = "2026-12-02T00:00:00Z";
    return r;
}

// Two passes (prefill 0–1000 ns, decode step 1 1000–1500 ns) of a one-layer
// model; the decoder layer's span holds the attention's, ops nest in a linear.
Batch rows(int64_t run) {
    Batch b;
    b.run = run;
    b.modules = {{1, "llm", "Decoder", std::nullopt, 10},
                 {2, "llm.layer.0", "DecoderLayer", 1, 7},
                 {3, "llm.layer.0.attn\xff", "Attention", 2, 3}}; // not UTF-8
    b.phases = {{Phase::Prefill, 0, 0, 1000}, {Phase::Decode, 1, 1000, 1500}};
    // Span 2 starts with its parent: the longer one must come first.
    b.spans = {{1, 1, std::nullopt, Phase::Prefill, 0, 10, 990, std::nullopt, 1000, 64},
               {2, 2, 1, Phase::Prefill, 0, 10, 900, std::nullopt, 800, 32},
               {3, 3, 2, Phase::Prefill, 0, 20, 500, std::nullopt, 0, 0, false},
               {4, 1, std::nullopt, Phase::Decode, 1, 1001, 1499, std::nullopt, 10, 8}};
    // As a capture stores them: a nested op before the op it ended inside.
    b.ops = {
        {2, 3, 1, "aten::addmm", Phase::Prefill, 0, 35, 75, "[[4],[2,3],[3,4]]", "float", 48, 80},
        {1, 3, std::nullopt, "aten::linear", Phase::Prefill, 0, 30, 80, "[[2,3],[4,3]]", "float",
         48, 80},
        {3, 3, std::nullopt, "aten::softmax", Phase::Prefill, 0, 100, 923, "", "float", 0, 16,
         false},
        {4, 4, std::nullopt, "aten::view", Phase::Decode, 1, 1100, 1101, "[[8]]", "float", 0, 0}};
    b.tokens = {{0, Phase::Prefill, 0, Modality::Text, 256},
                {1, Phase::Prefill, 0, Modality::Visual, -1, 5},
                {2, Phase::Prefill, 0, Modality::Text, 300},
                {3, Phase::Decode, 1, Modality::Text, 301}};
    // Top-2 of 4 experts: prefill tokens 0, 1, 2 → (3, 1), (3, 0), (2, 3); decode token 3 → (1, 0).
    auto route = [](Phase p, int step, int token, int e0, int e1) {
        return std::vector<RoutingRow>{{0, p, step, token, Modality::Text, 0, e0, 0.6},
                                       {0, p, step, token, Modality::Text, 1, e1, 0.4}};
    };
    for (const auto& r : {route(Phase::Prefill, 0, 0, 3, 1), route(Phase::Prefill, 0, 1, 3, 0),
                          route(Phase::Prefill, 0, 2, 2, 3), route(Phase::Decode, 1, 3, 1, 0)})
        b.routing.insert(b.routing.end(), r.begin(), r.end());
    return b;
}

QJsonArray events(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("traceEvents")].toArray();
}

QString str(const QJsonObject& e, const char* key) {
    return e[QLatin1String(key)].toString();
}

// ts in µs back to ns; the export writes three decimals, so this is exact.
int64_t ns(const QJsonObject& e, const char* key) {
    return std::llround(e[QLatin1String(key)].toDouble() * 1000.0);
}

// A minimal reader of the protobuf wire format, written from its spec
// (varint, 64-bit, length-delimited): (field, wire type, integer or bytes).
struct Field {
    uint32_t number = 0, wire = 0;
    uint64_t value = 0;
    std::string bytes;
};
std::vector<Field> fields(const std::string& data) {
    std::vector<Field> out;
    size_t at = 0;
    auto varint = [&](uint64_t& v) {
        v = 0;
        for (int shift = 0; at < data.size() && shift < 64; shift += 7) {
            const auto b = uint8_t(data[at++]);
            v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) return true;
        }
        return false;
    };
    while (at < data.size()) {
        uint64_t key = 0;
        if (!varint(key)) break;
        Field f;
        f.number = uint32_t(key >> 3);
        f.wire = uint32_t(key & 7);
        if (f.wire == 0) {
            varint(f.value);
        } else if (f.wire == 1) {
            std::memcpy(&f.value, data.data() + at, 8);
            at += 8;
        } else if (f.wire == 2) {
            uint64_t len = 0;
            varint(len);
            f.bytes = data.substr(at, len);
            at += len;
        } else {
            break;
        }
        out.push_back(std::move(f));
    }
    return out;
}
const Field* field(const std::vector<Field>& fs, uint32_t number) {
    for (const auto& f : fs)
        if (f.number == number) return &f;
    return nullptr;
}
} // namespace

class TestChromeTrace : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;

private slots:
    void initTestCase() {
        session = dir.filePath(QStringLiteral("t.mvprof"));
        auto w = SessionWriter::open(session.toStdString(), SessionWriter::Mode::CreateNew);
        QVERIFY(w.ok());
        for (const char* label : {"baseline", "what-if"}) {
            auto run = (*w)->beginRun(runInfo(label));
            QVERIFY(run.ok());
            (*w)->submit(rows(*run));
            QVERIFY((*w)->endRun(*run, RunResult{}).ok());
        }
        QVERIFY((*w)->close().ok());
    }

    void everyRowIsOneEventAtItsTime() {
        const QString out = dir.filePath(QStringLiteral("one.json"));
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        auto sum = writeChromeTrace(**reader, {1}, out.toStdString());
        QVERIFY2(sum.ok(), sum.ok() ? "" : sum.error().message.c_str());
        QCOMPARE(sum->phases, int64_t(2));
        QCOMPARE(sum->spans, int64_t(4));
        QCOMPARE(sum->ops, int64_t(4));
        QCOMPARE(sum->tokens, int64_t(4));
        const QJsonArray all = events(out);
        QCOMPARE(int64_t(all.size()), sum->events);
        std::map<QString, std::vector<QJsonObject>> byCat;
        for (const auto& v : all)
            byCat[str(v.toObject(), "cat")].push_back(v.toObject());
        QCOMPARE(byCat[QStringLiteral("phase")].size(), size_t(2));
        QCOMPARE(byCat[QStringLiteral("module")].size(), size_t(4));
        QCOMPARE(byCat[QStringLiteral("cpu_op")].size(), size_t(4));
        QCOMPARE(byCat[QStringLiteral("token")].size(), size_t(4));
        // The softmax: 100 ns → 0.100 µs, lasting 823 ns; no formula → null FLOPs.
        const auto& ops = byCat[QStringLiteral("cpu_op")];
        const auto softmax = std::find_if(ops.begin(), ops.end(), [](const QJsonObject& e) {
            return str(e, "name") == QStringLiteral("aten::softmax");
        });
        QVERIFY(softmax != ops.end());
        QCOMPARE(ns(*softmax, "ts"), int64_t(100));
        QCOMPARE(ns(*softmax, "dur"), int64_t(823));
        QVERIFY((*softmax)[QStringLiteral("args")]
                    .toObject()[QStringLiteral("flops_estimated")]
                    .isNull());
        // Kineto's argument names: the addmm's three inputs.
        const auto addmm = std::find_if(ops.begin(), ops.end(), [](const QJsonObject& e) {
            return str(e, "name") == QStringLiteral("aten::addmm");
        });
        const QJsonObject args = (*addmm)[QStringLiteral("args")].toObject();
        QCOMPARE(args[QStringLiteral("Input Dims")].toArray().size(), 3);
        QCOMPARE(args[QStringLiteral("Input Dims")].toArray()[2].toArray()[1].toInt(), 4);
        QCOMPARE(args[QStringLiteral("parent_op")].toInt(), 1);
        QCOMPARE(args[QStringLiteral("flops_estimated")].toInt(), 48);
        // A name that is not UTF-8 is written with U+FFFD, not dropped.
        const auto& spans = byCat[QStringLiteral("module")];
        QVERIFY(std::any_of(spans.begin(), spans.end(), [](const QJsonObject& e) {
            return str(e, "name") == QStringLiteral("llm.layer.0.attn\uFFFD");
        }));
        // The decode phase is named with its step.
        QCOMPARE(str(byCat[QStringLiteral("phase")][1], "name"), QStringLiteral("decode 1"));
    }

    // On each track, every slice lies inside the one open before it or after it.
    void everyTrackNests() {
        const QString out = dir.filePath(QStringLiteral("nest.json"));
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        QVERIFY(writeChromeTrace(**reader, {}, out.toStdString()).ok());
        std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> open; // stacks
        int slices = 0;
        for (const auto& v : events(out)) {
            const QJsonObject e = v.toObject();
            if (str(e, "ph") != QStringLiteral("X")) continue;
            ++slices;
            auto& stack =
                open[{e[QStringLiteral("pid")].toInt(), e[QStringLiteral("tid")].toInt()}];
            const int64_t start = ns(e, "ts"), end = start + ns(e, "dur");
            while (!stack.empty() && stack.back().second <= start)
                stack.pop_back();
            if (!stack.empty())
                QVERIFY2(start >= stack.back().first && end <= stack.back().second,
                         qPrintable(str(e, "name")));
            stack.push_back({start, end});
        }
        QCOMPARE(slices, 2 * (2 + 4 + 4)); // both runs
    }

    void processesAndTracksAreNamed() {
        const QString out = dir.filePath(QStringLiteral("names.json"));
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        QVERIFY(writeChromeTrace(**reader, {}, out.toStdString()).ok());
        std::map<int, QString> processes;
        std::map<std::pair<int, int>, QString> threads;
        for (const auto& v : events(out)) {
            const QJsonObject e = v.toObject();
            if (str(e, "ph") != QStringLiteral("M")) continue;
            const QString name =
                e[QStringLiteral("args")].toObject()[QStringLiteral("name")].toString();
            const int pid = e[QStringLiteral("pid")].toInt();
            if (str(e, "name") == QStringLiteral("process_name")) processes[pid] = name;
            if (str(e, "name") == QStringLiteral("thread_name"))
                threads[{pid, e[QStringLiteral("tid")].toInt()}] = name;
        }
        QCOMPARE(processes.size(), size_t(2));
        QCOMPARE(processes[2], QStringLiteral("run 2: ref:test (what-if)"));
        QCOMPARE(threads.size(), size_t(8));
        const std::pair<int, int> ops{1, int(TraceTrack::Ops)};
        QCOMPARE(threads[ops], QStringLiteral("ATen ops"));
    }

    // Prefill: expert 0 ×1, 1 ×1, 2 ×1, 3 ×3; decode step 1: 0 ×1, 1 ×1.
    void routingCountsPerExpertAndPass() {
        const QString out = dir.filePath(QStringLiteral("routing.json"));
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        QVERIFY(writeChromeTrace(**reader, {1}, out.toStdString()).ok());
        std::map<int64_t, QJsonObject> counters; // by ts
        QJsonObject token1;
        for (const auto& v : events(out)) {
            const QJsonObject e = v.toObject();
            if (str(e, "ph") == QStringLiteral("C")) counters[ns(e, "ts")] = e;
            if (str(e, "name") == QStringLiteral("visual 1")) token1 = e;
        }
        QCOMPARE(counters.size(), size_t(2));
        const QJsonObject prefill = counters[0][QStringLiteral("args")].toObject();
        const QJsonObject decode = counters[1000][QStringLiteral("args")].toObject();
        const int wantPrefill[] = {1, 1, 1, 3}, wantDecode[] = {1, 1, 0, 0};
        for (int e = 0; e < 4; ++e) {
            const QString key = QStringLiteral("expert %1").arg(e);
            QCOMPARE(prefill[key].toInt(-1), wantPrefill[e]);
            QCOMPARE(decode[key].toInt(-1), wantDecode[e]);
        }
        QCOMPARE(str(counters[0], "name"), QStringLiteral("layer 0 tokens per expert"));
        // The visual token carries its patch and its experts by rank.
        const QJsonObject args = token1[QStringLiteral("args")].toObject();
        QCOMPARE(args[QStringLiteral("patch")].toInt(), 5);
        const QJsonArray ranks =
            args[QStringLiteral("experts")].toObject()[QStringLiteral("layer 0")].toArray();
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[0].toInt(), 3);
        QCOMPARE(ranks[1].toInt(), 0);
    }

    // The Perfetto protobuf export holds the same events: one SLICE_BEGIN and
    // one SLICE_END per phase, span and op, properly nested per track, at
    // the same ns (plus the fixed origin), tokens as instants, one counter
    // sample per expert and pass, the run as a named process track.
    void perfettoTraceHoldsTheSameEvents() {
        const QString out = dir.filePath(QStringLiteral("one.pftrace"));
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        auto sum = writePerfettoTrace(**reader, {1}, out.toStdString());
        QVERIFY2(sum.ok(), sum.ok() ? "" : sum.error().message.c_str());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string file = f.readAll().toStdString();
        std::map<uint64_t, std::string> trackName;
        std::map<uint64_t, std::vector<uint64_t>> open;         // track → begin timestamps
        std::multiset<std::pair<std::string, uint64_t>> begins; // name, ns
        int ends = 0, instants = 0, counters = 0, packets = 0;
        std::string process;
        for (const auto& top : fields(file)) {
            QCOMPARE(top.number, uint32_t(1)); // Trace.packet
            ++packets;
            const auto packet = fields(top.bytes);
            if (const Field* d = field(packet, 60)) { // track_descriptor
                const auto td = fields(d->bytes);
                const uint64_t uuid = field(td, 1)->value;
                if (const Field* name = field(td, 2)) trackName[uuid] = name->bytes;
                if (const Field* proc = field(td, 3))
                    process = field(fields(proc->bytes), 6)->bytes;
                continue;
            }
            const Field* te = field(packet, 11);
            QVERIFY(te);
            const auto ev = fields(te->bytes);
            const uint64_t ts = field(packet, 8)->value, type = field(ev, 9)->value,
                           track = field(ev, 11)->value;
            QVERIFY2(trackName.count(track), "an event before its track's descriptor");
            if (type == 1) {
                begins.insert({field(ev, 23)->bytes, ts - uint64_t(kPerfettoOriginNs)});
                open[track].push_back(ts);
            } else if (type == 2) {
                QVERIFY(!open[track].empty());
                QVERIFY(ts >= open[track].back()); // ends after its begin, innermost first
                open[track].pop_back();
                ++ends;
            } else if (type == 3) {
                ++instants;
            } else if (type == 4) {
                ++counters;
            }
        }
        QCOMPARE(int64_t(packets), sum->events);
        QCOMPARE(begins.size(), size_t(2 + 4 + 4)); // phases, spans, ops
        QCOMPARE(ends, int(begins.size()));
        for (const auto& [track, stack] : open)
            QVERIFY(stack.empty());
        QCOMPARE(instants, 4);
        QCOMPARE(counters, 2 * 4); // layer 0, prefill and decode, 4 experts each
        QVERIFY(begins.count({"aten::softmax", 100}) == 1);
        QVERIFY(begins.count({"decode 1", 1000}) == 1);
        QVERIFY(begins.count({"llm.layer.0", 10}) == 1);
        QVERIFY(begins.count({"llm.layer.0.attn\xEF\xBF\xBD", 20}) == 1); // the 0xFF byte: U+FFFD
        QVERIFY(process.find("run 1") == 0);
        QVERIFY(std::any_of(trackName.begin(), trackName.end(),
                            [](const auto& t) { return t.second == "ATen ops"; }));
    }

    void aFailedExportLeavesNothing() {
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        const QString out = dir.filePath(QStringLiteral("bad.json"));
        auto missing = writeChromeTrace(**reader, {99}, out.toStdString());
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.find("99") != std::string::npos);
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(out + QStringLiteral(".partial")));
        const QString nowhere = dir.filePath(QStringLiteral("no/such/folder/t.json"));
        auto unwritable = writeChromeTrace(**reader, {}, nowhere.toStdString());
        QVERIFY(!unwritable.ok());
        QCOMPARE(unwritable.error().code, ErrorCode::Io);
    }
};

QTEST_GUILESS_MAIN(TestChromeTrace)
#include "test_chrome_trace.moc"
