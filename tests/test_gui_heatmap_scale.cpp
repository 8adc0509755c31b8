// The heatmap's colour scale and patch grid on hand-built grids: a spread
// that is noise next to its size is not painted, the colour bar says what
// the colours map, patch boundaries keep their opacity, a non-square image
// keeps square patches, one scale per layer keeps small layers visible, and
// heatmaps side by side share one scale. Colours checked pixel by pixel
// against viridis at the value's place on the scale, worked by hand.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/MainWindow.h"
#include "core/image/Colormap.h"
#include "core/session/SessionWriter.h"
#include "views/ColourBar.h"
#include "views/ComparisonView.h"
#include "views/HeatmapView.h"
#include "views/SessionData.h"

#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace mvp;

namespace {

RunInfo gridRun() {
    RunInfo r;
    r.label = "baseline";
    r.model = "someone-elses-model";
    r.configJson = R"({"format": "mvprof-model"})";
    r.prompt = "?";
    r.imagePath = "grey.png";
    r.steps = 0;
    r.device = "cpu";
    r.writerPid = 1;
    r.writerHost = "elsewhere";
    r.startedUtc = "2026-12-01T00:00:00Z";
    return r;
}

// A session of one run: `image` under a 4 × 4 grid of 16-px patches (a
// 64-px model input) with these per-patch metric rows.
bool writeGrid(const QString& path, const QImage& image, std::vector<PatchMetricRow> metrics) {
    auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
    if (!w) return false;
    auto run = (*w)->beginRun(gridRun());
    if (!run) return false;
    Batch b;
    b.run = *run;
    b.phases = {{Phase::Prefill, 0, 0, 100}};
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) return false;
    b.image = ImageRow{"grey.png",    image.width(),  image.height(),
                       image.width(), image.height(), {png.begin(), png.end()}};
    b.patchGrid = PatchGridRow{4, 4, 16, 64, 1};
    b.patchMetrics = std::move(metrics);
    (*w)->submit(std::move(b));
    RunResult done;
    done.wallNs = 100;
    return (*w)->endRun(*run, done) && (*w)->close();
}

// Two metrics: attention spreading 0.4 % (100.2 … 100.6, noise next to its
// size) and answer attention 1 … 16 times `factor` (a real spread).
bool writeSpreads(const QString& path, const QImage& image, double factor = 1) {
    std::vector<PatchMetricRow> rows;
    for (int p = 0; p < 16; ++p) {
        rows.push_back({0, "attention", p, 100.2 + 0.4 * p / 15.0});
        rows.push_back({0, "answer_attention", p, factor * (1.0 + p)});
    }
    return writeGrid(path, image, std::move(rows));
}

// Answer attention over two decoder layers of very different size: layer 0
// 1 … 16 across the patches, layer 1 1000 at patch 0 and 500 elsewhere.
bool writeTwoLayers(const QString& path, const QImage& image) {
    std::vector<PatchMetricRow> rows;
    for (int p = 0; p < 16; ++p) {
        rows.push_back({0, "answer_attention", p, 1.0 + p});
        rows.push_back({1, "answer_attention", p, p == 0 ? 1000.0 : 500.0});
    }
    return writeGrid(path, image, std::move(rows));
}

} // namespace

class TestGuiHeatmapScale : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void initTestCase() { test::isolateSettings(); }
    void init() { test::failOnWarnings(); }

    // Honest colour scales: a 0.4 % spread is said to be uniform and left
    // unpainted, on either scale; a real spread is painted from 0 (absolute,
    // the default) or from its minimum (range), the colour bar's ends saying
    // which. Colours from viridis at the value's place on the scale, by hand.
    void colourScalesSayWhatTheyMap() {
        const QString path = dir.filePath(QStringLiteral("spreads.mvprof"));
        QImage grey(64, 64, QImage::Format_RGB32);
        grey.fill(QColor(128, 128, 128));
        QVERIFY(writeSpreads(path, grey));
        MainWindow w;
        QVERIFY(test::showSession(w, path, QSize(1280, 800)));
        auto* heat = test::heatmapView(w);
        auto* metric = test::find<QComboBox>(*heat, "metric");
        auto* scale = test::find<QComboBox>(*heat, "heatmapScale");
        auto infoText = [&] {
            QString all;
            for (auto* l : heat->findChildren<QLabel*>())
                all += l->text() + QLatin1Char('\n');
            return all;
        };
        test::find<QSlider>(*heat, "opacity")->setValue(100);
        metric->setCurrentIndex(metric->findData(QStringLiteral("attention")));
        for (int s = 0; s < scale->count(); ++s) {
            scale->setCurrentIndex(s);
            QTRY_VERIFY(
                !heat->recomputing()); // the per-layer grids are computed off the GUI thread
            QVERIFY2(infoText().contains(QStringLiteral("uniform within 0.4 %")),
                     qPrintable(infoText()));
            QCOMPARE(heat->overlay().convertToFormat(QImage::Format_RGB32), grey);
        }
        metric->setCurrentIndex(metric->findData(QStringLiteral("answer_attention")));
        // Pixels whose bilinear sample clamps to a corner patch: its value exactly.
        const QPoint firstPatch(7, 7), lastPatch(56, 56);
        auto near = [](QColor c, const std::array<uint8_t, 3>& want) {
            return std::abs(c.red() - want[0]) <= 2 && std::abs(c.green() - want[1]) <= 2 &&
                   std::abs(c.blue() - want[2]) <= 2;
        };
        auto* bar = test::find<views::ColourBar>(*heat, "heatmapColourBar");
        scale->setCurrentIndex(scale->findData(int(HeatScale::Absolute)));
        QVERIFY(!infoText().contains(QStringLiteral("uniform")));
        QVERIFY(near(heat->overlay().pixelColor(firstPatch), colorAt(Colormap::Viridis, 1.0 / 16)));
        QVERIFY(near(heat->overlay().pixelColor(lastPatch), colorAt(Colormap::Viridis, 1.0)));
        QCOMPARE(bar->texts().back(), QStringLiteral("0"));
        scale->setCurrentIndex(scale->findData(int(HeatScale::Range)));
        QVERIFY(near(heat->overlay().pixelColor(firstPatch), colorAt(Colormap::Viridis, 0.0)));
        QCOMPARE(bar->texts().back(), QStringLiteral("1"));
    }

    // The patch boundaries over a uniform (unpainted) grey: at full opacity
    // the line between patch columns 1 and 2 is white, at zero it is gone.
    void patchBoundariesAtTheirOpacity() {
        const QString path = dir.filePath(QStringLiteral("boundaries.mvprof"));
        QImage grey(64, 64, QImage::Format_RGB32);
        grey.fill(QColor(128, 128, 128));
        QVERIFY(writeSpreads(path, grey));
        MainWindow w;
        QVERIFY(test::showSession(w, path, QSize(1280, 800)));
        auto* heat = test::heatmapView(w);
        auto* metric = test::find<QComboBox>(*heat, "metric");
        metric->setCurrentIndex(metric->findData(QStringLiteral("attention"))); // uniform
        auto* canvas = test::find<views::HeatmapCanvas>(*heat, "heatmapCanvas");
        auto* opacity = test::find<QSlider>(*heat, "gridOpacity");
        QVERIFY(!opacity->isEnabled());
        test::find<QCheckBox>(*heat, "grid")->setChecked(true);
        QVERIFY(opacity->isEnabled());
        auto brightestOnTheLine = [&] {
            const QImage shot = canvas->grab().toImage();
            const QRect r = canvas->imageRect();
            const int x = r.x() + r.width() / 2, y = r.y() + r.height() / 3;
            int best = 0;
            for (int dx = -1; dx <= 1; ++dx)
                best = std::max(best,
                                shot.pixelColor(QPoint(x + dx, y) * shot.devicePixelRatio()).red());
            return best;
        };
        opacity->setValue(100);
        QVERIFY2(brightestOnTheLine() >= 250, qPrintable(QString::number(brightestOnTheLine())));
        opacity->setValue(0);
        QVERIFY2(brightestOnTheLine() <= 130, qPrintable(QString::number(brightestOnTheLine())));
    }

    // A 128 × 64 image under a 4 × 4 grid of square patches (the model's
    // square input): shown, and exported, resized to that square as the
    // preprocessing resized it, said so; a square image as stored.
    void nonSquareImagesKeepSquarePatches() {
        const QString path = dir.filePath(QStringLiteral("wide.mvprof"));
        QImage wide(128, 64, QImage::Format_RGB32);
        wide.fill(QColor(128, 128, 128));
        QVERIFY(writeSpreads(path, wide));
        MainWindow w;
        QVERIFY(test::showSession(w, path, QSize(1280, 800)));
        auto* heat = test::heatmapView(w);
        auto* metric = test::find<QComboBox>(*heat, "metric");
        metric->setCurrentIndex(metric->findData(QStringLiteral("answer_attention")));
        QCOMPARE(heat->overlay().size(), QSize(64, 64));
        QCOMPARE(heat->fullResolutionOverlay().size(), QSize(64, 64));
        auto* canvas = test::find<views::HeatmapCanvas>(*heat, "heatmapCanvas");
        QVERIFY(std::abs(canvas->imageRect().width() - canvas->imageRect().height()) <= 1);
        QString info;
        for (auto* l : heat->findChildren<QLabel*>())
            info += l->text();
        QVERIFY2(info.contains(QStringLiteral("128 × 64 px shown resized")), qPrintable(info));
    }

    // Per layer: each layer divided by its maximum, then averaged, worked by
    // hand — patch 0 (1/16 + 1000/1000) / 2 = 0.53125, patch 15 (16/16 +
    // 500/1000) / 2 = 0.75 — where the sum peaks at patch 0 (1001) because
    // layer 1 is larger. The legend says it is derived and unitless.
    void perLayerScaleKeepsSmallLayersVisible() {
        const QString path = dir.filePath(QStringLiteral("layers.mvprof"));
        QImage grey(64, 64, QImage::Format_RGB32);
        grey.fill(QColor(128, 128, 128));
        QVERIFY(writeTwoLayers(path, grey));
        MainWindow w;
        QVERIFY(test::showSession(w, path, QSize(1280, 800)));
        auto* heat = test::heatmapView(w);
        auto* metric = test::find<QComboBox>(*heat, "metric");
        metric->setCurrentIndex(metric->findData(QStringLiteral("answer_attention")));
        auto cell = [&](int patch) {
            const auto rows = heat->gridCsv().split(QLatin1Char('\n'));
            return rows.value(patch / 4).split(QLatin1Char(',')).value(patch % 4).toDouble();
        };
        QCOMPARE(cell(0), 1001.0);
        auto* scale = test::find<QComboBox>(*heat, "heatmapScale");
        scale->setCurrentIndex(scale->findData(int(HeatScale::PerLayer)));
        QTRY_VERIFY(!heat->recomputing() && cell(0) != 1001.0);
        QCOMPARE(cell(0), 0.53125);
        QCOMPARE(cell(15), 0.75);
        QCOMPARE(cell(5), (6.0 / 16 + 0.5) / 2);
        const auto texts = test::find<views::ColourBar>(*heat, "heatmapColourBar")->texts();
        QVERIFY2(texts.join(QLatin1Char(' ')).contains(QStringLiteral("derived")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.join(QLatin1Char(' ')).contains(QStringLiteral("each layer's maximum")));
        scale->setCurrentIndex(scale->findData(int(HeatScale::Absolute)));
        QTRY_COMPARE(cell(0), 1001.0);
    }

    // The comparison's A | B heatmaps: answer attention 1 … 16 beside 2 … 32
    // colours on one scale 0 … 32, so A's top patch is mid-scale; unlinked,
    // each fills its own. The scale choice follows across the two.
    void sideBySideHeatmapsShareOneScale() {
        QImage grey(64, 64, QImage::Format_RGB32);
        grey.fill(QColor(128, 128, 128));
        const QString a = dir.filePath(QStringLiteral("side-a.mvprof")),
                      b = dir.filePath(QStringLiteral("side-b.mvprof"));
        QVERIFY(writeSpreads(a, grey) && writeSpreads(b, grey, 2));
        auto dataA = views::loadSession(a), dataB = views::loadSession(b);
        QVERIFY(dataA && dataB);
        views::ComparisonView view;
        view.resize(1000, 600);
        view.QWidget::show(); // ComparisonView::show(result) hides it
        views::HeatmapView* sides[] = {view.heatmapA(), view.heatmapB()};
        sides[0]->setSession(*dataA);
        sides[1]->setSession(*dataB);
        for (auto* side : sides) {
            auto* metric = test::find<QComboBox>(*side, "metric");
            metric->setCurrentIndex(metric->findData(QStringLiteral("answer_attention")));
            test::find<QSlider>(*side, "opacity")->setValue(100);
        }
        auto high = [](views::HeatmapView* side) {
            const auto texts = test::find<views::ColourBar>(*side, "heatmapColourBar")->texts();
            return texts.size() >= 2 ? texts[texts.size() - 2] : QString();
        };
        const QPoint lastPatch(56, 56); // clamps to the last patch: its value exactly
        auto near = [](QColor c, const std::array<uint8_t, 3>& want) {
            return std::abs(c.red() - want[0]) <= 2 && std::abs(c.green() - want[1]) <= 2 &&
                   std::abs(c.blue() - want[2]) <= 2;
        };
        QVERIFY(sides[0]->scaleShared() && sides[1]->scaleShared());
        QCOMPARE(high(sides[0]), high(sides[1]));
        QVERIFY(near(sides[0]->overlay().pixelColor(lastPatch), colorAt(Colormap::Viridis, 0.5)));
        QVERIFY(near(sides[1]->overlay().pixelColor(lastPatch), colorAt(Colormap::Viridis, 1.0)));
        auto* scaleA = test::find<QComboBox>(*sides[0], "heatmapScale");
        scaleA->setCurrentIndex(scaleA->findData(int(HeatScale::Range)));
        QCOMPARE(test::find<QComboBox>(*sides[1], "heatmapScale")->currentData().toInt(),
                 int(HeatScale::Range));
        // Range over both: 1 … 32, A's top patch (16) at 15/31.
        QVERIFY(
            near(sides[0]->overlay().pixelColor(lastPatch), colorAt(Colormap::Viridis, 15.0 / 31)));
        test::find<QCheckBox>(view, "shareHeatmapScale")->setChecked(false);
        QVERIFY(!sides[0]->scaleShared());
        QVERIFY(high(sides[0]) != high(sides[1]));
        QVERIFY(near(sides[0]->overlay().pixelColor(lastPatch), colorAt(Colormap::Viridis, 1.0)));

        // Wide, A beside B; in a dock narrower than both, A above B, nothing
        // scrolled out of sight sideways.
        auto* tabs = test::find<QTabWidget>(view, "comparisonTabs");
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i)->isAncestorOf(sides[0])) tabs->setCurrentIndex(i);
        auto* page = qobject_cast<QScrollArea*>(tabs->currentWidget());
        QVERIFY(page && page->isAncestorOf(sides[1]));
        const int one = sides[0]->minimumSizeHint().width();
        for (const int width : {3 * one, one + 60}) {
            view.resize(width, 900);
            QApplication::processEvents();
            const bool stacked = width < 2 * one;
            QVERIFY2(stacked ? sides[1]->y() >= sides[0]->y() + sides[0]->height()
                             : sides[1]->x() >= sides[0]->x() + sides[0]->width(),
                     qPrintable(QStringLiteral("%1 px: A at %2,%3, B at %4,%5")
                                    .arg(width)
                                    .arg(sides[0]->x())
                                    .arg(sides[0]->y())
                                    .arg(sides[1]->x())
                                    .arg(sides[1]->y())));
            QVERIFY2(!page->horizontalScrollBar()->isVisible(), qPrintable(QString::number(width)));
            QVERIFY(sides[1]->width() >= sides[1]->minimumSizeHint().width());
        }
    }
};

QTEST_MAIN(TestGuiHeatmapScale)
#include "test_gui_heatmap_scale.moc"
