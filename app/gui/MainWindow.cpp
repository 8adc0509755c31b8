#include "app/gui/MainWindow.h"

#include "core/session/Records.h"
#include "views/HeatmapView.h"
#include "views/ModuleTreeView.h"
#include "views/SessionData.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QtConcurrent>

namespace mvp {

namespace {
constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentSessions");
} // namespace

// What the worker hands back: the data, or the error message to show.
struct MainWindow::Loaded {
    std::shared_ptr<const views::SessionData> data;
    QString error;
};

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), heatmap_(new views::HeatmapView(this)), modules_(new views::ModuleTreeView(this)),
      runLabel_(new QLabel(this)) {
    setWindowTitle(tr("mvprof — MoE-Visual Profiler"));
    setAcceptDrops(false);
    setCentralWidget(heatmap_);

    auto* dock = new QDockWidget(tr("Module cost tree"), this);
    dock->setObjectName(QStringLiteral("moduleTreeDock"));
    dock->setWidget(modules_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    resizeDocks({dock}, {560}, Qt::Horizontal);

    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open Session…"), this, &MainWindow::chooseSession);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);
    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(dock->toggleViewAction());
    rebuildRecentMenu();

    statusBar()->addPermanentWidget(runLabel_);
    runLabel_->setText(tr("No session"));
    connect(heatmap_, &views::HeatmapView::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 4000); });

    connect(&loader_, &QFutureWatcher<std::shared_ptr<Loaded>>::finished, this, [this] {
        const auto loaded = loader_.result();
        if (!loaded->error.isEmpty()) {
            statusBar()->showMessage(tr("Could not open the session"), 5000);
            emit loadFailed(loaded->error);
            // Tests and scripts run without anyone to click a dialog away.
            if (QGuiApplication::platformName() != QLatin1String("offscreen"))
                QMessageBox::warning(this, tr("Could not open the session"), loaded->error);
            return;
        }
        showSession(loaded->data);
    });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

MainWindow::~MainWindow() { loader_.waitForFinished(); }

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    e->accept();
}

void MainWindow::chooseSession() {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Session"), dir,
                                                      tr("mvprof sessions (*.mvprof);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    openSession(path);
}

void MainWindow::openSession(const QString& path) {
    if (loader_.isRunning()) loader_.waitForFinished();
    statusBar()->showMessage(tr("Loading %1…").arg(path));
    loader_.setFuture(QtConcurrent::run([path] {
        auto loaded = std::make_shared<Loaded>();
        auto data = views::loadSession(path);
        if (data) loaded->data = data.value();
        else loaded->error = QString::fromStdString(data.error().message);
        return loaded;
    }));
}

void MainWindow::showSession(std::shared_ptr<const views::SessionData> data) {
    session_ = std::move(data);
    heatmap_->setSession(session_);
    modules_->setTree(session_->analysis.modules);
    const RunInfo& run = session_->analysis.run;
    runLabel_->setText(tr("%1 · %2 · run %3 (%4) · %5 ms wall (measured)")
                           .arg(QString::fromStdString(run.model), QString::fromStdString(run.device))
                           .arg(run.id)
                           .arg(QString::fromUtf8(toString(run.status)))
                           .arg(double(session_->analysis.modules.wallNs) / 1e6, 0, 'f', 1));
    setWindowTitle(tr("%1 — mvprof").arg(QFileInfo(session_->path).fileName()));
    statusBar()->showMessage(tr("Opened %1").arg(session_->path), 4000);
    rememberRecent(session_->path);
    emit sessionLoaded();
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openSession(path); })
            ->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
}

} // namespace mvp
