// How the main window looks and reads, on a real captured session under
// QT_QPA_PLATFORM=offscreen: every table behind a sorting proxy, the dark
// theme in every plot and marked in its menu, the Chinese translation.
// Fails on any Qt warning except the offscreen platform's own size-hint
// notice.
#include "GuiSupport.h"
#include "TestSupport.h"
#include "app/gui/Appearance.h"
#include "app/gui/MainWindow.h"
#include "views/Colours.h"
#include "views/ExpertLoadView.h"
#include "views/ItemViews.h"
#include "views/RooflineView.h"
#include "views/TimelineView.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <qcustomplot.h>

using namespace mvp;
using test::showSession;

class TestGuiLook : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;

private slots:
    void initTestCase() {
        test::isolateSettings();
        session = dir.filePath(QStringLiteral("look.mvprof"));
        const auto r = test::runCli({QStringLiteral("capture"), QStringLiteral("--image"),
                                     test::sampleImage(), QStringLiteral("--out"), session,
                                     QStringLiteral("--steps"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    void init() { test::failOnWarnings(); }

    // Every table and tree of the window sits behind a sorting proxy that
    // sorts by the raw value, set up the one way (views/ItemViews.h).
    void everyTableSortsThroughAProxy() {
        MainWindow w;
        QVERIFY(showSession(w, session, {1200, 800}));
        const auto views = w.findChildren<QAbstractItemView*>();
        int checked = 0;
        for (const QAbstractItemView* view : views) {
            if (!qobject_cast<const QTableView*>(view) && !qobject_cast<const QTreeView*>(view))
                continue;
            if (view->inherits("QHeaderView") || view->parent()->inherits("QComboBox") ||
                view->window() != &w)
                continue; // a combo box's popup list, not a table of mvprof's
            const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(view->model());
            QVERIFY2(proxy,
                     qPrintable(view->objectName() + QLatin1Char(' ') +
                                QString::fromLatin1(view->parent()->metaObject()->className())));
            QCOMPARE(proxy->sortRole(), views::SortRole);
            ++checked;
        }
        QVERIFY(checked >= 6); // findings, runs, modules, and the comparison's tables
    }

    // At 1280 × 800, each dock raised in turn: no header text is cut (every
    // visible section at least as wide as its contents ask) and no plot's
    // legend lies over its data (the legend outside the axis rectangle) or
    // is cut (narrower than its entries); the module tree's and the op
    // table's names are whole.
    void legendsAndHeadersFitAt1280x800() {
        MainWindow w;
        QVERIFY(showSession(w, session, {1280, 800}));
        int sections = 0, legends = 0;
        for (auto* dock : w.findChildren<QDockWidget*>()) {
            dock->raise();
            QApplication::processEvents();
            for (auto* header : dock->findChildren<QHeaderView*>()) {
                if (!header->isVisible() || header->orientation() != Qt::Horizontal) continue;
                for (int i = 0; i < header->count(); ++i) {
                    if (header->isSectionHidden(i)) continue;
                    ++sections;
                    const QString text = header->model()->headerData(i, Qt::Horizontal).toString();
                    QVERIFY2(header->sectionSize(i) >= header->sectionSizeHint(i),
                             qPrintable(QStringLiteral("%1: \"%2\" %3 px of %4")
                                            .arg(dock->objectName(), text)
                                            .arg(header->sectionSize(i))
                                            .arg(header->sectionSizeHint(i))));
                }
            }
            for (auto* plot : dock->findChildren<QCustomPlot*>()) {
                if (!plot->isVisible() || !plot->legend || !plot->legend->visible()) continue;
                plot->replot();
                ++legends;
                for (auto* rect : plot->axisRects())
                    QVERIFY2(!plot->legend->outerRect().intersects(rect->rect()),
                             qPrintable(dock->objectName()));
                // … and wide enough for its entries (a cut legend hides their names).
                QVERIFY2(plot->legend->minimumOuterSizeHint().width() <=
                             plot->legend->outerRect().width(),
                         qPrintable(QStringLiteral("%1: legend needs %2 px, has %3")
                                        .arg(dock->objectName())
                                        .arg(plot->legend->minimumOuterSizeHint().width())
                                        .arg(plot->legend->outerRect().width())));
            }
        }
        QVERIFY2(sections >= 20, qPrintable(QString::number(sections)));
        // The module tree's and the op table's names whole (they scroll sideways).
        const std::pair<const char*, QAbstractItemView*> named[] = {
            {"moduleTreeDock", test::moduleTreeView(w)->findChild<QTreeView*>()},
            {"opTableDock", test::opTableView(w)->findChild<QTableView*>()}};
        for (const auto& [dockName, view] : named) {
            test::find<QDockWidget>(w, dockName)->raise();
            QApplication::processEvents();
            const int shown = qobject_cast<QTreeView*>(view)
                                  ? qobject_cast<QTreeView*>(view)->columnWidth(0)
                                  : qobject_cast<QTableView*>(view)->columnWidth(0);
            const int wanted = view->sizeHintForColumn(0);
            QVERIFY2(wanted > 40 && shown >= wanted,
                     qPrintable(QStringLiteral("%1: names need %2 px, have %3")
                                    .arg(QString::fromLatin1(dockName))
                                    .arg(wanted)
                                    .arg(shown)));
        }
        QVERIFY(legends >= 2); // expert load, roofline
    }

    // Every plot with a legend offers "Show Legend" in its context menu:
    // unchecked, the legend goes and the data take its room; checked, it
    // is back below the data.
    void legendsCanBeHidden() {
        MainWindow w;
        QVERIFY(showSession(w, session, {1280, 800}));
        int plots = 0;
        for (auto* dock : w.findChildren<QDockWidget*>()) {
            dock->raise();
            QApplication::processEvents();
            for (auto* plot : dock->findChildren<QCustomPlot*>()) {
                if (!plot->isVisible() || !plot->legend || !plot->legend->visible()) continue;
                auto* toggle = plot->findChild<QAction*>(QStringLiteral("showLegend"));
                QVERIFY2(toggle && plot->actions().contains(toggle) &&
                             plot->contextMenuPolicy() == Qt::ActionsContextMenu,
                         qPrintable(dock->objectName()));
                plot->replot();
                const int withLegend = plot->axisRect()->rect().height();
                toggle->setChecked(false);
                QVERIFY(!plot->legend->visible());
                QVERIFY2(plot->axisRect()->rect().height() > withLegend,
                         qPrintable(dock->objectName()));
                toggle->setChecked(true);
                QVERIFY(plot->legend->visible());
                QCOMPARE(plot->axisRect()->rect().height(), withLegend);
                ++plots;
            }
        }
        QVERIFY(plots >= 2); // expert load, roofline
    }

    // The docks' tabs name their views whole at 1280 × 800 and 1400 × 900:
    // every tab inside its bar, as wide as its title (the right side's four
    // tabs were cut to "Ex…" and "R…").
    void dockTabsShowTheirWholeTitles() {
        for (const QSize size : {QSize(1280, 800), QSize(1400, 900)}) {
            MainWindow w;
            QVERIFY(showSession(w, session, size));
            QTRY_VERIFY(!w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly).isEmpty());
            QApplication::processEvents();
            int tabs = 0;
            for (const QTabBar* bar : w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
                if (!bar->isVisible()) continue;
                for (int i = 0; i < bar->count(); ++i, ++tabs) {
                    const QString title = bar->tabText(i);
                    const QRect tab = bar->tabRect(i);
                    QVERIFY2(bar->rect().contains(tab) &&
                                 tab.width() >= bar->fontMetrics().horizontalAdvance(title),
                             qPrintable(QStringLiteral("%1 × %2: \"%3\" %4 px in a %5-px bar")
                                            .arg(size.width())
                                            .arg(size.height())
                                            .arg(title)
                                            .arg(tab.width())
                                            .arg(bar->width())));
                }
            }
            QVERIFY(tabs >= 9); // four views on the right, five below
        }
    }

    // The dark theme reaches every plot (background, axes, the host ceiling in the
    // text colour) and the signal colours stay readable on its base.
    void darkThemeColoursThePlots() {
        applyTheme(Theme::Dark);
        MainWindow w;
        QVERIFY(showSession(w, session, {1200, 800}));
        const QPalette dark = QApplication::palette();
        QVERIFY(views::colours::isDark(dark));
        const QColor base = dark.color(QPalette::Base);
        for (QCustomPlot* plot : {test::rooflineView(w)->plot(), test::timelineView(w)->plot(),
                                  test::expertLoadView(w)->barsPlot()}) {
            qobject_cast<QDockWidget*>(plot->parentWidget()->parentWidget())->raise();
            QApplication::processEvents();
            plot->replot();
            const QImage shot = plot->grab().toImage();
            QCOMPARE(shot.pixelColor(2, 2), base);
            QCOMPARE(plot->xAxis->tickLabelColor(), dark.color(QPalette::WindowText));
        }
        QCOMPARE(test::rooflineView(w)->plot()->graph(0)->pen().color(),
                 dark.color(QPalette::WindowText));
        for (const QColor& c :
             {views::colours::good(dark), views::colours::bad(dark), views::colours::warning(dark),
              views::colours::ink(dark), dark.color(QPalette::PlaceholderText)})
            QVERIFY2(views::colours::contrast(c, base) >= 4.5, qPrintable(c.name()));
        // … and a filter box's placeholder is drawn in it, opaque.
        int placeholders = 0;
        for (auto* edit : test::moduleTreeView(w)->findChildren<QLineEdit*>()) {
            if (edit->placeholderText().isEmpty()) continue;
            ++placeholders;
            QCOMPARE(edit->palette().color(QPalette::PlaceholderText),
                     dark.color(QPalette::PlaceholderText));
            QCOMPARE(edit->palette().color(QPalette::PlaceholderText).alpha(), 255);
        }
        QCOMPARE(placeholders, 1);
        applyTheme(Theme::Light);
        const QPalette light = QApplication::palette();
        QVERIFY(!views::colours::isDark(light));
        for (const QColor& c : {views::colours::good(light), views::colours::bad(light),
                                views::colours::warning(light)})
            QVERIFY2(views::colours::contrast(c, light.color(QPalette::Base)) >= 3,
                     qPrintable(c.name()));
        QCOMPARE(views::colours::contrast(Qt::black, Qt::white), 21.0);
        applyTheme(Theme::System); // as the other tests expect
    }

    // Cold start: the welcome page instead of an empty heatmap, with the ways
    // in and the recent sessions; Help has its entries; New Capture starts
    // from the bundled sample image, the demo from ref:demo on the bundled
    // scene; a recent session chosen opens and replaces the welcome page.
    void coldStartWelcomes() {
        QSettings().setValue(QStringLiteral("recentSessions"), QStringList{session});
        MainWindow w;
        auto* stack = test::find<QStackedWidget>(w, "centralStack");
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("welcomePage"));
        for (const char* name : {"welcomeNewCapture", "welcomeSample", "welcomeOpen"})
            QVERIFY(test::find<QPushButton>(w, name)->isEnabled());
        auto* recent = test::find<QListWidget>(w, "welcomeRecent");
        QCOMPARE(recent->count(), 1);
        QCOMPARE(recent->item(0)->data(Qt::UserRole).toString(), session);
        QStringList help;
        for (QAction* a : test::find<QMenu>(w, "helpMenu")->actions())
            if (!a->isSeparator()) help << a->text().remove(QLatin1Char('&'));
        QCOMPARE(help,
                 (QStringList{QStringLiteral("Documentation"), QStringLiteral("Keyboard Shortcuts"),
                              QStringLiteral("About mvprof")}));
        const CaptureRequest first = w.initialCaptureRequest(false);
        QVERIFY2(first.image.endsWith(QStringLiteral("samples/astronaut.png")) &&
                     QFileInfo(first.image).isFile(),
                 qPrintable(first.image));
        const CaptureRequest demo = w.initialCaptureRequest(true);
        QCOMPARE(demo.model, QStringLiteral("ref:demo"));
        QVERIFY(demo.image.endsWith(QStringLiteral("samples/scene.png")) &&
                QFileInfo(demo.image).isFile());
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        emit recent->itemActivated(recent->item(0));
        QVERIFY(loaded.wait(20000));
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(test::heatmapView(w)));
        QSettings().remove(QStringLiteral("recentSessions"));
    }

    // View → Theme marks the active theme, one at a time, and a new window
    // marks the saved one.
    void theThemeMenuMarksTheActiveTheme() {
        saveTheme(Theme::System);
        MainWindow w;
        const auto actions = test::find<QMenu>(w, "themeMenu")->actions();
        QCOMPARE(actions.size(), 3); // System, Light, Dark
        QVERIFY(actions[0]->isChecked() && !actions[1]->isChecked() && !actions[2]->isChecked());
        actions[2]->trigger();
        QVERIFY(actions[2]->isChecked() && !actions[0]->isChecked() && !actions[1]->isChecked());
        QCOMPARE(savedTheme(), Theme::Dark);
        MainWindow again;
        QVERIFY(test::find<QMenu>(again, "themeMenu")->actions()[2]->isChecked());
        saveTheme(Theme::System);
        applyTheme(Theme::System); // as the other tests expect
    }

    // The window's size and its docks' layout come back in the next window
    // (QSettings, saved on close): a resized window with the roofline closed
    // and the timeline raised opens that way.
    void windowAndDocksAreRestored() {
        QSettings().remove(QStringLiteral("window"));
        {
            MainWindow w;
            QVERIFY(showSession(w, session, {1100, 720}));
            test::find<QDockWidget>(w, "rooflineDock")->close();
            test::find<QDockWidget>(w, "timelineDock")->raise();
            QApplication::processEvents();
            QVERIFY(w.close());
        }
        MainWindow again;
        again.show();
        QApplication::processEvents();
        QCOMPARE(again.size(), QSize(1100, 720));
        // Closed stays closed; tabbed behind another is still open.
        QVERIFY(!test::find<QDockWidget>(again, "rooflineDock")->toggleViewAction()->isChecked());
        QVERIFY(test::find<QDockWidget>(again, "expertLoadDock")->toggleViewAction()->isChecked());
        QVERIFY(!test::find<QDockWidget>(again, "timelineDock")->visibleRegion().isEmpty());
        QVERIFY(test::find<QDockWidget>(again, "findingsDock")->visibleRegion().isEmpty());
        QSettings().remove(QStringLiteral("window")); // the other tests start afresh
    }

    void chineseTranslationLoads() {
        QVERIFY(installTranslations(*qApp, QStringLiteral("zh_CN")));
        {
            MainWindow w;
            QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
        }
        QVERIFY(installTranslations(*qApp, QStringLiteral("en")));
        MainWindow w;
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
    }
};

QTEST_MAIN(TestGuiLook)
#include "test_gui_look.moc"
