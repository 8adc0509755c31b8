#pragma once
// The general timeline (flame chart) beside the gate-vs-expert one: phases,
// module spans nested by depth, ops nested by depth, GPU work per stream and
// CUDA API calls per thread (core/analysis/FlameChart.h). Built off the GUI
// thread when a session arrives (ops are streamed from the file, newest
// session wins); drawn from core's level of detail, a few boxes per pixel
// whatever the slice count. Wheel zooms around the cursor, dragging pans,
// a double click shows everything; the search box highlights slices by
// name and Enter jumps to the next; a module span clicked is selected in the
// module tree, and a module selected there is outlined here.

#include "core/analysis/FlameChart.h"
#include "views/LatestJob.h"

#include <QWidget>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QScrollArea;

namespace mvp::views {

struct SessionData;
class FlameCanvas;

class FlameChartView : public QWidget {
    Q_OBJECT
public:
    explicit FlameChartView(QWidget* parent = nullptr);
    ~FlameChartView() override;
    // Built when the view is first shown for this session (a hidden tab costs
    // nothing: a run of 10 M ops takes seconds and ~600 MB to lay out).
    void setSession(std::shared_ptr<const SessionData> data);
    void setChart(FlameChart chart); // for charts built without a session (benchmarks)

    const FlameChart& chart() const;
    FlameCanvas* canvas() const { return canvas_; }
    QLineEdit* search() const { return search_; }
    bool building() const { return builds_.busy(); }
    // Outlines the spans of the module at `path` (from the module tree).
    void selectModule(const QString& path);
    // Shows [fromNs, toNs] of the run.
    void showRange(int64_t fromNs, int64_t toNs);

signals:
    void chartReady();
    void moduleClicked(const QString& path);

protected:
    void showEvent(QShowEvent* e) override;

private:
    void findNext();
    void build();

    FlameCanvas* canvas_;
    QScrollArea* scroll_;
    QLineEdit* search_;
    QLabel* info_;
    std::vector<std::pair<size_t, size_t>> hits_;
    size_t nextHit_ = 0;
    std::shared_ptr<const SessionData> pending_; // the session to lay out when shown
    struct Built;
    LatestJob<std::shared_ptr<Built>> builds_;
};

// The painted rows. Public for tests and the benchmark.
class FlameCanvas : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRowHeight = 18, kLabelWidth = 150, kAxisHeight = 20;
    explicit FlameCanvas(QWidget* parent = nullptr);
    void setChart(FlameChart chart);
    const FlameChart& chart() const { return chart_; }
    void setRange(int64_t fromNs, int64_t toNs);
    int64_t rangeFrom() const { return from_; }
    int64_t rangeTo() const { return to_; }
    void setHighlight(const std::string& needle);  // "" clears
    void setSelectedName(const std::string& name); // a module path, "" clears
    // The slice under a point: (row, index), or (-1, -1).
    std::pair<int, long> sliceAt(const QPoint& p) const;
    size_t boxesDrawn() const { return boxesDrawn_; }
    double lastPaintMs() const { return lastPaintMs_; }

signals:
    void sliceClicked(int row, long index);

protected:
    void paintEvent(QPaintEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips

public:
    QSize sizeHint() const override;

private:
    double nsPerPixel() const;
    double xOf(int64_t ns) const;
    int64_t nsAt(double x) const;
    void paintAxis(class QPainter& p);
    void paintRow(class QPainter& p, size_t row, int y);

    FlameChart chart_;
    int64_t from_ = 0, to_ = 1;
    std::vector<bool> highlighted_; // by name id; empty: no search
    int64_t selectedName_ = -1;
    bool dragging_ = false;
    QPoint dragFrom_;
    int64_t dragRangeFrom_ = 0, dragRangeTo_ = 0;
    std::vector<FlameBox> boxes_; // scratch
    size_t boxesDrawn_ = 0;
    double lastPaintMs_ = 0;
};

} // namespace mvp::views
