#pragma once
// The roofline: log-log FLOP/byte against FLOP/s, the host's measured ceilings
// and the datasheet GPUs' as lines, one point per module sized by its time.
// Hover names a point; clicking one emits moduleClicked.

#include "core/analysis/Roofline.h"

#include <QWidget>
#include <memory>

class QCustomPlot;
class QCPGraph;
class QLabel;

namespace mvp::views {

struct SessionData;

class RooflineView : public QWidget {
    Q_OBJECT
public:
    explicit RooflineView(QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const SessionData> data);
    QCustomPlot* plot() const { return plot_; }
    const std::vector<RooflinePoint>& points() const { return points_; }
    // The point nearest a widget position within a few pixels, or -1.
    int pointAt(QPointF pos) const;

signals:
    void moduleClicked(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* e) override; // a new theme redraws in its colours

private:
    std::shared_ptr<const SessionData> data_;
    QCustomPlot* plot_;
    QLabel* info_;
    std::vector<RooflinePoint> points_;
    std::vector<QCPGraph*> dots_;
};

} // namespace mvp::views
