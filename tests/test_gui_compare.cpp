// What-if → Compare Methods: a real sweep (saliency pruning and VisionZip at
// two budgets on ref:tiny) run from the main window as a child job, its
// table behind a sort proxy, its Pareto plot — the front checked against a
// dominance test worked here, the points drawn in their method's colour —
// and a click on a point opening that what-if's comparison.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/CompareMethods.h"
#include "core/analysis/Heatmap.h"
#include "core/session/SessionReader.h"
#include "views/ColourBar.h"
#include "views/ComparisonModels.h"
#include "views/ComparisonView.h"
#include "views/EvalItemHeatmaps.h"
#include "views/EvalItemsModel.h"
#include "views/HeatmapView.h"
#include "views/ParetoView.h"
#include "views/SessionData.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <cmath>
#include <qcustomplot.h>
#include <set>

using namespace mvp;

class TestGuiCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;

private slots:
    void initTestCase() {
        test::isolateSettings();
        qputenv("MVPROF_CLI", test::cliPath().toUtf8());
        session = dir.filePath(QStringLiteral("compare.mvprof"));
        const auto r = test::runCli({QStringLiteral("capture"), QStringLiteral("--image"),
                                     test::sampleImage(), QStringLiteral("--out"), session,
                                     QStringLiteral("--steps"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    void init() { test::failOnWarnings(); }

    void dialogBuildsOneFamilysSweep() {
        CompareMethodsDialog dialog;
        SweepRequest r = dialog.request();
        // The catalogue's swept methods of the family, less saliency pruning and
        // the downsample baseline (the reference points, asked for by hand).
        QCOMPARE(r.methods, (QStringList{QStringLiteral("fastv"), QStringLiteral("pdrop"),
                                         QStringLiteral("dart"), QStringLiteral("visionzip"),
                                         QStringLiteral("tome")}));
        dialog.findChild<QComboBox*>()->setCurrentIndex(1); // the KV methods
        r = dialog.request();
        r.session = QStringLiteral("s.mvprof");
        const QStringList a = r.arguments();
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--sweep")) + 1),
                 QStringLiteral("streaming,h2o,snapkv"));
        QVERIFY(!a.contains(QStringLiteral("--budgets"))); // mvprof-cli's default grid
        QCOMPARE(a.at(a.indexOf(QStringLiteral("--progress")) + 1), QStringLiteral("jsonl"));
    }

    void sweepShowsATableAndAParetoPlot() {
        MainWindow w;
        QVERIFY(test::showSession(w, session, QSize(1200, 800)));
        QSignalSpy finished(&w, &MainWindow::sweepFinished);
        SweepRequest r;
        r.methods = {QStringLiteral("prune"), QStringLiteral("visionzip")};
        r.budgets = QStringLiteral("64,32");
        r.reps = 1;
        w.startSweep(r);
        QVERIFY(finished.wait(240000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        CompareMethodsWindow* win = test::compareWindow(w);
        QVERIFY(win->isVisible());
        QAbstractItemModelTester tester(win->table()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(win->table()->model()->rowCount(), 4);
        views::ParetoView* pareto = win->pareto();
        QCOMPARE(pareto->plotted().size(), size_t(4));
        int errorBars = 0; // each method's latency intervals
        for (int i = 0; i < pareto->plot()->plottableCount(); ++i)
            errorBars += qobject_cast<QCPErrorBars*>(pareto->plot()->plottable(i)) != nullptr;
        QCOMPARE(errorBars, 2);

        // The front by a dominance test worked here over the table's own cells.
        auto number = [&](int row, int column) {
            return win->table()->model()->index(row, column).data(Qt::UserRole).toDouble();
        };
        std::vector<std::pair<double, double>> costLoss; // latency ratio, KL, by table row
        std::vector<qint64> runs;
        for (int row = 0; row < 4; ++row) {
            costLoss.push_back({1 / number(row, views::SweepTableModel::Speedup),
                                number(row, views::SweepTableModel::Kl)});
            runs.push_back(qint64(number(row, views::SweepTableModel::Run)));
        }
        std::set<qint64> onFront;
        for (size_t i = 0; i < 4; ++i) {
            bool dominated = false;
            for (size_t j = 0; j < 4; ++j)
                dominated |= costLoss[j].first <= costLoss[i].first &&
                             costLoss[j].second <= costLoss[i].second && costLoss[j] != costLoss[i];
            if (!dominated) onFront.insert(runs[i]);
        }
        std::set<qint64> shown;
        const auto table = views::parseSweepTable(test::captureRunner(w)->sweepTable());
        for (const size_t i : pareto->front())
            shown.insert(table.points[i].run);
        QCOMPARE(shown, onFront);

        // Each point is drawn: its pixel differs from the plot's background.
        win->resize(900, 700);
        QApplication::processEvents();
        pareto->plot()->replot();
        const QImage image = pareto->plot()->toPixmap().toImage();
        const QColor background = image.pixelColor(image.width() - 3, 3);
        for (const size_t i : pareto->plotted()) {
            const QPoint at = pareto->pixelOf(i).toPoint();
            QVERIFY2(
                image.pixelColor(at) != background,
                qPrintable(
                    QStringLiteral("point %1 at %2,%3 not drawn").arg(i).arg(at.x()).arg(at.y())));
        }

        // A click on a point opens that what-if's comparison and selects its
        // row, with the table sorted so that proxy and model rows differ.
        win->table()->sortByColumn(views::SweepTableModel::Kl, Qt::DescendingOrder);
        win->table()->selectRow(0);
        QSignalSpy opened(win, &CompareMethodsWindow::openRun);
        QSignalSpy compared(test::comparisonView(w), &views::ComparisonView::compared);
        const size_t target = pareto->plotted().back();
        QTest::mouseClick(pareto->plot(), Qt::LeftButton, {}, pareto->pixelOf(target).toPoint());
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toLongLong(), table.points[target].run);
        const QModelIndexList selected = win->table()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.front().siblingAtColumn(views::SweepTableModel::Run).data().toLongLong(),
                 table.points[target].run);
        QVERIFY(compared.count() > 0 || compared.wait(30000));
        QCOMPARE(test::comparisonView(w)->runB(), table.points[target].run);
        // The comparison asked for by the click may still run (the sweep's
        // own last one finished first): its summary, once it is there.
        auto* summary = test::find<QLabel>(*test::comparisonView(w), "comparisonSummary");
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().startsWith(QStringLiteral("A = ")), 30000);
        summaryAndTableShowOneLatency(*test::comparisonView(w),
                                      views::ShownLatency::Source::AbMedians);
        if (QTest::currentTestFailed()) return;

        // Its heatmap outlines the kept tokens (the ones it sent) and greys the rest.
        QTRY_COMPARE_WITH_TIMEOUT(w.session()->runId, table.points[target].run, 20000);
        views::HeatmapCanvas* canvas =
            test::find<views::HeatmapCanvas>(*test::heatmapView(w), "heatmapCanvas");
        const auto& kept = canvas->keptPatches();
        const int outlined = int(std::count(kept.begin(), kept.end(), true));
        QCOMPARE(double(outlined), table.points[target].held);
        const auto& grid = *w.session()->data.grid;
        canvas->resize(400, 400);
        const QImage shot = canvas->grab().toImage();
        const QRect area = canvas->imageRect();
        const double cw = double(area.width()) / grid.gridW,
                     ch = double(area.height()) / grid.gridH;
        auto edgeOf = [&](int patch) { // a point on the cell's outline, its left edge's middle
            return QPoint(int(area.x() + (patch % grid.gridW) * cw + 1.5),
                          int(area.y() + (patch / grid.gridW + 0.5) * ch));
        };
        auto near = [](QColor a, QColor b) {
            return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                       std::abs(a.blue() - b.blue()) <
                   90;
        };
        const int keptPatch = int(std::find(kept.begin(), kept.end(), true) - kept.begin());
        const int droppedPatch = int(std::find(kept.begin(), kept.end(), false) - kept.begin());
        QVERIFY(near(shot.pixelColor(edgeOf(keptPatch)), views::HeatmapCanvas::keptOutline()));
        QVERIFY(!near(shot.pixelColor(edgeOf(droppedPatch)), views::HeatmapCanvas::keptOutline()));
    }

    // One latency per side: the setup table's A and B latencies are the ones
    // the summary states; with repetitions, its speed-up agrees in direction
    // (one pair: exactly their ratio); the probed runs' times are in their
    // own column, labelled not for comparison.
    static void summaryAndTableShowOneLatency(views::ComparisonView& view,
                                              views::ShownLatency::Source source) {
        const views::ComparisonModel* setups = view.setups();
        QCOMPARE(setups->latency().source, source);
        const QString summary = test::find<QLabel>(view, "comparisonSummary")->text();
        std::vector<double> ms;
        for (int row : {0, 1}) {
            const QString cell =
                setups->index(row, views::ComparisonModel::Latency).data().toString();
            const QString median = cell.section(QLatin1Char(' '), 0, 0);
            QVERIFY2(summary.contains(median + QStringLiteral(" ms")),
                     qPrintable(cell + QStringLiteral(" | ") + summary));
            QCOMPARE(cell.contains(QLatin1Char('[')),
                     source != views::ShownLatency::Source::ProbedRuns);
            ms.push_back(median.toDouble());
        }
        const QString header =
            setups->headerData(views::ComparisonModel::ProbedLatency, Qt::Horizontal).toString();
        QVERIFY(header.contains(QStringLiteral("not for comparison")));
        if (source != views::ShownLatency::Source::AbMedians) return;
        const QRegularExpression speedup(QStringLiteral("speed-up ([0-9.]+)×"));
        const auto m = speedup.match(summary);
        QVERIFY2(m.hasMatch(), qPrintable(summary));
        const double s = m.captured(1).toDouble();
        QCOMPARE(s > 1, ms[0] > ms[1]);
        if (setups->latency().samples == 1) QVERIFY(std::abs(s - ms[0] / ms[1]) < 0.01 * s);
    }

    // The window at 900 × 700 with a point that did not run: its reason whole
    // in the last column (wrapped), each axis label within its axis rect,
    // and Escape or Close closes it.
    void compareMethodsWindowShowsItsTextWhole() {
        views::SweepTable table;
        table.baseline = 1;
        views::SweepPoint ran;
        ran.method = QStringLiteral("visionzip");
        ran.budget = 64;
        ran.run = 2;
        ran.parameter = QStringLiteral("54 dominant + 10 contextual");
        ran.speedup = 1.4;
        ran.speedupLow = 1.3;
        ran.speedupHigh = 1.5;
        ran.klMean = 0.02;
        ran.top1 = 0.9;
        ran.tokenMatch = 0.8;
        views::SweepPoint refused = ran;
        refused.method = QStringLiteral("pdrop");
        refused.run = 0;
        refused.error = QStringLiteral(
            "PyramidDrop cannot keep an average of 16 of 64 image tokens over 3 decoder layers "
            "with stages at layers 1 and 2: the last stage would keep fewer than none; choose a "
            "larger budget or a deeper model");
        table.points = {ran, refused};
        CompareMethodsWindow win;
        win.setTable(table);
        win.resize(900, 700);
        win.show();
        QVERIFY(QTest::qWaitForWindowExposed(&win));
        QTableView* view = win.table();
        const QModelIndex note = view->model()->index(1, views::SweepTableModel::Note);
        QCOMPARE(note.data().toString(), refused.error);
        const QRect cell = view->visualRect(note);
        const QRect needed = view->fontMetrics().boundingRect(cell.adjusted(3, 0, -3, 0),
                                                              Qt::TextWordWrap, refused.error);
        QVERIFY2(needed.height() <= cell.height() && needed.width() <= cell.width(),
                 qPrintable(QStringLiteral("needs %1×%2, has %3×%4")
                                .arg(needed.width())
                                .arg(needed.height())
                                .arg(cell.width())
                                .arg(cell.height())));
        views::ParetoView* pareto = win.pareto();
        for (auto fidelity : {views::ParetoView::Fidelity::Kl, views::ParetoView::Fidelity::Top1,
                              views::ParetoView::Fidelity::TokenMatch}) {
            pareto->setAxes(views::ParetoView::Cost::Latency, fidelity);
            QApplication::processEvents();
            pareto->plot()->replot();
            const QRect axes = pareto->plot()->axisRect()->rect();
            const QCPAxis* y = pareto->plot()->yAxis;
            QVERIFY2(QFontMetrics(y->labelFont()).horizontalAdvance(y->label()) <= axes.height(),
                     qPrintable(y->label()));
            const QCPAxis* x = pareto->plot()->xAxis;
            QVERIFY(QFontMetrics(x->labelFont()).horizontalAdvance(x->label()) <= axes.width());
        }
        QTest::keyClick(&win, Qt::Key_Escape);
        QVERIFY(!win.isVisible());
        win.show();
        QVERIFY(QTest::qWaitForWindowExposed(&win));
        auto* buttons = test::find<QDialogButtonBox>(win, "compareMethodsButtons");
        buttons->button(QDialogButtonBox::Close)->click();
        QVERIFY(!win.isVisible());
    }

    // Choosing an item shows its two stored heatmaps over its image, on one
    // scale: the colour bar's top is the larger of the two maxima in the
    // session's rows, the patch holding it is drawn in viridis' top colour
    // (#fde725, matplotlib's) blended at 60 % over the image, and B greys the
    // patches its decoder never saw.
    static void itemShowsBothHeatmapsOnOneScale(views::ComparisonView& view, QTableView* table,
                                                const std::vector<EvalItemRow>& itemsA,
                                                const std::vector<EvalItemRow>& itemsB) {
        table->setCurrentIndex(table->model()->index(0, 0));
        // The item the table's first row shows, by its id, in the session's rows.
        const QString id = table->model()->index(0, views::EvalItemsModel::Id).data().toString();
        const auto byId = [&](const std::vector<EvalItemRow>& rows) {
            return std::find_if(rows.begin(), rows.end(), [&](const EvalItemRow& r) {
                return QString::fromStdString(r.id) == id;
            });
        };
        QVERIFY(byId(itemsA) != itemsA.end() && byId(itemsB) != itemsB.end());
        const EvalItemRow& a = *byId(itemsA);
        const EvalItemRow& b = *byId(itemsB);
        QVERIFY(a.heatmap && b.heatmap);
        auto* heat = view.itemHeatmaps();
        QTRY_VERIFY(!heat->drawing()); // the overlays are drawn off the GUI thread
        const auto& va = a.heatmap->answerAttention;
        const auto& vb = b.heatmap->answerAttention;
        const auto maxA = std::max_element(va.begin(), va.end());
        const auto maxB = std::max_element(vb.begin(), vb.end());
        const bool onA = *maxA >= *maxB;
        const double top = onA ? *maxA : *maxB;
        QCOMPARE(heat->colourBar()->texts().at(4), QString::number(top, 'g', 3));
        const int patch = int(onA ? maxA - va.begin() : maxB - vb.begin());
        const QImage overlay = (onA ? heat->canvasA() : heat->canvasB())->overlay();
        QImage image(QString::fromStdString(a.heatmap->image));
        QVERIFY(!image.isNull());
        QCOMPARE(overlay.size(), image.size());
        const int side = image.width() / 8;
        const QPoint centre((patch % 8) * side + side / 2, (patch / 8) * side + side / 2);
        const QColor under = image.pixelColor(centre), drawn = overlay.pixelColor(centre);
        const QColor top8(253, 231, 37);
        // The pixel centre lies 1/56 of a patch off the patch's centre, so the
        // upsampled value is a little under the top: a little slack.
        QVERIFY2(std::abs(drawn.red() - (0.4 * under.red() + 0.6 * top8.red())) < 20 &&
                     std::abs(drawn.green() - (0.4 * under.green() + 0.6 * top8.green())) < 20 &&
                     std::abs(drawn.blue() - (0.4 * under.blue() + 0.6 * top8.blue())) < 20,
                 qPrintable(drawn.name()));
        // Both sides exactly as the shared scale draws them (a scale of
        // their own would brighten the side with the lower maximum).
        const RgbImage pixels = views::fromQImage(image);
        for (const auto& [canvas, row] :
             {std::pair{heat->canvasA(), &a}, std::pair{heat->canvasB(), &b}}) {
            HeatGrid grid{8, 8, {}};
            for (float v : row->heatmap->answerAttention)
                grid.values.push_back(v / top);
            QCOMPARE(canvas->overlay(),
                     views::toQImage(renderOverlay(pixels, grid, Colormap::Viridis, 0.6)));
        }
        std::vector<bool> pruned(64, true);
        for (int p : b.keptPatches)
            pruned[size_t(p)] = false;
        QCOMPARE(heat->canvasB()->prunedPatches(), pruned);
        QVERIFY(heat->canvasA()->prunedPatches().empty());
        QVERIFY(heat->caption()->text().contains(QStringLiteral("Greyed on B")));
    }

    // Two eval runs (whatif --eval): the summary gives both accuracies with
    // intervals and the paired change; the Eval items tab lists every item,
    // and "Changed answers only" keeps the items whose outputs differ, as
    // the session's rows say.
    void evalRunsShowAccuracyAndTheirItems() {
        const QString file = dir.filePath(QStringLiteral("eval.mvprof"));
        const QString set = dir.filePath(QStringLiteral("set"));
        auto r = test::runCli({QStringLiteral("make-set"), QStringLiteral("--n"),
                               QStringLiteral("12"), QStringLiteral("--out"), set});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = test::runCli(
            {QStringLiteral("capture"), QStringLiteral("--model"), QStringLiteral("ref:demo"),
             QStringLiteral("--image"), test::sampleImage(), QStringLiteral("--prompt"),
             QStringLiteral("How many shapes are there?"), QStringLiteral("--out"), file});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = test::runCli({QStringLiteral("whatif"), file, QStringLiteral("--eval"),
                          set + QStringLiteral("/set.jsonl"), QStringLiteral("--prune-visual"),
                          QStringLiteral("0.1")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto reader = SessionReader::open(file.toStdString());
        QVERIFY(reader);
        auto runs = (*reader)->runs();
        QVERIFY(runs && runs->size() == 3);
        auto a = (*reader)->evalItems((*runs)[1].id), b = (*reader)->evalItems((*runs)[2].id);
        int changed = 0;
        for (size_t i = 0; i < a->size(); ++i)
            changed += (*a)[i].output != (*b)[i].output;

        views::ComparisonView view;
        view.resize(1000, 600);
        view.setRuns(file, *runs);
        QSignalSpy compared(&view, &views::ComparisonView::compared);
        view.compare((*runs)[1].id, (*runs)[2].id);
        QVERIFY(compared.wait(30000));
        // The eval baseline says so in the run pickers; the capture stays "baseline".
        auto* pickA = test::find<QComboBox>(view, "runPickA");
        QVERIFY(pickA->itemText(pickA->findData(qint64((*runs)[1].id)))
                    .endsWith(QStringLiteral("eval baseline")));
        QVERIFY(pickA->itemText(pickA->findData(qint64((*runs)[0].id)))
                    .endsWith(QStringLiteral("· baseline")));
        bool saysAccuracy = false;
        for (auto* label : view.findChildren<QLabel*>())
            saysAccuracy |= label->text().contains(QStringLiteral("Accuracy (measured, Wilson"));
        QVERIFY(saysAccuracy);
        auto* page = test::find<QWidget>(view, "evalItemsPage");
        QVERIFY(view.tabs()->indexOf(page) >= 0);
        auto* table = test::find<QTableView>(view, "evalItemsTable");
        QAbstractItemModelTester tester(table->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(table->model()->rowCount(), 12);
        summaryAndTableShowOneLatency(view, views::ShownLatency::Source::ItemMedians);
        if (QTest::currentTestFailed()) return;
        itemShowsBothHeatmapsOnOneScale(view, table, *a, *b);
        if (QTest::currentTestFailed()) return;
        test::find<QCheckBox>(view, "changedAnswersOnly")->setChecked(true);
        QCOMPARE(table->model()->rowCount(), changed);
        // A pair of captures is no eval comparison: the tab goes.
        view.compare((*runs)[0].id, (*runs)[0].id);
        QVERIFY(compared.wait(30000));
        QCOMPARE(view.tabs()->indexOf(page), -1);
    }
};

QTEST_MAIN(TestGuiCompare)
#include "test_gui_compare.moc"
