#pragma once
// Gate vs expert timeline: per MoE layer a gate lane and one lane per expert,
// prefill and decode steps shaded behind. Zoom with the wheel or +/−, pan by
// dragging or with the arrow keys; hovering a box names it. Boxes come from
// core's level-of-detail pass, so a million spans redraw within a frame.

#include "core/analysis/Timeline.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QLabel;

namespace mvp::views {

struct SessionData;
class TimelinePlottable;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const SessionData> data);
    void setTimeline(Timeline timeline);  // for sessions built without SessionData (benchmarks)

    QCustomPlot* plot() const { return plot_; }
    const Timeline& timeline() const { return timeline_; }
    // Boxes drawn by the last replot, over all lanes.
    size_t boxesDrawn() const;
    // Scrolls the time axis to [fromMs, toMs].
    void showRange(double fromMs, double toMs);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();

    Timeline timeline_;
    QCustomPlot* plot_;
    TimelinePlottable* boxes_ = nullptr;
    QLabel* info_;
};

} // namespace mvp::views
