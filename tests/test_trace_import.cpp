// Trace import (core/interop): Kineto-format traces written here from the
// documented format (pytorch/kineto output_json.cpp, profiler_kineto.cpp;
// docs/interop.md §A) import with one op per cpu_op, nesting by
// time, FLOPs from Input Dims equal to the formulas worked by hand, every
// kernel / copy / fill linked to its op, exact ns times from both timestamp
// styles, .gz like plain, a TorchScript trace's Module Hierarchy, device
// activity through an export and back. (Bad input: test_trace_bad_input;
// memory and the round trip through a capture: test_trace_cli.)
#include "KinetoFixture.h"
#include "SyntheticTrace.h"
#include "TestSupport.h"
#include "core/analysis/Analysis.h"
#include "core/interop/TraceArgs.h"
#include "core/interop/TraceImport.h"
#include "core/interop/TraceModel.h"
#include "core/report/ChromeTrace.h"
#include "core/session/SessionReader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <zlib.h>

using namespace mvp;
using interop::Json;
using namespace mvp::test::kineto;

namespace {
int64_t countOf(const std::vector<OpRow>& ops, const std::string& name) {
    return std::count_if(ops.begin(), ops.end(), [&](const OpRow& o) { return o.name == name; });
}

const OpRow* opNamed(const std::vector<OpRow>& ops, const std::string& name) {
    for (const auto& o : ops)
        if (o.name == name) return &o;
    return nullptr;
}

const RunMetricRow* metric(const std::vector<RunMetricRow>& rows, const std::string& name) {
    for (const auto& m : rows)
        if (m.name == name) return &m;
    return nullptr;
}

} // namespace

class TraceImportTest : public QObject {
    Q_OBJECT
private slots:
    void microsecondsConvertExactly();
    void kinetoArgumentsGiveTheFormulas();
    void kinetoTraceImports();
    void gzipImportsLikePlain();
    void legacyArrayNestsWithinAMicrosecond();
    void deviceActivityRoundTrips();
    void idsPast32BitsLinkAlike();
    void manyLaunchesRoundTrip();
    void torchScriptModuleHierarchyGivesSpans();
    void gpuTimePerModule();
};

void TraceImportTest::microsecondsConvertExactly() {
    using interop::microsToNs;
    QCOMPARE(microsToNs(Json("12.345")).value(), int64_t(12345));
    QCOMPARE(microsToNs(Json(12)).value(), int64_t(12000));
    QCOMPARE(microsToNs(Json("7")).value(), int64_t(7000));
    QCOMPARE(microsToNs(Json("0.5")).value(), int64_t(500));
    QCOMPARE(microsToNs(Json("12.3456")).value(), int64_t(12346)); // a 4th digit rounds
    QCOMPARE(microsToNs(Json("-1.250")).value(), int64_t(-1250));
    QCOMPARE(microsToNs(Json("1.5e3")).value(), int64_t(1500000));
    // 19 significant digits: a double would lose the nanoseconds.
    QCOMPARE(microsToNs(Json("1712345678901234.567")).value(), int64_t(1712345678901234567));
    QVERIFY(!microsToNs(Json("abc")));
    QVERIFY(!microsToNs(Json("12.3x")));
    QVERIFY(!microsToNs(Json(nullptr)));
    QVERIFY(!microsToNs(Json::array()));
}

void TraceImportTest::kinetoArgumentsGiveTheFormulas() {
    const auto mm = interop::opCall("aten::addmm", addmmArgs(1));
    QCOMPARE(mm.cost.flops.value(), kAddmmFlops);
    // Σ inputs (64 + 32·128 + 128·64 floats) + the [32,64] output, 4 bytes each.
    QCOMPARE(mm.cost.bytes, int64_t(4 * (64 + 32 * 128 + 128 * 64 + 32 * 64)));
    QCOMPARE(mm.shapes, std::string("[[64],[32,128],[128,64]]"));
    QCOMPARE(mm.dtype, std::string("Float"));

    // conv2d(x [1,3,32,32], w [8,3,3,3], b, stride 2, padding 1, dilation 1, groups 1):
    // out 16×16, 2·B·Cout·16·16·Cin·3·3.
    Json conv = {{"Input Dims",
                  {{1, 3, 32, 32},
                   {8, 3, 3, 3},
                   {8},
                   Json::array(),
                   Json::array(),
                   Json::array(),
                   Json::array()}},
                 {"Input type",
                  {"float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar"}},
                 {"Concrete Inputs", {"", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "1"}}};
    QCOMPARE(interop::opCall("aten::conv2d", conv).cost.flops.value(),
             int64_t(2) * 1 * 8 * 16 * 16 * 3 * 3 * 3);
    // Without Concrete Inputs the stride is unknown: no FLOPs rather than a guess.
    conv.erase("Concrete Inputs");
    const auto unknown = interop::opCall("aten::conv2d", conv);
    QVERIFY(!unknown.cost.flops);
    QVERIFY(unknown.unevaluated);

    // Half: 2 bytes an element.
    const Json half = {{"Input Dims", {{4, 8}, {8, 2}}},
                       {"Input type", {"c10::Half", "c10::Half"}}};
    const auto h = interop::opCall("aten::mm", half);
    QCOMPARE(h.cost.flops.value(), int64_t(2 * 4 * 2 * 8));
    QCOMPARE(h.cost.bytes, int64_t(2 * (4 * 8 + 8 * 2 + 4 * 2)));
    QCOMPARE(h.dtype, std::string("Half"));
}

void TraceImportTest::kinetoTraceImports() {
    QTemporaryDir dir;
    const std::string a = pathIn(dir, "rank1.pt.trace.json"), b = pathIn(dir, "old.json"),
                      out = pathIn(dir, "s.mvprof");
    QVERIFY(writeText(a, kinetoTrace()) && writeText(b, olderKinetoTrace()));
    auto done = importTraces({a, b}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    QCOMPARE(done->size(), size_t(2));
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto runs = (*reader)->runs();
    QVERIFY(runs && runs->size() == 2);

    const int64_t run = (*done)[0].run;
    auto ops = (*reader)->ops(run);
    QVERIFY(ops);
    QCOMPARE(int64_t(ops->size()), int64_t(4)); // one per cpu_op
    const OpRow* linear = opNamed(*ops, "aten::linear");
    const OpRow* addmm = opNamed(*ops, "aten::addmm");
    const OpRow* t = opNamed(*ops, "aten::t");
    const OpRow* copy = opNamed(*ops, "aten::copy_");
    QVERIFY(linear && addmm && t && copy);
    QCOMPARE(countOf(*ops, "aten::addmm"), int64_t(1));
    // Nesting by time; FLOPs at the innermost op with a formula, handed up.
    QVERIFY(!linear->parentOp);
    QCOMPARE(addmm->parentOp.value(), linear->id);
    QCOMPARE(t->parentOp.value(), linear->id);
    QCOMPARE(addmm->flops, kAddmmFlops);
    QCOMPARE(linear->flops, kAddmmFlops);
    QVERIFY(linear->flopsKnown && addmm->flopsKnown);
    // Exact ns on the run's clock (origin: the step's start at 100.000 µs).
    QCOMPARE(linear->startNs, int64_t(5125));
    QCOMPARE(linear->endNs - linear->startNs, int64_t(3250));

    auto modules = (*reader)->modules(run);
    QVERIFY(modules);
    std::map<std::string, std::string> kinds;
    for (const auto& m : *modules)
        kinds[m.path] = m.kind;
    const std::map<std::string, std::string> expected = {{"ProfilerStep", "record_function"},
                                                         {"ProfilerStep.Net_0", "Net"},
                                                         {"ProfilerStep.Net_0.Linear_0", "Linear"}};
    QVERIFY(kinds == expected);
    auto spans = (*reader)->spans(run);
    QVERIFY(spans && spans->size() == 3);
    auto spanOf = [&](const std::string& path) -> const SpanRow* {
        for (const auto& s : *spans)
            for (const auto& m : *modules)
                if (m.id == s.module && m.path == path) return &s;
        return nullptr;
    };
    const SpanRow* linearSpan = spanOf("ProfilerStep.Net_0.Linear_0");
    const SpanRow* netSpan = spanOf("ProfilerStep.Net_0");
    QVERIFY(linearSpan && netSpan);
    QCOMPARE(linear->span.value(), linearSpan->id);
    QCOMPARE(linearSpan->parent.value(), netSpan->id);
    QCOMPARE(linearSpan->flops, kAddmmFlops);
    QCOMPARE(netSpan->flops, kAddmmFlops);     // inclusive: copy_ has no FLOPs (0, known)
    QCOMPARE(copy->span.value(), netSpan->id); // the Python frame around it is no span

    auto acts = (*reader)->activities(run);
    QVERIFY(acts);
    QCOMPARE(int64_t(acts->size()), int64_t(5)); // 2 runtime calls, kernel, copy, fill
    for (const auto& x : *acts) {
        QVERIFY2(x.op, x.name.c_str()); // every one attributed
        const std::string opName = x.op == addmm->id  ? "aten::addmm"
                                   : x.op == copy->id ? "aten::copy_"
                                                      : "?";
        if (x.kind == ActivityKind::Kernel) {
            QCOMPARE(opName, std::string("aten::addmm"));
            QCOMPARE(x.device, 0);
            QCOMPARE(x.stream, int64_t(7));
            QCOMPARE(x.startNs, int64_t(7500));
            QCOMPARE(x.endNs - x.startNs, int64_t(4125));
            QCOMPARE(x.span.value(), linearSpan->id);
        }
        if (x.kind == ActivityKind::Memcpy) {
            QCOMPARE(opName, std::string("aten::copy_")); // through the runtime call's correlation
            QCOMPARE(x.bytes, int64_t(8192));
        }
        if (x.kind == ActivityKind::Memset) QCOMPARE(opName, std::string("aten::copy_"));
        if (x.kind == ActivityKind::Runtime) QCOMPARE(x.thread, int64_t(17));
    }

    auto metrics = (*reader)->runMetrics(run);
    QVERIFY(metrics);
    const RunMetricRow* skipped = metric(*metrics, "import.skipped");
    QVERIFY(skipped);
    QCOMPARE(skipped->value, 5.0); // python frame, unknown category, 2 flow events, 1 instant
    QVERIFY2(skipped->note.find("unknown category 'my_custom' 1") != std::string::npos,
             skipped->note.c_str());
    QVERIFY(skipped->note.find("python frames") != std::string::npos);
    QCOMPARE(metric(*metrics, "dist.rank")->value, 1.0);
    QCOMPARE(metric(*metrics, "dist.world_size")->value, 4.0);
    QCOMPARE(metric(*metrics, "import.linked")->value, 3.0);
    const RunInfo& info = (*runs)[0];
    QCOMPARE(info.device, std::string("cuda"));
    QCOMPARE(info.startedUtc, std::string("2023-11-14T22:13:20Z"));
    QVERIFY(info.configJson.find("\"world_size\":4") != std::string::npos);

    // The older trace: absolute integer µs. Its kernel carries neither External
    // id nor correlation, so it stays unattributed rather than guessed by time.
    const RunInfo& old = (*runs)[1];
    QCOMPARE(old.startedUtc, std::string("2023-11-14T22:13:20Z"));
    auto oldOps = (*reader)->ops((*done)[1].run);
    QVERIFY(oldOps && oldOps->size() == 1);
    QCOMPARE(oldOps->front().flops, int64_t(2 * 16 * 8 * 32));
    QCOMPARE(oldOps->front().endNs - oldOps->front().startNs, int64_t(20000));
    auto oldActs = (*reader)->activities((*done)[1].run);
    QVERIFY(oldActs && oldActs->size() == 1 && !oldActs->front().op);
}

// The importer keeps ids in 32 bits and those past them aside: the
// fixture's External ids and correlations moved past 2^32 (and one past
// 2^33 more) link the same work to the same ops, and the stored
// correlations are the file's.
void TraceImportTest::idsPast32BitsLinkAlike() {
    QTemporaryDir dir;
    const int64_t shift = int64_t(1) << 33;
    Json trace = Json::parse(kinetoTrace());
    for (auto& e : trace["traceEvents"])
        if (e.contains("args"))
            for (const char* key : {"External id", "correlation"})
                if (e["args"].contains(key) && e["args"][key].is_number_integer())
                    e["args"][key] = e["args"][key].get<int64_t>() + shift;
    const std::string plain = pathIn(dir, "plain.json"), wide = pathIn(dir, "wide.json");
    QVERIFY(writeText(plain, kinetoTrace()) && writeText(wide, trace.dump()));
    const std::string out = pathIn(dir, "ids.mvprof");
    auto done = importTraces({plain, wide}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    QCOMPARE((*done)[1].linked, (*done)[0].linked);
    QCOMPARE((*done)[1].linked, int64_t(3));
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto opsA = (*reader)->ops((*done)[0].run), opsB = (*reader)->ops((*done)[1].run);
    auto actsA = (*reader)->activities((*done)[0].run),
         actsB = (*reader)->activities((*done)[1].run);
    QVERIFY(opsA && opsB && actsA && actsB);
    QCOMPARE(actsB->size(), actsA->size());
    const auto opName = [](const std::vector<OpRow>& ops, std::optional<int64_t> id) {
        for (const auto& o : ops)
            if (id && o.id == *id) return o.name;
        return std::string("-");
    };
    for (size_t i = 0; i < actsA->size(); ++i) {
        const auto &a = (*actsA)[i], &b = (*actsB)[i];
        QCOMPARE(b.name, a.name);
        QCOMPARE(opName(*opsB, b.op), opName(*opsA, a.op));
        QCOMPARE(b.span.has_value(), a.span.has_value());
        QCOMPARE(b.correlation.has_value(), a.correlation.has_value());
        if (a.correlation) QCOMPARE(*b.correlation, *a.correlation + shift);
    }
}

// 1 000 launches (op, cudaLaunchKernel inside it, its kernel later on GPU 0,
// stream 7; tests/SyntheticTrace.cpp): every API call and kernel comes back
// with the times, ids and op the generator wrote — many more rows than one
// INSERT statement of the writer holds, and an odd remainder.
void TraceImportTest::manyLaunchesRoundTrip() {
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "launches.json"), out = pathIn(dir, "launches.mvprof");
    const int launches = 1001;
    QVERIFY(test::writeSyntheticTrace(in, 3 * launches, test::SyntheticMix::GpuMix));
    auto done = importTraces({in}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    QCOMPARE(done->front().linked, int64_t(launches));
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto ops = (*reader)->ops(done->front().run);
    auto acts = (*reader)->activities(done->front().run);
    QVERIFY(ops && acts);
    QCOMPARE(int64_t(ops->size()), int64_t(launches));
    QCOMPARE(int64_t(acts->size()), int64_t(2 * launches));
    std::map<int64_t, int64_t> opStart; // op id → start
    for (const auto& o : *ops)
        opStart[o.id] = o.startNs;
    std::set<int64_t> ids;
    int kernels = 0, calls = 0;
    for (const auto& a : *acts) {
        ids.insert(a.id);
        QVERIFY(a.correlation && *a.correlation >= 100000);
        const int64_t i = *a.correlation - 100000; // launch i: its op at 6·i µs
        QVERIFY(a.op && opStart.count(*a.op));
        QCOMPARE(opStart[*a.op], i * 6000);
        if (a.kind == ActivityKind::Kernel) {
            ++kernels;
            QCOMPARE(a.name, std::string("ampere_sgemm_64x32_sliced1x4_nn"));
            QCOMPARE(a.startNs, (i * 6 + 2) * 1000 + 100);
            QCOMPARE(a.endNs - a.startNs, int64_t(2000));
            QCOMPARE(a.device, 0);
            QCOMPARE(a.stream, int64_t(7));
        } else {
            ++calls;
            QCOMPARE(a.kind, ActivityKind::Runtime);
            QCOMPARE(a.name, std::string("cudaLaunchKernel"));
            QCOMPARE(a.startNs, i * 6000 + 500);
            QCOMPARE(a.endNs - a.startNs, int64_t(500));
            QCOMPARE(a.thread, int64_t(7));
        }
    }
    QCOMPARE(kernels, launches);
    QCOMPARE(calls, launches);
    QCOMPARE(int64_t(ids.size()), int64_t(2 * launches)); // every row, once
    QCOMPARE(*ids.begin(), int64_t(1));
    QCOMPARE(*ids.rbegin(), int64_t(2 * launches));
}

void TraceImportTest::gzipImportsLikePlain() {
    QTemporaryDir dir;
    const std::string gz = pathIn(dir, "t.json.gz"), out = pathIn(dir, "g.mvprof");
    QVERIFY(writeGzip(gz, kinetoTrace()));
    auto done = importTraces({gz}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto ops = (*reader)->ops(done->front().run);
    QVERIFY(ops && ops->size() == 4);
    QCOMPARE(opNamed(*ops, "aten::linear")->flops, kAddmmFlops);
    QVERIFY(looksLikeTraceFile(gz) && looksLikeTraceFile("x.pt.trace.json") &&
            !looksLikeTraceFile("x.mvprof"));
}

void TraceImportTest::legacyArrayNestsWithinAMicrosecond() {
    // The legacy export: a bare array, integer µs, no categories, empty args;
    // truncation makes a child end 1 µs after its parent.
    const std::string text =
        R"([{"name":"aten::linear","ph":"X","ts":10,"dur":20,"tid":1,"pid":"CPU functions","args":{}},)"
        R"({"name":"aten::addmm","ph":"X","ts":12,"dur":19,"tid":1,"pid":"CPU functions","args":{}},)"
        R"({"name":"my block","ph":"X","ts":5,"dur":40,"tid":1,"pid":"CPU functions","args":{}},)"
        R"({"name":"aten::relu","ph":"X","ts":35,"dur":2,"tid":1,"pid":"CPU functions","args":{}}])";
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "legacy.json"), out = pathIn(dir, "l.mvprof");
    QVERIFY(writeText(in, text));
    auto done = importTraces({in}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    QCOMPARE(done->front().ops, int64_t(3));
    QCOMPARE(done->front().spans, int64_t(1));
    auto reader = SessionReader::open(out);
    auto ops = (*reader)->ops(done->front().run);
    QVERIFY(ops);
    QCOMPARE(opNamed(*ops, "aten::addmm")->parentOp.value(), opNamed(*ops, "aten::linear")->id);
    QVERIFY(!opNamed(*ops, "aten::relu")->parentOp);
    // No shapes in the legacy export: FLOPs unknown, never 0.
    QVERIFY(!opNamed(*ops, "aten::addmm")->flopsKnown);
    QVERIFY(!opNamed(*ops, "aten::linear")->flopsKnown);
    QCOMPARE(opNamed(*ops, "aten::linear")->startNs, int64_t(5000));
}

// Imported, exported as a Chrome trace (kernels on their stream's track,
// API calls on their thread's, linked by External id), imported again:
// the same activity at the same times, launched by the same ops.
void TraceImportTest::deviceActivityRoundTrips() {
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "k.json"), first = pathIn(dir, "a.mvprof"),
                      trace = pathIn(dir, "back.json"), second = pathIn(dir, "b.mvprof");
    QVERIFY(writeText(in, kinetoTrace()));
    QVERIFY(importTraces({in}, first));
    auto a = SessionReader::open(first);
    QVERIFY(a);
    auto sum = writeChromeTrace(**a, {}, trace);
    QVERIFY2(sum, sum ? "" : sum.error().message.c_str());
    QCOMPARE(sum->activities, int64_t(5));
    auto back = importTraces({trace}, second);
    QVERIFY2(back, back ? "" : back.error().message.c_str());
    auto b = SessionReader::open(second);
    QVERIFY(b);
    // name, kind, start, end, the launching op's name
    using Key = std::tuple<std::string, ActivityKind, int64_t, int64_t, std::string>;
    auto keys = [](SessionReader& r, int64_t run) {
        std::vector<Key> out;
        auto ops = r.ops(run);
        auto acts = r.activities(run);
        std::map<int64_t, std::string> opName;
        for (const auto& o : *ops)
            opName[o.id] = o.name;
        for (const auto& x : *acts)
            out.emplace_back(x.name, x.kind, x.startNs, x.endNs, x.op ? opName[*x.op] : "");
        std::sort(out.begin(), out.end());
        return out;
    };
    const auto ka = keys(**a, 1), kb = keys(**b, back->front().run);
    QCOMPARE(kb.size(), ka.size());
    QVERIFY(ka == kb);
    QVERIFY(
        std::all_of(kb.begin(), kb.end(), [](const Key& k) { return !std::get<4>(k).empty(); }));
}

// A TorchScript model's trace has no module events: its ops carry "Module
// Hierarchy" (with_modules=True). Ops sharing a prefix make that module's span.
void TraceImportTest::torchScriptModuleHierarchyGivesSpans() {
    auto op = [](const char* name, const char* ts, const char* dur, const char* hierarchy) {
        return slice("cpu_op", name, ts, dur, 1, 1,
                     {{"Module Hierarchy", hierarchy}, {"Input Dims", Json::array()}});
    };
    Json ev = Json::array();
    ev.push_back(op("aten::conv2d", "10.000", "5.000", "TOP(Net)::forward.conv1(Conv2d)::forward"));
    ev.push_back(op("aten::relu", "16.000", "1.000", "TOP(Net)::forward"));
    ev.push_back(op("aten::linear", "18.000", "4.000", "TOP(Net)::forward.fc(Linear)::forward"));
    ev.push_back(op("aten::addmm", "18.500", "3.000", "TOP(Net)::forward.fc(Linear)::forward"));
    ev.push_back(op("aten::mul", "23.000", "1.000",
                    "TOP(Net)::forward.SELF(Net)::helper.CALL_FUNCTION()::scale"));
    QTemporaryDir dir;
    const std::string in = pathIn(dir, "script.json"), out = pathIn(dir, "s.mvprof");
    QVERIFY(writeText(in, Json{{"traceEvents", ev}}.dump()));
    auto done = importTraces({in}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    auto reader = SessionReader::open(out);
    auto modules = (*reader)->modules(1);
    auto spans = (*reader)->spans(1);
    auto ops = (*reader)->ops(1);
    QVERIFY(modules && spans && ops);
    std::map<std::string, std::string> kinds;
    std::map<int64_t, std::string> pathOf;
    for (const auto& m : *modules)
        kinds[m.path] = m.kind, pathOf[m.id] = m.path;
    const std::map<std::string, std::string> want = {
        {"Net", "Net"}, {"Net.conv1", "Conv2d"}, {"Net.fc", "Linear"}};
    QVERIFY(kinds == want);
    std::map<std::string, std::pair<int64_t, int64_t>> spanOf;
    std::map<int64_t, std::string> pathOfSpan;
    for (const auto& s : *spans) {
        spanOf[pathOf[s.module]] = {s.startNs, s.endNs};
        pathOfSpan[s.id] = pathOf[s.module];
    }
    QCOMPARE(spans->size(), size_t(3));
    // Times on the run's clock (origin 10 µs): Net covers every op, fc its two.
    QVERIFY((spanOf["Net"] == std::pair<int64_t, int64_t>{0, 14000}));
    QVERIFY((spanOf["Net.conv1"] == std::pair<int64_t, int64_t>{0, 5000}));
    QVERIFY((spanOf["Net.fc"] == std::pair<int64_t, int64_t>{8000, 12000}));
    QCOMPARE(pathOfSpan[opNamed(*ops, "aten::addmm")->span.value()], std::string("Net.fc"));
    QCOMPARE(pathOfSpan[opNamed(*ops, "aten::relu")->span.value()], std::string("Net"));
    QCOMPARE(pathOfSpan[opNamed(*ops, "aten::mul")->span.value()], std::string("Net"));
}

// The fixture's GPU work, worked by hand from its timestamps: the GEMM
// kernel (4.125 µs) was launched by aten::addmm inside Linear_0; the copy
// (1.5 µs, by correlation) and the fill (0.5 µs, External id 13) by
// aten::copy_, inside Net_0 after Linear_0 ended. So Linear_0 launched
// 4125 ns of GPU time, Net_0 and the step 6125 ns.
void TraceImportTest::gpuTimePerModule() {
    QTemporaryDir dir;
    const std::string trace = pathIn(dir, "t.json"), out = pathIn(dir, "s.mvprof");
    QVERIFY(writeText(trace, kinetoTrace()));
    auto done = importTraces({trace}, out);
    QVERIFY2(done, done ? "" : done.error().message.c_str());
    auto reader = SessionReader::open(out);
    QVERIFY(reader);
    auto data = loadRunData(**reader, (*done)[0].run);
    QVERIFY2(data, data ? "" : data.error().message.c_str());
    const auto analysis = analyseRun(*data, {});
    std::map<std::string, int64_t> gpu;
    for (const auto& n : analysis.modules.nodes) {
        const std::string last = n.module.path.substr(n.module.path.rfind('.') + 1);
        gpu[last] = n.deviceNs.value_or(-1);
    }
    QCOMPARE(gpu["Linear_0"], int64_t(4125));
    QCOMPARE(gpu["Net_0"], int64_t(6125));
    QCOMPARE(gpu["ProfilerStep"], int64_t(6125));
}

QTEST_GUILESS_MAIN(TraceImportTest)
#include "test_trace_import.moc"
