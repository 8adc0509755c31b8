// GUI responsiveness on a big session (offscreen): the longest event-loop
// stall while a session of N ops (argument; 10 M by default) opens, the time
// to the first paint of its views, the timeline's redraw time for 1 M
// gate/expert spans and the flame chart's for N slices. Prints measured
// figures; no thresholds.
#include "SyntheticSession.h"
#include "app/gui/MainWindow.h"
#include "core/analysis/Timeline.h"
#include "views/FlameChartView.h"
#include "views/TimelineView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <qcustomplot.h>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int64_t ops = argc > 1 ? std::max<int64_t>(1000, std::atoll(argv[1])) : 10'000'000;
    const auto path = (std::filesystem::temp_directory_path() / "mvprof-bench-gui.mvprof").string();
    if (const auto err = mvp::bench::writeSyntheticSession(path, ops, ops / 50, ops / 100);
        !err.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 1;
    }
    mvp::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QApplication::processEvents();

    // A 1 ms timer measures how long the event loop goes without turning.
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer tick;
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    QSignalSpy loaded(&w, &mvp::MainWindow::sessionLoaded);
    clock.start();
    tick.start();
    w.openSession(QString::fromStdString(path));
    if (!loaded.wait(120000)) {
        std::fprintf(stderr, "the session did not load\n");
        return 1;
    }
    QApplication::processEvents();
    w.repaint();
    const qint64 firstPaint = clock.elapsed();
    tick.stop();

    // The timeline with a million gate/expert spans: 8 layers × (gate + 8 experts).
    mvp::Timeline big;
    for (int l = 0; l < 8; ++l)
        for (int e = -1; e < 8; ++e) {
            mvp::TimelineLane lane;
            lane.layer = l;
            lane.expert = e;
            lane.label = "L" + std::to_string(l) + (e < 0 ? " gate" : " e" + std::to_string(e));
            for (int64_t i = 0; i < 1'000'000 / 72; ++i) {
                lane.starts.push_back(i * 720 + (e + 1) * 80);
                lane.ends.push_back(i * 720 + (e + 1) * 80 + 60);
            }
            big.lanes.push_back(std::move(lane));
        }
    big.endNs = 1'000'000 / 72 * 720;
    auto* timeline = w.findChild<mvp::views::TimelineView*>(QStringLiteral("timelineView"));
    timeline->setTimeline(std::move(big));
    QElapsedTimer t;
    t.start();
    timeline->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const qint64 redraw = t.elapsed();
    const size_t boxesAll = timeline->boxesDrawn();
    // Zoomed in to a thousandth of the run: real boxes, no folding.
    timeline->showRange(0, double(1'000'000 / 72 * 720) / 1e6 / 1000.0);
    t.restart();
    timeline->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const qint64 redrawZoomed = t.elapsed();
    // The flame chart with as many slices as the session has ops: 10 nested op rows.
    mvp::FlameChart flame;
    flame.names = {"aten::linear", "aten::addmm", "aten::mul", "aten::softmax"};
    const int64_t kSlices = ops / 10;
    for (int depth = 0; depth < 10; ++depth) {
        mvp::FlameRow row;
        row.kind = mvp::FlameKind::Op;
        row.depth = depth;
        row.label = "ops " + std::to_string(depth);
        for (int64_t i = 0; i < kSlices; ++i) {
            row.starts.push_back(i * 1000 + depth * 20);
            row.ends.push_back(i * 1000 + 900 - depth * 20);
            row.names.push_back(uint32_t((i + depth) % 4));
            row.ids.push_back(i);
        }
        flame.rows.push_back(std::move(row));
    }
    flame.endNs = kSlices * 1000;
    auto* flameView = w.findChild<mvp::views::FlameChartView*>(QStringLiteral("flameChartView"));
    flameView->setChart(std::move(flame));
    auto* canvas = flameView->canvas();
    canvas->resize(1400, canvas->sizeHint().height());
    (void)canvas->grab();
    const double flameAll = canvas->lastPaintMs();
    const size_t flameBoxesAll = canvas->boxesDrawn();
    canvas->setRange(0, kSlices * 1000 / 1000);
    (void)canvas->grab();
    const double flameZoomed = canvas->lastPaintMs();
    std::filesystem::remove(path);
    std::printf("GUI on a session of %lld ops, %lld spans, %lld routing rows (offscreen)\n",
                static_cast<long long>(ops), static_cast<long long>(ops / 100),
                static_cast<long long>(ops / 50));
    std::printf("  first paint after open      %lld ms (measured; target < 1000)\n",
                static_cast<long long>(firstPaint));
    std::printf("  longest event-loop stall    %lld ms (measured) while loading\n",
                static_cast<long long>(worst));
    std::printf("  timeline redraw, %zu spans: whole run %lld ms (%zu boxes), zoomed ×1000 %lld ms "
                "(%zu boxes) (measured)\n",
                timeline->timeline().spanCount(), static_cast<long long>(redraw), boxesAll,
                static_cast<long long>(redrawZoomed), timeline->boxesDrawn());
    std::printf("  flame chart redraw, %zu slices: whole run %.1f ms (%zu boxes), zoomed ×1000 "
                "%.1f ms (%zu boxes) (measured)\n",
                flameView->chart().sliceCount(), flameAll, flameBoxesAll, flameZoomed,
                canvas->boxesDrawn());
    return 0;
}
