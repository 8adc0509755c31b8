#include "app/gui/MainWindow.h"

#include "app/gui/AttachDialog.h"
#include "app/gui/CaptureDialog.h"
#include "app/gui/WelcomePage.h"
#include "core/analysis/PatchMetrics.h"
#include "core/interop/TraceImport.h"
#include "core/report/Report.h"
#include "core/session/Records.h"
#include "core/session/SessionReader.h"
#include "views/ComparisonView.h"
#include "views/ExpertLoadView.h"
#include "views/Export.h"
#include "views/FindingsView.h"
#include "views/FlameChartView.h"
#include "views/HeatmapView.h"
#include "views/Labels.h"
#include "views/ModuleTreeModel.h"
#include "views/ModuleTreeView.h"
#include "views/OpTableView.h"
#include "views/PlacementDialog.h"
#include "views/RooflineView.h"
#include "views/RunsView.h"
#include "views/SessionData.h"
#include "views/TimelineView.h"

#include <QAction>
#include <QApplication>
#include <QChildEvent>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>

namespace mvp {

namespace {
// The status bar's message while a session loads (cleared once it has).
QString loadingMessage(const QString& path) {
    return MainWindow::tr("Loading %1…").arg(path);
}
} // namespace

// What the worker hands back: the data, or the error message to show.
namespace {
// Changes whenever a writer commits: the session's and its WAL's size and time.
QString fileStamp(const QString& path) {
    QString stamp;
    for (const QString& f : {path, QString(path + QStringLiteral("-wal"))}) {
        const QFileInfo info(f);
        stamp += QStringLiteral("%1:%2;")
                     .arg(info.exists() ? info.lastModified().toMSecsSinceEpoch() : -1)
                     .arg(info.exists() ? info.size() : -1);
    }
    return stamp;
}
} // namespace

struct MainWindow::Loaded {
    std::shared_ptr<const views::SessionData> data;
    QString error;
};

// Every view by name, for style sheets, UI automation and the GUI tests.
void MainWindow::nameParts() {
    const std::pair<QObject*, const char*> parts[] = {
        {heatmap_, "heatmapView"},       {modules_, "moduleTreeView"}, {findings_, "findingsView"},
        {experts_, "expertLoadView"},    {runs_, "runsView"},          {timeline_, "timelineView"},
        {flame_, "flameChartView"},      {ops_, "opTableView"},        {roofline_, "rooflineView"},
        {comparison_, "comparisonView"}, {&runner_, "captureRunner"}};
    for (const auto& [part, name] : parts)
        part->setObjectName(QString::fromLatin1(name));
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), heatmap_(new views::HeatmapView(this)),
      modules_(new views::ModuleTreeView(this)), findings_(new views::FindingsView(this)),
      experts_(new views::ExpertLoadView(this)), runs_(new views::RunsView(this)),
      timeline_(new views::TimelineView(this)), flame_(new views::FlameChartView(this)),
      ops_(new views::OpTableView(this)), roofline_(new views::RooflineView(this)),
      comparison_(new views::ComparisonView(this)), runLabel_(new QLabel(this)), runner_(this) {
    setWindowTitle(tr("mvprof — MoE-Visual Profiler"));
    nameParts();
    // The welcome page until a session opens (no empty heatmap, no "no image").
    welcome_ = new WelcomePage(this);
    central_ = new QStackedWidget(this);
    central_->setObjectName(QStringLiteral("centralStack"));
    central_->addWidget(welcome_);
    central_->addWidget(heatmap_);
    setCentralWidget(central_);
    connect(welcome_, &WelcomePage::newCaptureRequested, this, &MainWindow::newCapture);
    connect(welcome_, &WelcomePage::sampleRequested, this, &MainWindow::captureSample);
    connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::chooseSession);
    connect(welcome_, &WelcomePage::recentChosen, this, [this](const QString& path) {
        if (!path.isEmpty()) openSession(path);
    });
    setAcceptDrops(true);

    setUpFileMenu();
    setUpRunSelector();
    setUpWhatIfs();
    setUpViewMenu();
    setUpDocks();
    setUpHelpMenu();
    rebuildRecentMenu();
    connectViews();
    setUpJobs();
    runLabel_->setText(tr("No session"));
    connect(heatmap_, &views::HeatmapView::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 4000); });
    setUpLiveFollow();
    restoreSettings();
}

// The what-if menu and toolbar.
void MainWindow::setUpWhatIfs() {
    auto* whatIfMenu = menuBar()->addMenu(tr("&What-if"));
    auto* whatIfBar = addToolBar(tr("What-if"));
    whatIfBar->setObjectName(QStringLiteral("whatIfToolbar"));
    whatIfBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    whatIfs_ = new WhatIfActions(whatIfMenu, whatIfBar, this);
    whatIfs_->setObjectName(QStringLiteral("whatIfActions"));
    connect(whatIfs_, &WhatIfActions::requested, this, &MainWindow::startWhatIf);
    compare_ = new CompareMethodsWindow(this);
    connect(whatIfs_, &WhatIfActions::compareRequested, this, [this] {
        CompareMethodsDialog dialog(this);
        if (dialog.exec() != QDialog::Accepted) return;
        const SweepRequest r = dialog.request();
        if (!r.methods.isEmpty()) startSweep(r);
    });
    // EPLB on the run shown, beside the views (not modal).
    whatIfMenu->addSeparator();
    placement_ = whatIfMenu->addAction(tr("Expert &Placement (EPLB)…"), this, [this] {
        if (!session_) return;
        auto* dialog = new views::PlacementDialog(session_, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    placement_->setObjectName(QStringLiteral("placementAction"));
    placement_->setEnabled(false);
    // A point opens its what-if, compared with the baseline, once loaded.
    connect(compare_, &CompareMethodsWindow::openRun, this, [this](qint64 run) {
        if (!session_) return;
        compareWhenLoaded_ = run;
        switchRun(run, true);
    });
}

// The run every view shows, chosen in a toolbar: a session holds a baseline
// and its what-ifs. After a what-if switched the views to its result, a
// button leads back to the run shown before.
void MainWindow::setUpRunSelector() {
    auto* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolbar"));
    bar->addWidget(new QLabel(tr("Run: "), bar));
    runSelector_ = new QComboBox(bar);
    runSelector_->setObjectName(QStringLiteral("runSelector"));
    runSelector_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    runSelector_->setToolTip(tr("The run the views show"));
    runSelector_->setEnabled(false);
    bar->addWidget(runSelector_);
    backToRun_ = new QToolButton(bar);
    backToRun_->setObjectName(QStringLiteral("backToRun"));
    backToRunAction_ = bar->addWidget(backToRun_);
    backToRunAction_->setVisible(false);
    connect(runSelector_, &QComboBox::activated, this,
            [this](int i) { switchRun(runSelector_->itemData(i).toLongLong(), false); });
    connect(backToRun_, &QToolButton::clicked, this, [this] { switchRun(backTo_, false); });
}

void MainWindow::switchRun(qint64 run, bool automatic) {
    if (!session_ || run <= 0) return;
    backTo_ = automatic && run != session_->runId ? session_->runId : 0;
    openSession(session_->path, run);
}

void MainWindow::showRunChoice() {
    {
        const QSignalBlocker quiet(runSelector_);
        runSelector_->clear();
        for (const RunInfo& r : session_->runs)
            runSelector_->addItem(views::runTitle(r), qint64(r.id));
        runSelector_->setCurrentIndex(runSelector_->findData(qint64(session_->runId)));
        runSelector_->setEnabled(session_->runs.size() > 1);
    }
    const bool offerBack = backTo_ > 0 && backTo_ != session_->runId;
    if (!offerBack) backTo_ = 0;
    backToRun_->setText(tr("Back to run %1").arg(backTo_));
    backToRunAction_->setVisible(offerBack);
    if (offerBack)
        statusBar()->showMessage(tr("Now showing run %1, the what-if's result; \"Back to run "
                                    "%2\" in the toolbar returns")
                                     .arg(session_->runId)
                                     .arg(backTo_),
                                 10000);
}

// The views around the heatmap, tabbed where they share a side.
void MainWindow::setUpDocks() {
    modulesDock_ = addDock(modules_, tr("Module cost tree"), QStringLiteral("moduleTreeDock"),
                           Qt::RightDockWidgetArea);
    expertsDock_ = addDock(experts_, tr("Expert load"), QStringLiteral("expertLoadDock"),
                           Qt::RightDockWidgetArea);
    tabifyDockWidget(modulesDock_, expertsDock_);
    rooflineDock_ =
        addDock(roofline_, tr("Roofline"), QStringLiteral("rooflineDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(modulesDock_, rooflineDock_);
    opsDock_ = addDock(ops_, tr("Ops"), QStringLiteral("opTableDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(modulesDock_, opsDock_);
    modulesDock_->raise();
    findingsDock_ = addDock(findings_, tr("Findings"), QStringLiteral("findingsDock"),
                            Qt::BottomDockWidgetArea);
    runsDock_ =
        addDock(runs_, tr("Session"), QStringLiteral("sessionDock"), Qt::BottomDockWidgetArea);
    timelineDock_ = addDock(timeline_, tr("Gate vs expert timeline"),
                            QStringLiteral("timelineDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(findingsDock_, timelineDock_);
    flameDock_ = addDock(flame_, tr("Flame chart"), QStringLiteral("flameChartDock"),
                         Qt::BottomDockWidgetArea);
    tabifyDockWidget(findingsDock_, flameDock_);
    tabifyDockWidget(findingsDock_, runsDock_);
    comparisonDock_ = addDock(comparison_, tr("What-if comparison"),
                              QStringLiteral("comparisonDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(findingsDock_, comparisonDock_);
    // A comparison shown in a dock too low for its setup table grows it (to
    // at most half the window: the image stays in view).
    connect(comparison_, &views::ComparisonView::compared, this,
            [this] { growDock(comparisonDock_, comparison_->preferredHeight()); });
    // The timeline's lanes need more than the findings' strip: raised, its
    // dock grows toward them.
    connect(timelineDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) growDock(timelineDock_, timeline_->preferredHeight());
    });
    findingsDock_->raise();
}

// The right side's tabs ("Module cost tree", "Expert load", …) whole: its
// docks widen to the tab bar's full width, to at most two fifths of the
// window (the image stays the largest area); never narrowed.
void MainWindow::fitSideDockTabs() {
    if (dockWidgetArea(modulesDock_) != Qt::RightDockWidgetArea || modulesDock_->isFloating())
        return;
    for (const QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        if (!bar->isVisible()) continue;
        int whole = 0;
        bool side = false;
        for (int i = 0; i < bar->count(); ++i) {
            whole += bar->tabRect(i).width(); // whole: they scroll, never elide
            side = side || bar->tabText(i) == modulesDock_->windowTitle();
        }
        if (!side || bar->width() >= whole) continue;
        const int wanted = std::min(modulesDock_->width() + whole - bar->width(), width() * 2 / 5);
        if (modulesDock_->width() < wanted) resizeDocks({modulesDock_}, {wanted}, Qt::Horizontal);
    }
}

void MainWindow::resizeEvent(QResizeEvent* e) {
    QMainWindow::resizeEvent(e);
    // After the layout has placed the docks' tab bars at the new size.
    QTimer::singleShot(0, this, &MainWindow::fitSideDockTabs);
}

// The tab bars QMainWindow makes for tabbed docks (made and remade as docks
// move) scroll rather than elide: "Ex…" and "R…" name nothing.
bool MainWindow::event(QEvent* e) {
    if (e->type() == QEvent::ChildPolished)
        if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(e)->child())) {
            bar->setElideMode(Qt::ElideNone);
            bar->setUsesScrollButtons(true);
        }
    return QMainWindow::event(e);
}

// A bottom dock shown lower than its view wants grows toward that height,
// to at most half the window (the image stays in view); never shrinks.
void MainWindow::growDock(QDockWidget* dock, int wanted) {
    wanted = std::min(wanted, height() / 2);
    if (dock->isVisible() && dock->height() < wanted) resizeDocks({dock}, {wanted}, Qt::Vertical);
}

// Selection shared between the views: a finding, a module, a patch, a run.
void MainWindow::connectViews() {
    connect(findings_, &views::FindingsView::findingActivated, this, &MainWindow::showFinding);
    // A module clicked on the roofline is selected in the cost tree.
    connect(roofline_, &views::RooflineView::moduleClicked, this, [this](const QString& path) {
        Finding f;
        f.target = {FindingView::Modules, {}, {}, path.toStdString(), {}, {}};
        showFinding(f);
    });
    // A clicked patch selects its visual token everywhere.
    connect(heatmap_, &views::HeatmapView::patchSelected, this, [this](int patch) {
        if (!session_ || !session_->grid) return;
        int position = -1; // pruned runs have no token for some patches
        for (const auto& [pos, p] : patchOfPosition(session_->data))
            if (p == patch) position = pos;
        experts_->selectToken(position);
        std::vector<std::pair<int, int>> lanes;
        for (const auto& r : session_->data.routing)
            if (r.token == position) lanes.emplace_back(r.layer, r.expert);
        timeline_->highlightLanes(lanes);
        if (patch >= 0) statusBar()->showMessage(experts_->tokenRouting(), 8000);
    });
    connect(runs_, &views::RunsView::runChosen, this, [this](qint64 id) {
        if (session_) openSession(session_->path, id);
    });
    // A module span clicked in the flame chart is selected in the cost tree,
    // and the tree's current module is outlined in the flame chart.
    connect(flame_, &views::FlameChartView::moduleClicked, this, [this](const QString& path) {
        Finding f;
        f.target = {FindingView::Modules, {}, {}, path.toStdString(), {}, {}};
        showFinding(f);
    });
    connect(modules_->tree()->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                flame_->selectModule(
                    current.siblingAtColumn(0).data(views::ModuleTreeModel::SortRole).toString());
            });
}

// A live run (attached, or opened while capturing) is re-read while it lasts, but only
// when rows arrived (the file or its WAL changed) or its writer went away.
void MainWindow::setUpLiveFollow() {
    follow_ = new QTimer(this);
    follow_->setInterval(1000);
    connect(follow_, &QTimer::timeout, this, [this] {
        if (!session_ || loads_.busy()) return;
        const QString stamp = fileStamp(session_->path);
        const auto& run = session_->analysis.run;
        if (stamp == followStamp_ && processAlive(run.writerPid, run.writerHost)) return;
        followStamp_ = stamp; // taken before the read: rows written during it count next time
        openSession(session_->path, session_->runId);
    });
}

// The colormap, window geometry and dock layout of the last session.
void MainWindow::restoreSettings() {
    QSettings settings;
    heatmap_->colormap()->setCurrentText(
        settings.value(QStringLiteral("heatmap/colormap"), QStringLiteral("viridis")).toString());
    connect(heatmap_->colormap(), &QComboBox::currentTextChanged, this, [](const QString& name) {
        QSettings().setValue(QStringLiteral("heatmap/colormap"), name);
    });
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitToScreen();
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

// A first start: 80 % of the screen, the image (the central view) the largest area.
void MainWindow::fitToScreen() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    if (!screen) return;
    const QRect avail = screen->availableGeometry();
    const QSize size(avail.width() * 4 / 5, avail.height() * 4 / 5);
    resize(size);
    move(avail.center() - QPoint(size.width() / 2, size.height() / 2));
    resizeDocks({modulesDock_}, {size.width() * 3 / 10}, Qt::Horizontal);
    resizeDocks({findingsDock_}, {size.height() / 4}, Qt::Vertical);
}

MainWindow::~MainWindow() = default;

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    e->accept();
}

void MainWindow::chooseSession() {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session or Trace"), dir,
        tr("Sessions and traces (*.mvprof *.json *.json.gz *.sqlite);;mvprof sessions (*.mvprof);;"
           "torch.profiler traces (*.json *.json.gz);;Nsight Systems SQLite exports (*.sqlite);;"
           "All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    openSession(path);
}

QDockWidget* MainWindow::addDock(QWidget* widget, const QString& title, const QString& name,
                                 Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name); // restoreState finds docks by name
    dock->setWidget(widget);
    addDockWidget(area, dock);
    viewMenu_->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::attach() {
    AttachDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    openSession(dialog.chosenSession(), dialog.chosenRun());
}

void MainWindow::openSession(const QString& path, qint64 runId) {
    statusBar()->showMessage(loadingMessage(path));
    // A newer open replaces an older one still loading: the GUI never waits for it.
    loads_.start([path, runId](const auto& stale) {
        auto loaded = std::make_shared<Loaded>();
        // Nothing may escape a worker: Qt would abort the whole application.
        try {
            // A torch.profiler trace opens as the session it imports into.
            QString session = path;
            if (looksLikeTraceFile(path.toStdString())) {
                auto imported = views::sessionForTrace(path, stale);
                if (!imported) {
                    loaded->error = QString::fromStdString(imported.error().message);
                    return loaded;
                }
                session = *imported;
            }
            auto data = views::loadSession(session, runId);
            if (data)
                loaded->data = data.value();
            else
                loaded->error = QString::fromStdString(data.error().message);
        } catch (const std::exception& e) {
            loaded->error = tr("Opening %1 failed unexpectedly (%2). The file may be damaged; "
                               "please report this with the file.")
                                .arg(path, QString::fromLocal8Bit(e.what()));
        }
        return loaded;
    });
}

void MainWindow::loaded(const std::shared_ptr<Loaded>& result) {
    if (!result->error.isEmpty()) {
        statusBar()->showMessage(tr("Could not open the session"), 5000);
        emit loadFailed(result->error);
        showError(tr("Could not open the session"), result->error);
        return;
    }
    showSession(result->data);
}

void MainWindow::showError(const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showSession(std::shared_ptr<const views::SessionData> data) {
    const bool sameFile = session_ && session_->path == data->path;  // a live reload
    const bool sameRun = sameFile && session_->runId == data->runId; // keep what the user set up
    session_ = std::move(data);
    heatmap_->setSession(session_, sameRun);
    central_->setCurrentWidget(heatmap_);
    modules_->setTree(session_->analysis.modules,
                      session_->analysis.host ? session_->analysis.host->ridge() : 0.0, sameRun);
    findings_->setFindings(session_->analysis.findings);
    experts_->setSession(session_);
    timeline_->setSession(session_);
    flame_->setSession(session_);
    ops_->setSession(session_);
    roofline_->setSession(session_);
    runs_->setRuns(session_->runs, session_->runId);
    if (statusBar()->currentMessage().startsWith(loadingMessage(session_->path)))
        statusBar()->clearMessage(); // loaded: the "Loading …" would outstay it
    showRunChoice();
    comparison_->setRuns(session_->path, session_->runs);
    whatIfs_->setEnabled(!runner_.isRunning());
    placement_->setEnabled(!session_->data.routing.empty());
    if (compareWhenLoaded_ && compareWhenLoaded_ == session_->runId) {
        compareWhenLoaded_ = 0;
        if (const auto base = session_->analysis.run.baselineRun) {
            comparison_->compare(*base, session_->runId);
            comparisonDock_->show();
            comparisonDock_->raise();
        }
    }
    const RunInfo& run = session_->analysis.run;
    runLabel_->setText(
        tr("%1 · %2 · run %3 (%4) · %5 ms wall (measured)")
            .arg(QString::fromStdString(run.model), QString::fromStdString(run.device))
            .arg(run.id)
            .arg(QString::fromUtf8(toString(run.status)))
            .arg(double(session_->analysis.modules.wallNs) / 1e6, 0, 'f', 1));
    setWindowTitle(tr("%1 — mvprof").arg(QFileInfo(session_->path).fileName()));
    if (!sameFile) {
        statusBar()->showMessage(tr("Opened %1").arg(session_->path), 4000);
        rememberRecent(session_->path);
    }
    if (run.status == RunStatus::Live && !runner_.isRunning())
        follow_->start();
    else
        follow_->stop();
    emit sessionLoaded();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()) {
        openSession(urls.first().toLocalFile());
        e->acceptProposedAction();
    }
}

void MainWindow::showFinding(const Finding& f) {
    const FindingTarget& t = f.target;
    switch (t.view) {
    case FindingView::Moe:
        expertsDock_->show();
        expertsDock_->raise();
        if (t.layer) experts_->selectLayer(*t.layer);
        break;
    case FindingView::Roofline:
        rooflineDock_->show();
        rooflineDock_->raise();
        break;
    case FindingView::Modules:
        modulesDock_->show();
        modulesDock_->raise();
        if (!t.module.empty()) {
            const auto matches = modules_->proxy()->match(
                modules_->proxy()->index(0, 0), views::ModuleTreeModel::SortRole,
                QString::fromStdString(t.module), 1, Qt::MatchExactly | Qt::MatchRecursive);
            if (!matches.isEmpty()) {
                modules_->tree()->setCurrentIndex(matches.first());
                modules_->tree()->scrollTo(matches.first());
            }
        }
        break;
    case FindingView::Timeline:
        timelineDock_->show();
        timelineDock_->raise();
        for (const auto& p : session_->data.phases)
            if (p.phase == t.phase) {
                timeline_->showRange(double(p.startNs) / 1e6, double(p.endNs) / 1e6);
                break;
            }
        break;
    case FindingView::Heatmap:
        heatmap_->setFocus();
        break;
    case FindingView::Heads:
    case FindingView::Session:
        break;
    }
    statusBar()->showMessage(QString::fromStdString(f.title), 6000);
}

} // namespace mvp
