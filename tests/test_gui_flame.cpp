// The flame chart on a real capture (ref:tiny, --nested-ops): built off the
// GUI thread with every phase, span and op; its rows nest (each op inside
// its parent's time); painted pixels per row; wheel zoom, search and Enter, a module span clicked
// selects that module in the cost tree and a module chosen in the tree is outlined.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/MainWindow.h"
#include "core/analysis/FlameChart.h"
#include "core/session/SessionReader.h"
#include "views/FlameChartView.h"
#include "views/ModuleTreeModel.h"
#include "views/ModuleTreeView.h"
#include "views/OpTableView.h"

#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <algorithm>
#include <map>

using namespace mvp;

class TestGuiFlame : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;

private slots:
    void initTestCase() {
        test::isolateSettings();
        session = dir.filePath(QStringLiteral("tiny.mvprof"));
        const auto r = test::runCli({QStringLiteral("capture"), QStringLiteral("--model"),
                                     QStringLiteral("ref:tiny"), QStringLiteral("--image"),
                                     test::sampleImage(), QStringLiteral("--nested-ops"),
                                     QStringLiteral("--out"), session});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    void init() { test::failOnWarnings(); }

    // The op table: one row per op name, summed over phases, most time first.
    void opTableSumsTheRunsOps() {
        MainWindow w;
        QVERIFY(test::showSession(w, session, QSize(1400, 900)));
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader);
        const auto totals = (*reader)->opTotals(1);
        QVERIFY(totals);
        std::map<std::string, int64_t> nsByName;
        for (const auto& t : *totals)
            nsByName[t.name] += t.ns;
        auto* view = test::opTableView(w);
        QCOMPARE(view->model()->rowCount(), int(nsByName.size()));
        const auto* proxy = view->proxy();
        const auto top = proxy->index(0, views::OpTableModel::Name).data().toString().toStdString();
        const auto second =
            proxy->index(1, views::OpTableModel::Name).data().toString().toStdString();
        QVERIFY(nsByName[top] >= nsByName[second]);
        QVERIFY(std::all_of(nsByName.begin(), nsByName.end(),
                            [&](const auto& kv) { return kv.second <= nsByName[top]; }));
        QTest::keyClicks(view->filter(), QStringLiteral("addmm"));
        QCOMPARE(proxy->rowCount(), 1);
        QCOMPARE(proxy->index(0, views::OpTableModel::Name).data().toString(),
                 QStringLiteral("aten::addmm"));
    }

    void showsTheRunAndSharesSelection() {
        MainWindow w;
        QVERIFY(test::showSession(w, session, QSize(1400, 900)));
        auto* flame = test::flameChartView(w);
        // Laid out once its tab is shown (a hidden view costs nothing).
        QSignalSpy ready(flame, &views::FlameChartView::chartReady);
        for (auto* dock : w.findChildren<QDockWidget*>())
            if (dock->widget() == flame) {
                dock->show();
                dock->raise();
            }
        QVERIFY(ready.count() > 0 || ready.wait(20000));
        const FlameChart& chart = flame->chart();
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader);
        const auto ops = (*reader)->ops(1);
        const auto spans = (*reader)->spans(1);
        const auto phases = (*reader)->phases(1);
        QVERIFY(ops && spans && phases);
        size_t opSlices = 0, spanSlices = 0, phaseSlices = 0;
        for (const auto& r : chart.rows) {
            (r.kind == FlameKind::Op       ? opSlices
             : r.kind == FlameKind::Module ? spanSlices
                                           : phaseSlices) += r.starts.size();
            for (size_t i = 1; i < r.starts.size(); ++i) // a row's slices never overlap
                QVERIFY(r.starts[i] >= r.ends[i - 1]);
        }
        QCOMPARE(opSlices, ops->size());
        QCOMPARE(spanSlices, spans->size());
        QCOMPARE(phaseSlices, phases->size());
        size_t opRows = 0;
        for (const auto& r : chart.rows)
            opRows += r.kind == FlameKind::Op;
        QVERIFY2(opRows >= 2, "nested ops on rows below their parents");

        // Painted: rows hold slice colours.
        auto* canvas = flame->canvas();
        canvas->resize(1200, canvas->sizeHint().height());
        const QImage img = canvas->grab().toImage();
        const QColor background = canvas->palette().base().color();
        for (size_t r = 0; r < chart.rows.size() && r < 6; ++r) {
            const int y = views::FlameCanvas::kAxisHeight +
                          int(r) * views::FlameCanvas::kRowHeight +
                          views::FlameCanvas::kRowHeight / 2;
            int coloured = 0;
            for (int x = views::FlameCanvas::kLabelWidth; x < img.width(); ++x)
                coloured += img.pixelColor(x, y) != background;
            QVERIFY2(coloured > 0, qPrintable(QStringLiteral("row %1 is empty").arg(r)));
        }
        QVERIFY(canvas->boxesDrawn() > 0);

        // Wheel zoom narrows the range around the cursor.
        const int64_t before = canvas->rangeTo() - canvas->rangeFrom();
        QWheelEvent wheel(QPointF(600, 40), canvas->mapToGlobal(QPointF(600, 40)), {}, {0, 240},
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas, &wheel);
        QVERIFY(canvas->rangeTo() - canvas->rangeFrom() < before);

        // Search: Enter jumps to the first matching slice.
        flame->search()->setText(QStringLiteral("aten::addmm"));
        QTest::keyClick(flame->search(), Qt::Key_Return);
        int64_t firstAddmm = INT64_MAX;
        for (const auto& o : *ops)
            if (o.name == "aten::addmm") firstAddmm = std::min(firstAddmm, o.startNs);
        QVERIFY(canvas->rangeFrom() <= firstAddmm && canvas->rangeTo() >= firstAddmm);
        flame->search()->clear();

        // A module span clicked selects the module in the tree.
        canvas->setRange(chart.startNs, chart.endNs);
        size_t moduleRow = 0;
        while (chart.rows[moduleRow].kind != FlameKind::Module)
            ++moduleRow;
        const FlameRow& row = chart.rows[moduleRow];
        const int64_t mid = (row.starts[0] + row.ends[0]) / 2;
        const int x = views::FlameCanvas::kLabelWidth +
                      int(double(mid - chart.startNs) /
                          (double(chart.endNs - chart.startNs) /
                           (canvas->width() - views::FlameCanvas::kLabelWidth)));
        const int y =
            views::FlameCanvas::kAxisHeight + int(moduleRow) * views::FlameCanvas::kRowHeight + 5;
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(x, y));
        const QModelIndex current = test::moduleTreeView(w)->tree()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.siblingAtColumn(0).data(views::ModuleTreeModel::SortRole).toString(),
                 QString::fromStdString(chart.names[row.names[0]]));
    }
};

QTEST_MAIN(TestGuiFlame)
#include "test_gui_flame.moc"
