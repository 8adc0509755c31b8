#pragma once
// Helpers for the tests that drive the main window (test_gui*.cpp).

#include "app/gui/MainWindow.h"

#include <QSignalSpy>
#include <QSize>
#include <QString>

namespace mvp::test {

// Shows `w` at `size` with `path` opened; false if the load did not finish in 20 s.
inline bool showSession(MainWindow& w, const QString& path, QSize size) {
    w.resize(size);
    w.show();
    QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
    w.openSession(path);
    return loaded.wait(20000);
}

} // namespace mvp::test
