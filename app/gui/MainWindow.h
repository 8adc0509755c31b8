#pragma once
// The main window: a welcome page until a session opens, then the image
// heatmap in the centre, the other views in docks, File → Open / Open
// Recent, Help, and a status bar naming the model, device and run. Sessions
// load on a worker thread.

#include "app/gui/CaptureRunner.h"
#include "app/gui/CompareMethods.h"
#include "app/gui/WhatIf.h"
#include "views/LatestJob.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <memory>
#include <optional>

class QComboBox;
class QDockWidget;
class QTimer;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace mvp {
struct Finding;
}
namespace mvp::views {
struct SessionData;
class ComparisonView;
class ExpertLoadView;
class FindingsView;
class HeatmapView;
class ModuleTreeView;
class RooflineView;
class RunsView;
class TimelineView;
class FlameChartView;
class OpTableView;
} // namespace mvp::views

namespace mvp {

class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading `path` (run `runId`, 0 = the first) in the background;
    // sessionLoaded or loadFailed follows.
    void openSession(const QString& path, qint64 runId = 0);
    // Runs a capture in a child process with a progress bar and Cancel in the
    // status bar; the views follow the session while it grows.
    void startCapture(const CaptureRequest& request);
    // What New Capture… opens with: the last capture's settings, the bundled
    // sample image where none was chosen yet; `sample`: the demo (ref:demo
    // asked about the bundled scene).
    CaptureRequest initialCaptureRequest(bool sample) const;
    // Runs a what-if on the open session's baseline (the run shown, or its
    // baseline) in a child process; the comparison view shows it when done.
    void startWhatIf(WhatIfJob job);
    // Runs a method sweep the same way; its table and Pareto plot open in
    // the Compare Methods window when it finishes.
    void startSweep(SweepRequest request);
    enum class Export {
        HeatmapPng,
        HeatmapLegendPng,
        HeatmapCsv,
        ModulesCsv,
        FindingsCsv,
        FindingsMarkdown,
        ExpertPlotPng,
        ExpertPlotPdf,
        TimelinePng,
        TimelinePdf
    };
    // Writes what the views show to `path`; returns an error message, empty on success.
    QString exportTo(Export kind, const QString& path);
    // Shows the view and selection a finding points to.
    void showFinding(const Finding& finding);

    std::shared_ptr<const views::SessionData> session() const { return session_; }

signals:
    void sessionLoaded();
    void loadFailed(const QString& message);
    void captureProgress(int percent);
    void captureFinished(bool ok, bool cancelled, const QString& message);
    void whatIfFinished(bool ok, const QString& message);
    void sweepFinished(bool ok, const QString& message);

protected:
    void closeEvent(QCloseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void fitToScreen();
    void chooseSession();
    void newCapture();
    void captureSample(); // New Capture… of the demo scene
    void captureWith(const CaptureRequest& initial);
    void setUpHelpMenu();
    void attach();
    void chooseExport(Export kind);
    void setUpJobs(); // the status bar's progress and Cancel, and the runner's signals
    // The constructor's steps (MainWindow.cpp).
    void setUpFileMenu();
    void nameParts();
    void setUpWhatIfs();
    void setUpViewMenu();
    void setUpDocks();
    void connectViews();
    void growDock(QDockWidget* dock, int wanted);
    void fitSideDockTabs();
    void setUpLiveFollow();
    void setUpRunSelector();
    void restoreSettings();
    // Shows another run of the open session; a what-if's result (`automatic`)
    // offers one click back to the run shown before it.
    void switchRun(qint64 run, bool automatic);
    void showRunChoice(); // the selector, the way back and a notice for the run shown
    // The baseline a what-if or sweep runs against (the run shown, or its
    // baseline); none, with a status message, without a session or while a job runs.
    std::optional<qint64> whatIfBaseline();
    // The progress bar, Cancel and a status message for a child job just started.
    void showJobStarted(const QString& message);
    // A window-modal message box that returns at once (object name "errorDialog"):
    // the user reads and dismisses it, nothing waits on it.
    void showError(const QString& title, const QString& text);
    void showSession(std::shared_ptr<const views::SessionData> data);
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& name,
                         Qt::DockWidgetArea area);

    views::HeatmapView* heatmap_;
    views::ModuleTreeView* modules_;
    views::FindingsView* findings_;
    views::ExpertLoadView* experts_;
    views::RunsView* runs_;
    views::TimelineView* timeline_;
    views::FlameChartView* flame_;
    views::OpTableView* ops_;
    views::RooflineView* roofline_;
    views::ComparisonView* comparison_;
    WhatIfActions* whatIfs_ = nullptr;
    CompareMethodsWindow* compare_ = nullptr;
    bool sweeping_ = false;        // the running job is a method sweep
    qint64 compareWhenLoaded_ = 0; // a finished what-if's run, compared once its session loads
    QDockWidget* comparisonDock_ = nullptr;
    QDockWidget* rooflineDock_ = nullptr;
    QDockWidget* modulesDock_ = nullptr;
    QDockWidget* timelineDock_ = nullptr;
    QDockWidget* flameDock_ = nullptr;
    QDockWidget* opsDock_ = nullptr;
    QDockWidget* findingsDock_ = nullptr;
    QDockWidget* expertsDock_ = nullptr;
    QDockWidget* runsDock_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* runLabel_;
    QStackedWidget* central_ = nullptr; // the welcome page until a session opens, then the heatmap
    WelcomePage* welcome_ = nullptr;
    QComboBox* runSelector_ = nullptr;   // the session's runs; the current one is shown
    QToolButton* backToRun_ = nullptr;   // after a what-if switched the views: back to backTo_
    QAction* backToRunAction_ = nullptr; // the button's place in the toolbar (shown or not)
    QAction* placement_ = nullptr;       // What-if → Expert Placement: runs with routing
    qint64 backTo_ = 0;
    CaptureRunner runner_;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    qint64 lastLiveReload_ = 0;
    QElapsedTimer captureClock_;
    QTimer* follow_ = nullptr; // reloads a session whose run is still live
    QString followStamp_;      // the session files as the last followed reload saw them
    std::shared_ptr<const views::SessionData> session_;
    struct Loaded;
    void loaded(const std::shared_ptr<Loaded>& result);
    // Declared last: destroyed first, before what its results would touch.
    views::LatestJob<std::shared_ptr<Loaded>> loads_{this, [this](auto r) { loaded(r); }};
};

} // namespace mvp
