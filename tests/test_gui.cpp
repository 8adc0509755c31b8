// The GUI on a real captured session, under QT_QPA_PLATFORM=offscreen (its
// captures: test_gui_capture).
// Fails on any Qt warning except the offscreen platform's own size-hint notice.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/Appearance.h"
#include "app/gui/MainWindow.h"
#include "core/image/Colormap.h"
#include "core/session/LiveRuns.h"
#include "core/session/SessionReader.h"
#include "views/ColourBar.h"
#include "views/ExpertLoadView.h"
#include "views/FindingsModel.h"
#include "views/FindingsView.h"
#include "views/HeatmapView.h"
#include "views/LiveRunsModel.h"
#include "views/ModuleTreeModel.h"
#include "views/ModuleTreeView.h"
#include "views/PlacementDialog.h"
#include "views/RooflineView.h"
#include "views/RunsView.h"
#include "views/SessionData.h"
#include "views/TimelineView.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QTreeView>
#include <QUrl>
#include <qcustomplot.h>
#include <set>

using namespace mvp;

using test::showSession;

class TestGui : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;

private slots:
    void initTestCase() {
        test::isolateSettings();
        session = dir.filePath(QStringLiteral("gui.mvprof"));
        const auto r = test::runCli(
            {QStringLiteral("capture"), QStringLiteral("--image"), test::sampleImage(),
             QStringLiteral("--out"), session, QStringLiteral("--steps"), QStringLiteral("3"),
             // A strong skew leaves experts cold: the findings then point at the expert view.
             QStringLiteral("--routing-skew"), QStringLiteral("8")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    void init() { test::failOnWarnings(); }

    void moduleTreeModelIsAWellBehavedModel() {
        auto data = views::loadSession(session);
        QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
        views::ModuleTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree((*data)->analysis.modules);
        QCOMPARE(model.rowCount(), 3); // vision, projector, llm
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(views::ModuleTreeModel::TotalMs, Qt::DescendingOrder);

        views::FindingsModel findings;
        QAbstractItemModelTester findingsTester(
            &findings, QAbstractItemModelTester::FailureReportingMode::QtTest);
        findings.setFindings((*data)->analysis.findings);
        QCOMPARE(findings.rowCount(), int((*data)->analysis.findings.size()));
        views::RunsModel runs;
        QAbstractItemModelTester runsTester(&runs,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        runs.setRuns((*data)->runs, (*data)->runId);
        QCOMPARE(runs.rowCount(), 1);
        views::LiveRunsModel live;
        QAbstractItemModelTester liveTester(&live,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        live.setRuns(
            {LiveRun{1, "h", "/a.mvprof", "ref:tiny", "2026-11-29T10:00:00Z", 1, false, "/x"},
             LiveRun{2, "h", "/b.mvprof", "ref:small", "2026-11-29T09:00:00Z", 1, true, "/y"}});
        QCOMPARE(live.rowCount(), 2);
        QCOMPARE(live.index(1, views::LiveRunsModel::State).data().toString(),
                 QStringLiteral("stale (process gone)"));
    }

    void findingNavigatesToTheExpertView() {
        MainWindow w;
        QVERIFY(showSession(w, session, {1400, 900}));
        auto* table = test::findingsView(w)->table();
        const auto& all = w.session()->analysis.findings;
        QCOMPARE(table->model()->rowCount(), int(all.size()));
        // Activate the finding about layer 1's experts, as a double-click would.
        int row = -1;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()
                    ->index(r, views::FindingsModel::Title)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("Layer 1:")))
                row = r;
        QVERIFY2(row >= 0, "no finding about layer 1");
        QCOMPARE(test::expertLoadView(w)->layerBox()->currentData().toInt(), 0);
        emit table->activated(table->model()->index(row, 0));
        QCOMPARE(test::expertLoadView(w)->layerBox()->currentData().toInt(), 1);

        // The bars count exactly the layer's routing slots.
        int64_t slotCount = 0;
        for (const auto& r : w.session()->data.routing)
            slotCount += r.layer == 1;
        QCOMPARE(test::expertLoadView(w)->shown().total.tokens, slotCount);
        QVERIFY(test::expertLoadView(w)->barsPlot()->plottableCount() >= 2);
        // Legends beside the data, below the axes (no bar, point or roof behind them); the
        // layer × expert Z grid has its colour scale.
        for (QCustomPlot* plot :
             {test::expertLoadView(w)->barsPlot(), test::rooflineView(w)->plot()}) {
            plot->replot();
            QVERIFY(plot->legend->visible());
            QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->outerRect()));
        }
        QCPColorScale* zScale = nullptr;
        for (QCPLayoutElement* e :
             test::expertLoadView(w)->zGridPlot()->plotLayout()->elements(false))
            if (auto* s = qobject_cast<QCPColorScale*>(e)) zScale = s;
        QVERIFY(zScale && zScale->axis()->label().contains(QStringLiteral("Z-score")));
        test::expertLoadView(w)->phaseBox()->setCurrentIndex(2);                 // decode only
        QCOMPARE(test::expertLoadView(w)->shown().total.tokens, int64_t(3 * 2)); // 3 steps × top-2

        QCOMPARE(test::runsView(w)->table()->model()->rowCount(), 1);
        // The run's prompt and generated text, as the session stores them.
        const RunInfo& run = w.session()->data.run;
        const auto* runs = test::runsView(w)->table()->model();
        QCOMPARE(runs->index(0, views::RunsModel::Prompt).data().toString(),
                 QString::fromStdString(run.prompt));
        QVERIFY(!run.outputText.empty());
        const QString shown = runs->index(0, views::RunsModel::Output).data().toString();
        QCOMPARE(shown.size(), QString::fromStdString(run.outputText).size());
        for (const QChar c : shown)
            QVERIFY(c.category() != QChar::Other_Control);

        // Clicking a patch selects its token in the expert view: its routing is named and outlined.
        auto* canvas = test::find<views::HeatmapCanvas>(*test::heatmapView(w), "heatmapCanvas");
        const QRect img = canvas->imageRect();
        const QPoint patch37(img.x() + int((5 + 0.5) * img.width() / 16),
                             img.y() + int((2 + 0.5) * img.height() / 16));
        QTest::mouseClick(canvas, Qt::LeftButton, {}, patch37);
        QCOMPARE(test::heatmapView(w)->selectedPatch(), 2 * 16 + 5);
        QCOMPARE(test::expertLoadView(w)->selectedToken(), w.session()->grid->firstPosition + 37);
        QVERIFY2(test::expertLoadView(w)->tokenRouting().contains(QStringLiteral("L1 → e")),
                 qPrintable(test::expertLoadView(w)->tokenRouting()));
        QCOMPARE(test::timelineView(w)->highlightedLanes(),
                 2 * 2); // top-2 experts in each of the two MoE layers
        // One numbering: the hover names the patch and its token as the expert view does,
        // each metric with its unit and provenance, in a tooltip at the cursor.
        const QString read = test::heatmapView(w)->describePatch(37);
        const int token37 = w.session()->grid->firstPosition + 37;
        QVERIFY2(
            read.contains(QStringLiteral("Patch 37 (row 2, column 5) · token %1").arg(token37)),
            qPrintable(read));
        QVERIFY2(read.contains(QRegularExpression(QStringLiteral("Expert FLOPs: [0-9.]+ [kMG]?FLOP "
                                                                 "\\(estimated\\)"))),
                 qPrintable(read));
        QVERIFY(test::expertLoadView(w)->tokenRouting().contains(
            QStringLiteral("Selected token %1 (patch 37)").arg(token37)));
        // Where patch 37 is now: the selection's read-outs may move the docks,
        // and with them the image, since the click — and again while the
        // layout settles under load: each try hovers where the patch is then.
        const auto hoverPatch37 = [&] {
            const QRect now = canvas->imageRect();
            QTest::mouseMove(canvas, QPoint(now.x() + int((5 + 0.5) * now.width() / 16),
                                            now.y() + int((2 + 0.5) * now.height() / 16)));
            return QToolTip::isVisible() && QToolTip::text().startsWith(QStringLiteral("Patch 37 "));
        };
        QTRY_VERIFY2(hoverPatch37(), qPrintable(QToolTip::text()));

        // Timeline: per MoE layer a gate lane and one per expert; keys zoom.
        auto* timeline = test::timelineView(w);
        QCOMPARE(timeline->timeline().lanes.size(), size_t(2 * (1 + 4)));
        QVERIFY(timeline->boxesDrawn() > 0);
        const QCPRange before = timeline->plot()->xAxis->range();
        QTest::keyClick(timeline->plot(), Qt::Key_Plus);
        QVERIFY(timeline->plot()->xAxis->range().size() < before.size());
        QTest::keyClick(timeline->plot(), Qt::Key_Home);
        QCOMPARE(timeline->plot()->xAxis->range().lower, 0.0); // Home shows the whole run
        QCOMPARE(timeline->plot()->xAxis->range().upper, before.upper);
        // The phases in a strip above the lanes (behind them, prefill yellow
        // tinted whole expert lanes); selected lanes in the highlight colour.
        int strips = 0, shaded = 0;
        for (int i = 0; i < timeline->plot()->itemCount(); ++i) {
            auto* r = qobject_cast<QCPItemRect*>(timeline->plot()->item(i));
            if (!r) continue;
            if (r->brush().color() == timeline->highlightColour()) {
                ++shaded;
                continue;
            }
            ++strips;
            QVERIFY(r->topLeft->coords().y() < -0.5 && r->bottomRight->coords().y() < -0.5);
        }
        QVERIFY(strips >= 2); // the prefill and a decode step at least
        QCOMPARE(shaded, 2 * 2);
        // Raised, its dock grows from the findings' strip toward its lanes.
        auto* timelineDock = qobject_cast<QDockWidget*>(timeline->parentWidget());
        QVERIFY(timelineDock);
        timelineDock->raise();
        // (the central view's minimum may keep it a little short of that).
        QTRY_VERIFY2(timelineDock->height() >=
                         0.8 * std::min(timeline->preferredHeight(), w.height() / 2),
                     qPrintable(QStringLiteral("%1 of %2")
                                    .arg(timelineDock->height())
                                    .arg(timeline->preferredHeight())));
        // Roofline: one point per module with time; clicking one selects it in the cost tree.
        auto* roofline = test::rooflineView(w);
        qobject_cast<QDockWidget*>(roofline->parentWidget())->raise();
        QApplication::processEvents();
        roofline->plot()->replot();
        QVERIFY(roofline->points().size() >= 3);
        const auto& p0 = roofline->points().front();
        const QPoint at(int(roofline->plot()->xAxis->coordToPixel(p0.intensity)),
                        int(roofline->plot()->yAxis->coordToPixel(p0.achievedFlops)));
        QCOMPARE(roofline->pointAt(at), 0);
        QTest::mouseRelease(roofline->plot(), Qt::LeftButton, {}, at);
        const QModelIndex current = test::moduleTreeView(w)->tree()->currentIndex();
        QCOMPARE(current.data(views::ModuleTreeModel::SortRole).toString(),
                 QString::fromStdString(p0.name));

        // packaging/make-screenshots.sh sets MVP_SCREENSHOT_DIR: one picture per view.
        const QString shots =
            QProcessEnvironment::systemEnvironment().value(QStringLiteral("MVP_SCREENSHOT_DIR"));
        if (!shots.isEmpty()) {
            test::expertLoadView(w)->phaseBox()->setCurrentIndex(0);
            const std::pair<QWidget*, const char*> views[] = {
                {test::moduleTreeView(w), "heatmap-and-modules"},
                {test::expertLoadView(w), "expert-load"},
                {test::rooflineView(w), "roofline"},
                {test::timelineView(w), "timeline"}};
            for (const auto& [view, name] : views) {
                auto* dock = qobject_cast<QDockWidget*>(view->parentWidget());
                dock->raise();
                if (view == test::timelineView(w)) {
                    w.resizeDocks({dock}, {420}, Qt::Vertical);
                    test::timelineView(w)->setSession(w.session()); // back to the default zoom
                }
                QApplication::processEvents();
                QVERIFY(w.grab().save(
                    QDir(shots).filePath(QString::fromLatin1(name) + QStringLiteral(".png"))));
            }
        }
    }

    void openShowsTreeAndHeatmap() {
        MainWindow w;
        QVERIFY(showSession(w, session, {1200, 800}));

        // Module tree: the llm root expands to its layers; filtering keeps matches and their
        // ancestors.
        auto* treeView = test::moduleTreeView(w);
        auto* proxy = treeView->proxy();
        QCOMPARE(proxy->rowCount(), 3);
        QTest::keyClicks(treeView->filter(), QStringLiteral("expert.3"));
        QVERIFY(proxy->rowCount() >= 1);
        const QModelIndex llm = proxy->index(0, 0);
        QCOMPARE(llm.data().toString(), QStringLiteral("llm"));
        treeView->filter()->clear();
        QCOMPARE(proxy->rowCount(), 3);

        // Sorting by total time puts the costliest top-level module first.
        treeView->tree()->sortByColumn(views::ModuleTreeModel::TotalMs, Qt::DescendingOrder);
        const double first = proxy->index(0, views::ModuleTreeModel::TotalMs)
                                 .data(views::ModuleTreeModel::SortRole)
                                 .toDouble();
        const double second = proxy->index(1, views::ModuleTreeModel::TotalMs)
                                  .data(views::ModuleTreeModel::SortRole)
                                  .toDouble();
        QVERIFY(first >= second);

        // Heatmap: full opacity shows pure colormap colours; the hottest patch wears the top
        // colour.
        auto* heat = test::heatmapView(w);
        test::find<QSlider>(*heat, "opacity")->setValue(100);
        const QImage overlay = heat->overlay();
        QCOMPARE(overlay.size(), QSize(512, 512));
        const auto data = w.session();
        auto grid = gridFromMetrics(data->attention, *data->grid, LayerRange{});
        QVERIFY(grid.ok());
        const auto hottest =
            std::max_element(grid->values.begin(), grid->values.end()) - grid->values.begin();
        const int row = int(hottest) / grid->cols, col = int(hottest) % grid->cols;
        const QPoint centre(int((col + 0.5) * 512 / grid->cols),
                            int((row + 0.5) * 512 / grid->rows));
        const auto top = colorAt(Colormap::Viridis, 1.0);
        const QColor px = overlay.pixelColor(centre);
        // Bilinear interpolation blends neighbours a little at the patch centre.
        QVERIFY2(std::abs(px.red() - top[0]) <= 40 && std::abs(px.green() - top[1]) <= 40 &&
                     std::abs(px.blue() - top[2]) <= 40,
                 qPrintable(px.name()));

        // Changing the layer range re-renders, computed off the GUI thread; the newest range
        // wins over one still being computed.
        test::find<QSpinBox>(*heat, "firstLayer")->setValue(1);
        test::find<QSpinBox>(*heat, "lastLayer")->setValue(1);
        QVERIFY(heat->recomputing());
        QTRY_VERIFY(!heat->recomputing());
        const QImage layerOne = heat->overlay();
        QVERIFY(layerOne != overlay);
        test::find<QSpinBox>(*heat, "firstLayer")->setValue(0);
        test::find<QSpinBox>(*heat, "lastLayer")->setValue(0);
        test::find<QSpinBox>(*heat, "firstLayer")
            ->setValue(1); // 1–1 again: the 0–0 job's result is dropped
        test::find<QSpinBox>(*heat, "lastLayer")->setValue(1);
        QTRY_VERIFY(!heat->recomputing());
        QCOMPARE(heat->overlay(), layerOne);
        test::find<QSpinBox>(*heat, "firstLayer")
            ->setValue(0); // 0–1: all layers, straight from the analysis
        QVERIFY(!heat->recomputing());
        QCOMPARE(heat->overlay(), overlay);
        test::find<QSpinBox>(*heat, "firstLayer")->setValue(1);
        QTRY_VERIFY(!heat->recomputing());

        // Every metric the run has is offered, and choosing one re-colours the image.
        QStringList metrics;
        for (int i = 0; i < test::find<QComboBox>(*heat, "metric")->count(); ++i)
            metrics << test::find<QComboBox>(*heat, "metric")->itemData(i).toString();
        QCOMPARE(
            metrics,
            (QStringList{QStringLiteral("attention"), QStringLiteral("answer_attention"),
                         QStringLiteral("expert_flops"), QStringLiteral("latency"),
                         QStringLiteral("waste")})); // no saliency: captured without --attn-layers
        const QImage before = heat->overlay();
        auto* metricBox = test::find<QComboBox>(*heat, "metric");
        metricBox->setCurrentIndex(metricBox->findData(QStringLiteral("expert_flops")));
        QVERIFY(heat->overlay() != before);
        test::find<QComboBox>(*heat, "metric")->setCurrentIndex(0);
        const QImage allPhases = heat->overlay();
        test::find<QComboBox>(*heat, "phase")->setCurrentIndex(2); // decode steps only
        QTRY_VERIFY(heat->overlay() != allPhases);
        test::find<QComboBox>(*heat, "phase")->setCurrentIndex(0);
        QTRY_VERIFY(!heat->recomputing());

        // The colour bar names the metric and its provenance, and its gradient runs from the
        // colormap's top colour (at the maximum) to its bottom one.
        auto* bar = heat->findChild<views::ColourBar*>(QStringLiteral("heatmapColourBar"));
        QVERIFY(bar && bar->isVisible());
        // latency (apportioned) spreads under 5 % of its mean here: said to be uniform and
        // not painted, so no colour bar.
        metricBox->setCurrentIndex(metricBox->findData(QStringLiteral("latency")));
        QVERIFY(bar->texts().isEmpty());
        bool saysUniform = false;
        for (auto* label : heat->findChildren<QLabel*>())
            saysUniform |= label->text().contains(QStringLiteral("uniform within"));
        QVERIFY(saysUniform);
        // attention: measured, a score, absolute (from 0) by default
        metricBox->setCurrentIndex(metricBox->findData(QStringLiteral("attention")));
        const QString said = bar->texts().join(QLatin1Char('|'));
        QVERIFY2(said.contains(QStringLiteral("|(measured)|")), qPrintable(said));
        QCOMPARE(bar->texts().back(), QStringLiteral("0"));
        auto barEnds = [&] {
            const QImage shot = bar->grab().toImage();
            const QRect r = bar->barRect();
            return std::pair{shot.pixelColor(r.center().x(), r.top()),
                             shot.pixelColor(r.center().x(), r.bottom())};
        };
        auto rgb = [](std::array<uint8_t, 3> c) { return QColor(c[0], c[1], c[2]); };
        QCOMPARE(barEnds().first, rgb(colorAt(Colormap::Viridis, 1.0)));
        QCOMPARE(barEnds().second, rgb(colorAt(Colormap::Viridis, 0.0)));
        test::find<QComboBox>(*heat, "colormap")->setCurrentText(QStringLiteral("magma"));
        QCOMPARE(barEnds().first, rgb(colorAt(Colormap::Magma, 1.0)));
        test::find<QComboBox>(*heat, "colormap")->setCurrentText(QStringLiteral("viridis"));
        test::find<QComboBox>(*heat, "metric")->setCurrentIndex(0);

        // Wheel zoom at the centre enlarges the image; a double-click fits it again.
        auto* canvas = test::find<views::HeatmapCanvas>(*heat, "heatmapCanvas");
        const QRect fitted = canvas->imageRect();
        canvas->setZoom(4.0, QPointF(canvas->rect().center()));
        QVERIFY(canvas->imageRect().width() > 3 * fitted.width());
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, canvas->rect().center());
        QCOMPARE(canvas->imageRect(), fitted);
    }

    void exportsWriteWhatTheViewsShow() {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        // Open by dropping the file on the window, as from a file manager.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(session)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QVERIFY(loaded.wait(20000));

        test::find<QSlider>(*test::heatmapView(w), "opacity")->setValue(100);
        const QString png = dir.filePath(QStringLiteral("export.png"));
        QCOMPARE(w.exportTo(MainWindow::Export::HeatmapPng, png), QString());
        const QImage heat(png);
        QCOMPARE(heat.size(), QImage(test::sampleImage()).size());
        const auto data = w.session();
        auto grid = gridFromMetrics(data->attention, *data->grid, LayerRange{});
        const auto hottest =
            std::max_element(grid->values.begin(), grid->values.end()) - grid->values.begin();
        const int row = int(hottest) / grid->cols, col = int(hottest) % grid->cols;
        const QColor px = heat.pixelColor(int((col + 0.5) * heat.width() / grid->cols),
                                          int((row + 0.5) * heat.height() / grid->rows));
        const auto top = colorAt(Colormap::Viridis, 1.0);
        QVERIFY2(std::abs(px.red() - top[0]) <= 40 && std::abs(px.green() - top[1]) <= 40 &&
                     std::abs(px.blue() - top[2]) <= 40,
                 qPrintable(px.name()));

        // With its colour bar: the same overlay, the bar beside it, its text
        // drawn by a real (antialiased) font at the image's scale — many grey
        // levels, where a bitmap font has two — and the scale's top colour.
        const QString withBarPng = dir.filePath(QStringLiteral("export-legend.png"));
        QCOMPARE(w.exportTo(MainWindow::Export::HeatmapLegendPng, withBarPng), QString());
        const QImage withBar = QImage(withBarPng).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(withBar.height(), heat.height());
        QVERIFY(withBar.width() > heat.width() + 40);
        QCOMPARE(withBar.copy(0, 0, heat.width(), heat.height()),
                 heat.convertToFormat(QImage::Format_RGB32));
        std::set<int> greys;
        bool topColour = false;
        for (int y = 0; y < withBar.height(); ++y)
            for (int x = heat.width(); x < withBar.width(); ++x) {
                const QColor c = withBar.pixelColor(x, y);
                if (c.red() == c.green() && c.green() == c.blue() && c.red() < 250)
                    greys.insert(c.red());
                topColour |= std::abs(c.red() - top[0]) <= 2 && std::abs(c.green() - top[1]) <= 2 &&
                             std::abs(c.blue() - top[2]) <= 2;
            }
        QVERIFY2(greys.size() > 8, qPrintable(QString::number(greys.size())));
        QVERIFY(topColour);

        const QString csv = dir.filePath(QStringLiteral("grid.csv"));
        QCOMPARE(w.exportTo(MainWindow::Export::HeatmapCsv, csv), QString());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll().trimmed().split('\n').size(), 16);

        const QString modules = dir.filePath(QStringLiteral("modules.csv"));
        QCOMPARE(w.exportTo(MainWindow::Export::ModulesCsv, modules), QString());
        QFile m(modules);
        QVERIFY(m.open(QIODevice::ReadOnly));
        const auto lines = m.readAll().split('\n');
        QVERIFY(lines.first().startsWith("Module,Kind,Calls"));
        QVERIFY(lines.size() > 20); // the whole tree, children included

        const QString md = dir.filePath(QStringLiteral("report.md"));
        QCOMPARE(w.exportTo(MainWindow::Export::FindingsMarkdown, md), QString());
        QFile r(md);
        QVERIFY(r.open(QIODevice::ReadOnly));
        QVERIFY(r.readAll().startsWith("# mvprof report"));

        for (auto kind : {MainWindow::Export::ExpertPlotPng, MainWindow::Export::TimelinePdf}) {
            const QString out = dir.filePath(kind == MainWindow::Export::TimelinePdf
                                                 ? QStringLiteral("timeline.pdf")
                                                 : QStringLiteral("experts.png"));
            QCOMPARE(w.exportTo(kind, out), QString());
            QVERIFY(QFileInfo(out).size() > 1000);
        }
    }

    void reloadingTheSameRunKeepsTheViewState() {
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        w.openSession(session);
        QVERIFY(loaded.wait(20000));
        auto* tree = test::moduleTreeView(w)->tree();
        auto* proxy = test::moduleTreeView(w)->proxy();
        // Expand a second-level row, make it current, pick a metric and a patch.
        QModelIndex llm;
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (proxy->index(r, 0).data(views::ModuleTreeModel::SortRole).toString() ==
                QStringLiteral("llm"))
                llm = proxy->index(r, 0);
        QVERIFY(llm.isValid() && proxy->rowCount(llm) > 0);
        const QModelIndex layer = proxy->index(0, 0, llm);
        tree->setExpanded(layer, true);
        tree->setCurrentIndex(layer);
        const QString layerPath = layer.data(views::ModuleTreeModel::SortRole).toString();
        auto* metricBox = test::find<QComboBox>(*test::heatmapView(w), "metric");
        metricBox->setCurrentIndex(metricBox->count() - 1);
        const QString metric = metricBox->currentText();
        test::heatmapView(w)->selectPatch(37);
        // A live reload of the same run (what the follow timer does every second).
        w.openSession(session, w.session()->runId);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(metricBox->currentText(), metric); // the same box, kept across reloads
        QCOMPARE(test::heatmapView(w)->selectedPatch(), 37);
        QCOMPARE(tree->currentIndex().data(views::ModuleTreeModel::SortRole).toString(), layerPath);
        QVERIFY(tree->isExpanded(tree->currentIndex()));
    }

    // What-if → Expert Placement on the skewed run: each layer's balancedness
    // recomputed here from the session's routing rows (SQL) and the
    // placement's map, by the definition (mean ÷ max GPU load, an expert's
    // load split evenly over its replicas); a shape EPLB refuses empties the
    // table and says why; the saved file is SGLang's.
    void expertPlacementDialogShowsTheLoadPlaced() {
        const auto counts = test::routedSlotsBySql(session, 1, 4);
        MainWindow w;
        QVERIFY(showSession(w, session, QSize(1280, 800)));
        auto* action = w.findChild<QAction*>(QStringLiteral("placementAction"));
        QVERIFY(action && action->isEnabled());
        action->trigger();
        auto* dialog = test::find<views::PlacementDialog>(w, "placementDialog");
        QCOMPARE(test::find<QSpinBox>(*dialog, "placement_gpus")->value(), 4);
        QCOMPARE(test::find<QSpinBox>(*dialog, "placement_replicas")->value(), 8);
        auto* table = test::find<QTableView>(*dialog, "placementTable");
        QCOMPARE(table->model()->rowCount(), int(counts.size()));
        const auto& map = dialog->plan()->placement.physicalToLogical;
        int row = 0, layersWorse = 0;
        for (const auto& [layer, load] : counts) {
            std::vector<int> copies(4, 0);
            for (const int e : map[size_t(row)])
                ++copies[size_t(e)];
            std::vector<double> before(4, 0.0), after(4, 0.0);
            for (size_t s = 0; s < 8; ++s) {
                const auto e = size_t(map[size_t(row)][s]);
                after[s / 2] += load[e] / copies[e];
                before[s / 2] += load[s % 4] / 2; // slot s holds expert s mod 4
            }
            auto* m = table->model();
            QCOMPARE(m->index(row, 0).data().toInt(), layer);
            QCOMPARE(m->index(row, 1).data().toString(),
                     QString::number(test::balancednessOf(before), 'f', 3));
            QCOMPARE(m->index(row, 2).data().toString(),
                     QString::number(test::balancednessOf(after), 'f', 3));
            layersWorse += test::balancednessOf(after) < test::balancednessOf(before) - 1e-9;
            ++row;
        }
        // Two hot experts (the skew) sit evenly in the trivial layout; EPLB's
        // greedy replicas do not, and the dialog says so.
        QVERIFY(test::find<QLabel>(*dialog, "placementSummary")
                    ->text()
                    .contains(QStringLiteral("worse than the trivial one")) ==
                (layersWorse > 0));
        const QString saved = dir.filePath(QStringLiteral("placement.json"));
        QVERIFY(dialog->savePlacement(saved));
        QFile f(saved);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto json = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(json[QStringLiteral("physical_to_logical_map")].toArray().size(),
                 int(counts.size()));
        test::find<QSpinBox>(*dialog, "placement_gpus")->setValue(3);
        QCOMPARE(table->model()->rowCount(), 0);
        QVERIFY(test::find<QLabel>(*dialog, "placementSummary")
                    ->text()
                    .contains(QStringLiteral("do not divide evenly over 3 GPUs")));
        QVERIFY(!test::find<QPushButton>(*dialog, "savePlacement")->isEnabled());
    }

    void badSessionReportsAnError() {
        const QString bad = dir.filePath(QStringLiteral("bad.mvprof"));
        QVERIFY(test::writeFile(bad, "not a session"));
        MainWindow w;
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openSession(bad);
        QVERIFY(failed.wait(10000));
        QVERIFY(
            failed.first().first().toString().contains(QStringLiteral("not an mvprof session")));
        QVERIFY(!w.session());
    }
};

QTEST_MAIN(TestGui)
#include "test_gui.moc"
