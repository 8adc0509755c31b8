// The flame chart's data (core/analysis/FlameChart.h): slices packed on rows
// by nesting depth, an overlapping sibling spilled one row down, and the
// level of detail folding thin slices without losing a pixel any slice
// covers (checked against painting every slice) while drawing a few boxes
// per pixel, not one per slice.
#include "core/analysis/FlameChart.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <random>

using namespace mvp;

namespace {
// Which pixels of [from, to) at nsPerPixel any slice touches, painting each.
std::vector<bool> coveredByEverySlice(const FlameRow& row, int64_t from, int64_t to, int pixels) {
    std::vector<bool> on(size_t(pixels), false);
    const double px = double(to - from) / pixels;
    for (size_t i = 0; i < row.starts.size(); ++i) {
        if (row.ends[i] < from || row.starts[i] > to) continue;
        const int a = std::clamp(int(std::floor(double(row.starts[i] - from) / px)), 0, pixels - 1);
        const int b = std::clamp(int(std::floor(double(row.ends[i] - from) / px)), 0, pixels - 1);
        for (int x = a; x <= b; ++x)
            on[size_t(x)] = true;
    }
    return on;
}
} // namespace

class TestFlameChart : public QObject {
    Q_OBJECT
private slots:
    void nestedOpsGoBelowTheirParentsAndOverlapsSpill() {
        const std::vector<PhaseRow> phases = {{Phase::Prefill, 0, 0, 1000}};
        const std::vector<ModuleRow> modules = {{1, "llm", "Decoder", std::nullopt, 0}};
        const std::vector<SpanRow> spans = {{1, 1, std::nullopt, Phase::Prefill, 0, 0, 900}};
        FlameChartBuilder b(phases, modules, spans);
        // Stored order: children before parents. Op 4 overlaps op 1 (another thread).
        OpRow child{2, 1, 1, "aten::addmm", Phase::Prefill, 0, 20, 80};
        OpRow parent{1, 1, std::nullopt, "aten::linear", Phase::Prefill, 0, 10, 100};
        OpRow grandchild{3, 1, 2, "aten::copy_", Phase::Prefill, 0, 30, 40};
        OpRow other{4, 1, std::nullopt, "aten::mul", Phase::Prefill, 0, 50, 150};
        for (const OpRow* o : {&grandchild, &child, &parent, &other})
            b.addOp(*o);
        DeviceActivityRow kernel;
        kernel.id = 1;
        kernel.name = "sgemm";
        kernel.device = 0;
        kernel.stream = 7;
        kernel.startNs = 30, kernel.endNs = 60;
        b.addActivity(kernel);
        const FlameChart c = b.finish();
        std::vector<std::string> labels;
        for (const auto& r : c.rows)
            labels.push_back(r.label);
        const std::vector<std::string> want = {"phases", "modules", "ops",
                                               "ops 1",  "ops 2",   "GPU 0 stream 7"};
        QVERIFY(labels == want);
        auto names = [&](const FlameRow& r) {
            std::vector<std::string> out;
            for (auto n : r.names)
                out.push_back(c.names[n]);
            return out;
        };
        QVERIFY(names(c.rows[2]) == std::vector<std::string>{"aten::linear"});
        QVERIFY(names(c.rows[3]) == std::vector<std::string>{"aten::addmm"});
        // aten::mul overlaps aten::linear at depth 0 and aten::addmm below it:
        // it spills to the first row down where it overlaps nothing.
        QVERIFY((names(c.rows[4]) == std::vector<std::string>{"aten::copy_", "aten::mul"}));
        QCOMPARE(c.sliceCount(), size_t(1 + 1 + 4 + 1));
        QCOMPARE(c.startNs, int64_t(0));
        QCOMPARE(c.endNs, int64_t(1000));
        QCOMPARE(c.moduleOfSpan(1), int64_t(1));
        const auto hits = findSlices(c, "ATEN::ADD", 10);
        QCOMPARE(hits.size(), size_t(1));
        for (const auto& r : c.rows)
            for (size_t i = 1; i < r.starts.size(); ++i)
                QVERIFY(r.starts[i] >= r.ends[i - 1]);
    }

    // Folding never hides a pixel some slice covers, nor paints one none does.
    void levelOfDetailKeepsEveryCoveredPixel() {
        std::mt19937_64 rng(7);
        FlameRow row;
        int64_t t = 0;
        for (int i = 0; i < 200000; ++i) {
            t += int64_t(rng() % 500);
            const int64_t len = rng() % 10 == 0 ? int64_t(rng() % 20000) : int64_t(rng() % 40);
            row.starts.push_back(t);
            row.ends.push_back(t + len);
            row.names.push_back(0);
            row.ids.push_back(i);
            t += len;
        }
        std::vector<FlameBox> boxes;
        for (const int pixels : {37, 800, 3000}) {
            for (const auto& [from, to] : {std::pair<int64_t, int64_t>{0, t},
                                           std::pair<int64_t, int64_t>{t / 3, t / 3 + 50000}}) {
                const double px = double(to - from) / pixels;
                flameBoxes(row, from, to, px, boxes);
                QVERIFY(boxes.size() <= size_t(3 * pixels)); // a few boxes per pixel, not n
                std::vector<bool> drawn(size_t(pixels), false);
                for (const auto& b : boxes) {
                    const int a =
                        std::clamp(int(std::floor(double(b.start - from) / px)), 0, pixels - 1);
                    const int e =
                        std::clamp(int(std::floor(double(b.end - from) / px)), 0, pixels - 1);
                    for (int x = a; x <= e; ++x)
                        drawn[size_t(x)] = true;
                }
                const auto want = coveredByEverySlice(row, from, to, pixels);
                int lost = 0;
                for (int x = 0; x < pixels; ++x)
                    lost += want[size_t(x)] && !drawn[size_t(x)];
                QCOMPARE(lost, 0);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFlameChart)
#include "test_flame_chart.moc"
