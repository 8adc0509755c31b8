// The join of GPU work with the ops and module spans that launched it, on
// records laid out here by hand: the innermost of nested ids wins, a missing
// span link falls back to the op's span, work without a link stays
// unattributed, and the result does not depend on the order records arrive in.
#include "core/analysis/ModuleCosts.h"
#include "core/interop/ActivityJoin.h"

#include <QTest>
#include <algorithm>
#include <map>
#include <random>

using namespace mvp;

namespace {

DeviceActivityRow row(int64_t id, ActivityKind kind, int64_t correlation, int64_t start,
                      int64_t end) {
    DeviceActivityRow r;
    r.id = id;
    r.kind = kind;
    r.correlation = correlation;
    r.startNs = start;
    r.endNs = end;
    if (onDevice(kind)) {
        r.device = 0;
        r.stream = 7;
    } else {
        r.thread = 1;
    }
    return r;
}

// Op 10 runs in span 3; op 11 (inside op 10) also. Correlation 100: a
// kernel launched inside op 11 inside probe span 5 — CUPTI reported op 10
// and op 11 both (the nesting), 11 is the innermost. 101: a kernel of op 10
// without a span link. 102: a copy with no link at all.
std::vector<DeviceActivityRow> rows() {
    return {row(1, ActivityKind::Runtime, 100, 1000, 1100),
            row(2, ActivityKind::Kernel, 100, 1200, 1700),
            row(3, ActivityKind::Runtime, 101, 1800, 1850),
            row(4, ActivityKind::Kernel, 101, 1900, 2200),
            row(5, ActivityKind::Memcpy, 102, 2300, 2400)};
}

std::vector<ExternalLink> links() {
    return {{ExternalKind::Op, 10, 100},
            {ExternalKind::Op, 11, 100},
            {ExternalKind::Span, 5, 100},
            {ExternalKind::Op, 10, 101}};
}

std::optional<int64_t> spanOfOp(int64_t op) {
    if (op == 10 || op == 11) return 3;
    return std::nullopt;
}

} // namespace

class TestActivityJoin : public QObject {
    Q_OBJECT
private slots:
    void innermostAndFallback();
    void orderDoesNotMatter();
    void noLinksLeavesRowsAlone();
    void gpuTimeAddsUpTheModuleTree();
};

void TestActivityJoin::innermostAndFallback() {
    auto r = rows();
    const JoinStats s = joinActivities(r, links(), spanOfOp);
    QCOMPARE(r[0].op, std::optional<int64_t>(11));
    QCOMPARE(r[0].span, std::optional<int64_t>(5));
    QCOMPARE(r[1].op, std::optional<int64_t>(11));
    QCOMPARE(r[1].span, std::optional<int64_t>(5));
    QCOMPARE(r[3].op, std::optional<int64_t>(10));
    QCOMPARE(r[3].span, std::optional<int64_t>(3)); // op 10's span
    QVERIFY(!r[4].op && !r[4].span);
    QCOMPARE(s.gpuWork, int64_t(3));
    QCOMPARE(s.withOp, int64_t(2));
    QCOMPARE(s.withSpan, int64_t(2));
    QCOMPARE(s.gpuNs, int64_t(500 + 300 + 100));
    QCOMPARE(s.gpuNsWithSpan, int64_t(800));
    QCOMPARE(s.apiCalls, int64_t(2));
    QCOMPARE(s.apiCallsWithOp, int64_t(2));
}

void TestActivityJoin::orderDoesNotMatter() {
    auto expected = rows();
    joinActivities(expected, links(), spanOfOp);
    std::map<int64_t, std::pair<std::optional<int64_t>, std::optional<int64_t>>> byId;
    for (const auto& r : expected)
        byId[r.id] = {r.op, r.span};
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        auto r = rows();
        auto l = links();
        std::shuffle(r.begin(), r.end(), rng);
        std::shuffle(l.begin(), l.end(), rng);
        joinActivities(r, l, spanOfOp);
        for (const auto& x : r) {
            QCOMPARE(x.op, byId[x.id].first);
            QCOMPARE(x.span, byId[x.id].second);
        }
    }
}

void TestActivityJoin::noLinksLeavesRowsAlone() {
    auto r = rows();
    const JoinStats s = joinActivities(r, {}, spanOfOp);
    for (const auto& x : r)
        QVERIFY(!x.op && !x.span);
    QCOMPARE(s.withOp, int64_t(0));
    QCOMPARE(s.gpuNsWithSpan, int64_t(0));
}

// Module A (span 1) calls B twice (spans 2, 3); B's first call calls C
// (span 4). GPU time attributed to spans, worked by hand: A = 3 + 100 + 50
// + 7 = 160, B = 100 + 7 + 50 = 157, C = 7; a span the run does not have
// adds nothing, and a damaged parent loop (spans 5 ↔ 6) ends.
void TestActivityJoin::gpuTimeAddsUpTheModuleTree() {
    std::vector<ModuleRow> modules = {{1, "a", "A", std::nullopt},
                                      {2, "a.b", "B", 1},
                                      {3, "a.b.c", "C", 2},
                                      {4, "d", "D", std::nullopt}};
    auto span = [](int64_t id, int64_t module, std::optional<int64_t> parent) {
        SpanRow s;
        s.id = id;
        s.module = module;
        s.parent = parent;
        s.endNs = 1000;
        return s;
    };
    const std::vector<SpanRow> spans = {span(1, 1, std::nullopt),
                                        span(2, 2, 1),
                                        span(3, 2, 1),
                                        span(4, 3, 2),
                                        span(5, 4, 6),
                                        span(6, 4, 5)};
    auto tree = buildModuleCosts(modules, spans, 1000);
    QVERIFY(!tree.nodes[0].deviceNs); // no GPU activity: no GPU time, not 0
    addDeviceTime(tree, spans, {{1, 3}, {2, 100}, {3, 50}, {4, 7}, {99, 1000}, {5, 1}});
    QCOMPARE(tree.nodes[0].deviceNs.value_or(-1), int64_t(160));
    QCOMPARE(tree.nodes[1].deviceNs.value_or(-1), int64_t(157));
    QCOMPARE(tree.nodes[2].deviceNs.value_or(-1), int64_t(7));
    QVERIFY(tree.nodes[3].deviceNs.has_value()); // the loop's module: counted, bounded
    QVERIFY(*tree.nodes[3].deviceNs <= int64_t(spans.size() + 1));
}

QTEST_APPLESS_MAIN(TestActivityJoin)
#include "test_activity_join.moc"
