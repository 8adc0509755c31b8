// Trace import refuses bad input (docs/interop.md §E): truncated,
// empty, non-JSON and non-trace files, wrong types, events that are no
// objects, a truncated .gz, a missing file, a folder, an existing session —
// each with a clear error naming the file and what is wrong, and nothing
// left behind (no session, no .partial), even after a good file.
#include "KinetoFixture.h"
#include "TestSupport.h"
#include "core/analysis/RunData.h"
#include "core/interop/TraceImport.h"
#include "core/session/SessionReader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <vector>

using namespace mvp;
using namespace mvp::test::kineto;

class TraceBadInputTest : public QObject {
    Q_OBJECT
private slots:
    void badInputIsRefused();
    void whatIsImportedAlwaysReads();
};

void TraceBadInputTest::badInputIsRefused() {
    QTemporaryDir dir;
    const std::string good = pathIn(dir, "good.json");
    QVERIFY(writeText(good, kinetoTrace()));
    const std::string full = kinetoTrace();
    struct Case {
        const char* name;
        std::string text;
        const char* says;
    };
    const Case cases[] = {
        {"truncated", full.substr(0, full.size() / 2), "not valid JSON at byte"},
        {"empty", "", "not valid JSON"},
        {"not json", "hello, world\n", "not valid JSON at byte"},
        {"sqlite", std::string("SQLite format 3\0\x10\x00", 19), "is a damaged SQLite file"},
        {"number", "42", "not a trace: it holds a number"},
        {"array of numbers", "[1,2,3]", "event 0 is a number, not an object"},
        {"array of arrays", R"({"traceEvents":[[1]]})", "event 0 is an array"},
        {"no events", R"({"foo":1,"bar":[1,2]})", "no traceEvents array (its keys: foo, bar)"},
        {"events object", R"({"traceEvents":{"a":1}})", "traceEvents is an object"},
        {"ts string", R"({"traceEvents":[{"ph":"X","name":"aten::mm","ts":"soon","dur":1}]})",
         "has no valid ts/dur"},
        {"negative dur", R"({"traceEvents":[{"ph":"X","name":"aten::mm","ts":1,"dur":-5}]})",
         "has no valid ts/dur"},
        {"name number", R"({"traceEvents":[{"ph":"X","name":7,"ts":1,"dur":1}]})",
         "has no name string"},
        {"no ph", R"({"traceEvents":[{"name":"x","ts":1}]})", "has no phase"},
        {"nothing to import", R"({"traceEvents":[{"ph":"M","name":"thread_name"}]})",
         "has no slices to import"},
        // A year-2001 epoch beside its negation: a span no session holds.
        {"ages apart",
         R"({"traceEvents":[{"ph":"X","name":"aten::mm","ts":-1700000000000000,"dur":1},)"
         R"({"ph":"X","name":"aten::mm","ts":1700000000000000,"dur":1}]})",
         "beyond the 13 days a session holds"},
        {"ts past int64's microseconds",
         R"({"traceEvents":[{"ph":"X","name":"aten::mm","ts":9223372036854775807,"dur":1}]})",
         "has no valid ts/dur"},
    };
    for (const auto& c : cases) {
        const std::string in = pathIn(dir, (std::string(c.name) + ".json").c_str());
        const std::string out = pathIn(dir, (std::string(c.name) + ".mvprof").c_str());
        QVERIFY(writeText(in, c.text));
        // A bad file after a good one: the whole import fails, nothing is left.
        auto r = importTraces({good, in}, out);
        QVERIFY2(!r, c.name);
        QVERIFY2(r.error().code == ErrorCode::BadInput, c.name);
        QVERIFY2(r.error().message.find(c.says) != std::string::npos,
                 (std::string(c.name) + ": " + r.error().message).c_str());
        QVERIFY2(r.error().message.find(c.name) != std::string::npos ||
                     r.error().message.find(".json") != std::string::npos,
                 c.name); // names the file
        QVERIFY2(!QFile::exists(QString::fromStdString(out)), c.name);
        QVERIFY2(!QFile::exists(QString::fromStdString(out + ".partial")), c.name);
    }
    // A .gz cut in half: zlib's complaint or the JSON's end, never a run.
    const std::string gz = pathIn(dir, "cut.json.gz"), cut = pathIn(dir, "cut.mvprof");
    QVERIFY(writeGzip(gz, kinetoTrace()));
    QFile gzFile(QString::fromStdString(gz));
    QVERIFY(gzFile.open(QIODevice::ReadOnly));
    const QByteArray gzBytes = gzFile.readAll();
    gzFile.close();
    QVERIFY(test::writeFile(QString::fromStdString(gz), gzBytes.left(gzBytes.size() / 2)));
    auto truncated = importTraces({gz}, cut);
    QVERIFY(!truncated);
    QVERIFY2(truncated.error().message.find(".gz") != std::string::npos ||
                 truncated.error().message.find("not valid JSON") != std::string::npos,
             truncated.error().message.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(cut)));

    const std::string out = pathIn(dir, "x.mvprof");
    auto missing = importTraces({pathIn(dir, "missing.json")}, out);
    QVERIFY(!missing && missing.error().code == ErrorCode::NotFound);
    auto folder = importTraces({str(dir.path())}, out);
    QVERIFY(!folder && folder.error().message.find("is a folder") != std::string::npos);
    // An existing session is kept unless overwrite is asked for.
    QVERIFY(writeText(out, "keep me"));
    auto exists = importTraces({good}, out);
    QVERIFY(!exists);
    QFile kept(QString::fromStdString(out));
    QVERIFY(kept.open(QIODevice::ReadOnly) && kept.readAll() == "keep me");
    kept.close();
    TraceImportOptions replace;
    replace.overwrite = true;
    QVERIFY(importTraces({good}, out, replace));
}

// The importer never writes what the reader refuses: the fixture's slices
// with their timestamps mutated (negated, zeroed, pushed far off, one at a
// time and all at once) are either refused as bad input, naming the file,
// or imported into a session whose every row reads back. Negative
// timestamps alone are fine: times count from the earliest slice.
void TraceBadInputTest::whatIsImportedAlwaysReads() {
    QTemporaryDir dir;
    const Json trace = Json::parse(kinetoTrace());
    const int64_t far = int64_t(1) << 51; // µs: ~71 years
    const std::vector<std::function<Json(const Json&)>> mutations = {
        [](const Json& ts) { return Json(-ts.get<double>()); },
        [](const Json&) { return Json(0); },
        [](const Json&) { return Json(-1); },
        [&](const Json&) { return Json(far); },
        [&](const Json&) { return Json(-far); },
        [](const Json& ts) { return Json(ts.get<double>() * 1e6); },
    };
    int imported = 0, refused = 0, n = 0;
    for (size_t m = 0; m < mutations.size(); ++m)
        for (int only = -1; only < 4; ++only) { // -1: every slice's ts
            Json t = trace;
            int seen = 0;
            for (auto& e : t["traceEvents"])
                if (e.value("ph", "") == "X" && e.contains("ts") && (only < 0 || seen++ == only)) {
                    const Json ts = e["ts"].is_string() ? Json(std::stod(e["ts"].get<std::string>()))
                                                        : e["ts"];
                    e["ts"] = mutations[m](ts);
                }
            const std::string name = "m" + std::to_string(n++);
            const std::string in = pathIn(dir, (name + ".json").c_str());
            const std::string out = pathIn(dir, (name + ".mvprof").c_str());
            QVERIFY(writeText(in, t.dump()));
            auto r = importTraces({in}, out);
            if (!r) {
                QVERIFY2(r.error().code == ErrorCode::BadInput && r.error().message.find(name + ".json") == 0,
                         r.error().message.c_str());
                QVERIFY(!QFile::exists(QString::fromStdString(out)));
                ++refused;
                continue;
            }
            auto reader = SessionReader::open(out);
            QVERIFY(reader.ok());
            const auto runs = (*reader)->runs();
            QVERIFY(runs.ok() && !runs->empty());
            for (const auto& run : *runs) {
                auto data = loadRunData(**reader, run.id);
                QVERIFY2(data.ok(), data.ok() ? "" : (name + ": " + data.error().message).c_str());
            }
            ++imported;
        }
    qInfo("%d mutated traces imported and read back, %d refused", imported, refused);
    QVERIFY(imported > 0 && refused > 0); // both outcomes are exercised
}

QTEST_GUILESS_MAIN(TraceBadInputTest)
#include "test_trace_bad_input.moc"
