#pragma once
// Gate vs expert timeline: per MoE layer a gate lane and one lane per expert,
// prefill and decode steps shaded behind. Zoom with the wheel or +/−, pan by
// dragging or with the arrow keys; hovering a box names it. Boxes come from
// core's level-of-detail pass, so a million spans redraw within a frame.

#include "core/analysis/Timeline.h"

#include <QWidget>
#include <memory>

class QCPItemRect;
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
    void setTimeline(Timeline timeline); // for sessions built without SessionData (benchmarks)

    QCustomPlot* plot() const { return plot_; }
    const Timeline& timeline() const { return timeline_; }
    // Boxes drawn by the last replot, over all lanes.
    size_t boxesDrawn() const;
    // Shades the lanes of these (layer, expert) pairs, e.g. the experts a
    // selected token went to; an empty list clears the shading.
    void highlightLanes(const std::vector<std::pair<int, int>>& layerExpert);
    int highlightedLanes() const { return int(highlights_.size()); }
    // Scrolls the time axis to [fromMs, toMs].
    void showRange(double fromMs, double toMs);
    // The height that shows every lane at a readable size (the window's dock
    // grows toward it when the timeline is raised).
    int preferredHeight() const;
    // The shading of highlighted lanes (the palette's highlight, translucent).
    QColor highlightColour() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* e) override; // a new theme redraws in its colours

private:
    void rebuild();
    static constexpr double kPhaseStripTop = -1.1; // the strip spans [-1.1, -0.6] above lane 0

    Timeline timeline_;
    QCustomPlot* plot_;
    TimelinePlottable* boxes_ = nullptr;
    std::vector<QCPItemRect*> highlights_;
    QLabel* info_;
};

} // namespace mvp::views
