#pragma once
// The main window: the image heatmap in the centre, the module cost tree in a
// dock, File → Open / Open Recent, and a status bar naming the model, device
// and run. Sessions load on a worker thread.

#include <QFutureWatcher>
#include <QMainWindow>

#include <memory>

class QLabel;
class QMenu;

namespace mvp::views {
struct SessionData;
class HeatmapView;
class ModuleTreeView;
} // namespace mvp::views

namespace mvp {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading `path` in the background; sessionLoaded or loadFailed follows.
    void openSession(const QString& path);

    views::HeatmapView* heatmapView() const { return heatmap_; }
    views::ModuleTreeView* moduleTreeView() const { return modules_; }
    std::shared_ptr<const views::SessionData> session() const { return session_; }

signals:
    void sessionLoaded();
    void loadFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void chooseSession();
    void showSession(std::shared_ptr<const views::SessionData> data);
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    views::HeatmapView* heatmap_;
    views::ModuleTreeView* modules_;
    QMenu* recentMenu_ = nullptr;
    QLabel* runLabel_;
    std::shared_ptr<const views::SessionData> session_;
    struct Loaded;
    QFutureWatcher<std::shared_ptr<Loaded>> loader_;
};

} // namespace mvp
