#pragma once
// Helpers for the tests that drive the main window (test_gui*.cpp).

#include "TestSupport.h"
#include "app/gui/CaptureRunner.h"
#include "app/gui/CompareMethods.h"
#include "app/gui/MainWindow.h"
#include "app/gui/WhatIf.h"
#include "views/ComparisonView.h"
#include "views/ExpertLoadView.h"
#include "views/FindingsView.h"
#include "views/FlameChartView.h"
#include "views/HeatmapView.h"
#include "views/ModuleTreeView.h"
#include "views/OpTableView.h"
#include "views/RooflineView.h"
#include "views/RunsView.h"
#include "views/TimelineView.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QTest>

namespace mvp::test {

// Settings and standard paths of a test's own, never the user's, empty at
// the start (call it from initTestCase()).
inline void isolateSettings() {
    QCoreApplication::setOrganizationName(QStringLiteral("mvprof-test"));
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear(); // this test program's own file: nothing left from an earlier run
}

// Shows `w` at `size` with `path` opened; false if the load did not finish in 20 s.
inline bool showSession(MainWindow& w, const QString& path, QSize size) {
    w.resize(size);
    w.show();
    QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
    w.openSession(path);
    return loaded.wait(20000);
}

// Makes any warning fail the running test, but the offscreen platform's own
// notes that it cannot resize windows to their hints or raise one (a
// tooltip) (call it from init()).
inline void failOnWarnings() {
    QTest::failOnWarning(QRegularExpression(
        QStringLiteral("^(?!This plugin does not support (propagateSizeHints|raise)).*")));
}

// The main window's parts, by the object names the window gives them.
inline views::HeatmapView* heatmapView(const QObject& w) {
    return find<views::HeatmapView>(w, "heatmapView");
}
inline views::ModuleTreeView* moduleTreeView(const QObject& w) {
    return find<views::ModuleTreeView>(w, "moduleTreeView");
}
inline views::FindingsView* findingsView(const QObject& w) {
    return find<views::FindingsView>(w, "findingsView");
}
inline views::ExpertLoadView* expertLoadView(const QObject& w) {
    return find<views::ExpertLoadView>(w, "expertLoadView");
}
inline views::RunsView* runsView(const QObject& w) {
    return find<views::RunsView>(w, "runsView");
}
inline views::TimelineView* timelineView(const QObject& w) {
    return find<views::TimelineView>(w, "timelineView");
}
inline views::FlameChartView* flameChartView(const QObject& w) {
    return find<views::FlameChartView>(w, "flameChartView");
}
inline views::OpTableView* opTableView(const QObject& w) {
    return find<views::OpTableView>(w, "opTableView");
}
inline views::RooflineView* rooflineView(const QObject& w) {
    return find<views::RooflineView>(w, "rooflineView");
}
inline views::ComparisonView* comparisonView(const QObject& w) {
    return find<views::ComparisonView>(w, "comparisonView");
}
inline CompareMethodsWindow* compareWindow(const QObject& w) {
    return find<CompareMethodsWindow>(w, "compareMethodsWindow");
}
inline WhatIfActions* whatIfActions(const QObject& w) {
    return find<WhatIfActions>(w, "whatIfActions");
}
inline CaptureRunner* captureRunner(const QObject& w) {
    return find<CaptureRunner>(w, "captureRunner");
}

} // namespace mvp::test
