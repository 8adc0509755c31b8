// The trace importer's own JSON parser (core/interop/TraceJson.h) against
// nlohmann's, the reference: on thousands of byte-level mutations of a
// Kineto trace, compact and pretty-printed, it refuses as invalid JSON
// exactly what nlohmann refuses, and where both read the file it hands over
// the events nlohmann sees (names decoded, numbers' text kept). Also: events
// that straddle its window or outgrow it, escapes and surrogate pairs,
// invalid UTF-8, nesting, and text after the end.
#include "KinetoFixture.h"
#include "core/interop/TraceJson.h"
#include "core/interop/TraceStream.h"

#include <QTemporaryDir>
#include <QTest>
#include <random>
#include <string>
#include <vector>

using namespace mvp;
using namespace mvp::test::kineto;
using interop::JsonField;
using interop::TraceEvent;

namespace {
struct Seen {
    std::string ph, name, cat, ts, dur, dims; // as read ("" when missing)
};

struct Parsed {
    bool ok = false;
    std::string error;
    std::vector<Seen> events;
    std::vector<std::string> metaKeys;
};

Parsed parseFile(const std::string& path) {
    Parsed out;
    auto stream = interop::TraceStream::open(path);
    if (!stream) {
        out.error = stream.error().message;
        return out;
    }
    interop::TraceJsonSink sink;
    sink.event = [&](const TraceEvent& e, int64_t) -> Status {
        const auto text = [](const JsonField& f) { return std::string(f.text); };
        out.events.push_back({text(e.ph), text(e.name), text(e.cat), text(e.ts), text(e.dur),
                              std::string(e.args.inputDims.raw)});
        return Ok{};
    };
    sink.meta = [&](const std::string& key, Json&&) { out.metaKeys.push_back(key); };
    auto r = interop::parseTraceJson(**stream, "t.json", sink);
    out.ok = bool(r);
    if (!r) out.error = r.error().message;
    return out;
}

Parsed parseText(const QTemporaryDir& dir, const std::string& text) {
    const std::string path = pathIn(dir, "t.json");
    if (!writeText(path, text)) return {};
    return parseFile(path);
}

// What the reference reads from an event member: a string's value, a
// number's shortest text.
std::string reference(const Json& event, const char* key) {
    const auto it = event.find(key);
    if (it == event.end()) return "";
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number()) return it->dump();
    return "";
}
} // namespace

class TraceJsonTest : public QObject {
    Q_OBJECT
private slots:
    void readsWhatNlohmannReads();
    void mutationsAgreeWithNlohmann();
    void eventsAcrossAndBeyondTheWindow();
    void stringsDecodeLikeNlohmann();
    void badTextIsRefusedWithItsOffset();
};

void TraceJsonTest::readsWhatNlohmannReads() {
    QTemporaryDir dir;
    for (const int indent : {-1, 2}) {
        const Json trace = Json::parse(kinetoTrace());
        const Parsed p = parseText(dir, trace.dump(indent));
        QVERIFY2(p.ok, p.error.c_str());
        const Json& events = trace["traceEvents"];
        QCOMPARE(p.events.size(), events.size());
        for (size_t i = 0; i < events.size(); ++i) {
            QCOMPARE(p.events[i].ph, reference(events[i], "ph"));
            QCOMPARE(p.events[i].name, reference(events[i], "name"));
            QCOMPARE(p.events[i].cat, reference(events[i], "cat"));
            // Numbers keep the file's text: nlohmann prints back the same digits.
            QCOMPARE(p.events[i].ts, reference(events[i], "ts"));
            QCOMPARE(p.events[i].dur, reference(events[i], "dur"));
            const auto args = events[i].find("args");
            if (args != events[i].end() && args->contains("Input Dims"))
                QVERIFY(Json::parse(p.events[i].dims) == (*args)["Input Dims"]);
        }
        std::vector<std::string> keys;
        for (const auto& [k, v] : trace.items())
            if (k != "traceEvents") keys.push_back(k);
        std::sort(keys.begin(), keys.end());
        std::vector<std::string> seen = p.metaKeys;
        std::sort(seen.begin(), seen.end());
        QCOMPARE(seen, keys);
    }
}

// Each mutation deletes, inserts or replaces one byte (from JSON's
// structural characters, digits, letters, quotes, backslashes, control and
// non-ASCII bytes). Refused by the parser whenever nlohmann refuses the
// text, and never called invalid JSON when nlohmann reads it; where both
// read it, the same events.
void TraceJsonTest::mutationsAgreeWithNlohmann() {
    QTemporaryDir dir;
    const std::string alphabet = "{}[],:\"\\ \n0123456789.-+eEtrufalsn\x01\x7f\xc3\xa9\xff\xed";
    std::mt19937 rng(20261207);
    int refused = 0, read = 0, checked = 0;
    for (const int indent : {-1, 1}) {
        const std::string base = Json::parse(kinetoTrace()).dump(indent);
        for (int m = 0; m < 1500; ++m) {
            std::string text = base;
            const size_t at = rng() % text.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 3) {
            case 0:
                text.erase(at, 1);
                break;
            case 1:
                text.insert(at, 1, c);
                break;
            default:
                text[at] = c;
            }
            const Parsed p = parseText(dir, text);
            Json ref = Json::parse(text, nullptr, false);
            const bool valid = !ref.is_discarded();
            const bool saysInvalid = p.error.find("not valid JSON") != std::string::npos;
            const std::string what = std::to_string(m) + ": nlohmann " +
                                     (valid ? "reads" : "refuses") +
                                     " it; parser: " + (p.ok ? "read it" : p.error);
            if (valid)
                QVERIFY2(!saysInvalid, what.c_str());
            else // refused, as invalid JSON or for what it held before the breach
                QVERIFY2(!p.ok, what.c_str());
            ++checked;
            if (!valid) {
                ++refused;
                continue;
            }
            if (!p.ok || !ref.is_object() || !ref.contains("traceEvents")) continue;
            ++read;
            const Json& events = ref["traceEvents"];
            QCOMPARE(p.events.size(), events.size());
            for (size_t i = 0; i < events.size(); ++i) {
                QCOMPARE(p.events[i].name, reference(events[i], "name"));
                QCOMPARE(p.events[i].ph, reference(events[i], "ph"));
            }
        }
    }
    std::printf("%d mutations: %d refused by both, %d read alike\n", checked, refused, read);
    QVERIFY(refused > 300 && read > 300); // both kinds were exercised
}

// The parser reads the file through a 4 MiB window: events that straddle
// its edge are read whole; an event larger than the window grows it (up to
// 16 MiB); a larger one is refused.
void TraceJsonTest::eventsAcrossAndBeyondTheWindow() {
    QTemporaryDir dir;
    Json events = Json::array();
    for (int i = 0; i < 40000; ++i) // ~5 MiB: the window's edge falls inside an event
        events.push_back(slice("cpu_op", "aten::op" + std::to_string(i), i, 1, 1, 1,
                               {{"Input Dims", {{i, 3}}}}));
    Json big = Json::array();
    for (int i = 0; i < 1'000'000; ++i) // ~7 MB of numbers in one event
        big.push_back(i);
    events.insert(events.begin() + 20000,
                  slice("cpu_op", "aten::big", 0, 1, 1, 1, {{"Input Dims", big}}));
    const Parsed p = parseText(dir, Json{{"traceEvents", events}}.dump());
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.events.size(), events.size());
    for (size_t i = 0; i < events.size(); i += 997)
        QCOMPARE(p.events[i].name, events[i]["name"].get<std::string>());
    QCOMPARE(p.events[20000].name, std::string("aten::big"));
    QVERIFY(Json::parse(p.events[20000].dims) == big);
    QCOMPARE(p.events.back().name, std::string("aten::op39999"));

    for (int i = 0; i < 1'500'000; ++i) // now past 16 MiB
        big.push_back(1000000 + i);
    Json one = Json::array();
    one.push_back(slice("cpu_op", "aten::big", 0, 1, 1, 1, {{"Input Dims", big}}));
    const Parsed tooBig = parseText(dir, Json{{"traceEvents", one}}.dump());
    QVERIFY(!tooBig.ok);
    QVERIFY2(tooBig.error.find("larger than 16 MiB") != std::string::npos, tooBig.error.c_str());
}

void TraceJsonTest::stringsDecodeLikeNlohmann() {
    QTemporaryDir dir;
    const std::string name = R"(\"q\" \\ \/ \b\f\n\r\t \u00e9 \u4e2d \ud83d\ude00 é)";
    const std::string text =
        R"({"traceEvents":[{"ph":"X","name":")" + name + R"(","ts":1,"dur":1}]})";
    const Parsed p = parseText(dir, text);
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.events.at(0).name, Json::parse(text)["traceEvents"][0]["name"].get<std::string>());
    for (const char* bad : {R"(\ud83d)", R"(\ude00)", R"(\ud83d\u0041)", "\xc3", "\xed\xa0\x80",
                            "\xe0\x80\x80", "\xf5\x80\x80\x80", "\t"}) {
        const std::string t =
            std::string(R"({"traceEvents":[{"ph":"X","name":"a)") + bad + R"(","ts":1,"dur":1}]})";
        const Parsed q = parseText(dir, t);
        QVERIFY2(!q.ok && q.error.find("not valid JSON") != std::string::npos, bad);
        QVERIFY2(Json::parse(t, nullptr, false).is_discarded(), bad); // the reference agrees
    }
}

void TraceJsonTest::badTextIsRefusedWithItsOffset() {
    QTemporaryDir dir;
    const std::string good = R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1}]})";
    const Parsed trailing = parseText(dir, good + " x");
    QVERIFY(!trailing.ok);
    QVERIFY2(trailing.error.find("not valid JSON at byte " + std::to_string(good.size() + 1)) !=
                 std::string::npos,
             trailing.error.c_str());
    const Parsed deep = parseText(dir, R"({"traceEvents":[{"ph":"X","args":)" +
                                           std::string(600, '[') + std::string(600, ']') + "}]}");
    QVERIFY(!deep.ok && deep.error.find("nest more than 512 deep") != std::string::npos);
    const Parsed cut = parseText(dir, good.substr(0, 30));
    QVERIFY(!cut.ok);
    QVERIFY2(cut.error.find("not valid JSON at byte 30 (the file ends") != std::string::npos,
             cut.error.c_str());
}

QTEST_APPLESS_MAIN(TraceJsonTest)
#include "test_trace_json.moc"
