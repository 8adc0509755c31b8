#pragma once
// Helpers for the tests that drive the main window (test_gui*.cpp).

#include "app/gui/MainWindow.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QTest>

namespace mvp::test {

// Settings and standard paths of a test's own, never the user's (call it from initTestCase()).
inline void isolateSettings() {
    QCoreApplication::setOrganizationName(QStringLiteral("mvprof-test"));
    QStandardPaths::setTestModeEnabled(true);
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
// note that it cannot resize windows to their hints (call it from init()).
inline void failOnWarnings() {
    QTest::failOnWarning(QRegularExpression(
        QStringLiteral("^(?!This plugin does not support propagateSizeHints).*")));
}

} // namespace mvp::test
