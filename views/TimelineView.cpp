#include "views/TimelineView.h"

#include "views/Colours.h"
#include "views/SessionData.h"

#include <QKeyEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace mvp::views {

// Draws the level-of-detail boxes of every lane for the visible time range.
class TimelinePlottable : public QCPAbstractPlottable {
public:
    TimelinePlottable(QCPAxis* key, QCPAxis* value, const Timeline* t)
        : QCPAbstractPlottable(key, value), t_(t) {}
    size_t drawn = 0;

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override {
        found = t_->endNs > 0;
        return QCPRange(0, double(t_->endNs) / 1e6);
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override {
        found = !t_->lanes.empty();
        return QCPRange(-0.5, double(t_->lanes.size()) - 0.5);
    }

protected:
    void draw(QCPPainter* painter) override {
        drawn = 0;
        const QCPRange range = keyAxis()->range();
        const double widthPx = std::max(1.0, double(keyAxis()->axisRect()->width()));
        const double nsPerPixel = range.size() * 1e6 / widthPx;
        const auto from = int64_t(range.lower * 1e6), to = int64_t(range.upper * 1e6);
        for (size_t i = 0; i < t_->lanes.size(); ++i) {
            const auto& lane = t_->lanes[i];
            const QColor base = lane.expert < 0 ? QColor(214, 39, 40) : QColor(31, 119, 180);
            const double y0 = valueAxis()->coordToPixel(double(i) - 0.38),
                         y1 = valueAxis()->coordToPixel(double(i) + 0.38);
            for (const auto& b : levelOfDetail(lane, from, to, nsPerPixel)) {
                const double x0 = keyAxis()->coordToPixel(double(b.start) / 1e6);
                const double x1 = std::max(x0 + 1.0, keyAxis()->coordToPixel(double(b.end) / 1e6));
                painter->fillRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized(),
                                  b.count > 1 ? base.darker(140) : base);
                ++drawn;
            }
        }
    }
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

private:
    const Timeline* t_;
};

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), info_(new QLabel(this)) {
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->xAxis->setLabel(tr("time since the run began (ms, measured)"));
    plot_->setFocusPolicy(Qt::StrongFocus);
    plot_->installEventFilter(this);
    plot_->setMouseTracking(true);
    info_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(plot_, 1);
    layout->addWidget(info_);
}

size_t TimelineView::boxesDrawn() const {
    return boxes_ ? boxes_->drawn : 0;
}

void TimelineView::setSession(std::shared_ptr<const SessionData> data) {
    setTimeline(data ? data->timeline : Timeline{});
}

void TimelineView::setTimeline(Timeline timeline) {
    timeline_ = std::move(timeline);
    rebuild();
}

void TimelineView::showRange(double fromMs, double toMs) {
    plot_->xAxis->setRange(fromMs, toMs);
    plot_->replot();
}

void TimelineView::highlightLanes(const std::vector<std::pair<int, int>>& layerExpert) {
    for (auto* h : highlights_)
        plot_->removeItem(h);
    highlights_.clear();
    for (size_t i = 0; i < timeline_.lanes.size(); ++i) {
        const auto& lane = timeline_.lanes[i];
        if (std::find(layerExpert.begin(), layerExpert.end(), std::pair{lane.layer, lane.expert}) ==
            layerExpert.end())
            continue;
        auto* r = new QCPItemRect(plot_);
        r->topLeft->setTypeX(QCPItemPosition::ptAxisRectRatio);
        r->bottomRight->setTypeX(QCPItemPosition::ptAxisRectRatio);
        r->topLeft->setCoords(0, double(i) - 0.5);
        r->bottomRight->setCoords(1, double(i) + 0.5);
        r->setPen(Qt::NoPen);
        // The selection's colour: yellow belongs to the prefill in the phase strip.
        r->setBrush(highlightColour());
        r->setLayer(QStringLiteral("background"));
        highlights_.push_back(r);
    }
    plot_->replot();
}

QColor TimelineView::highlightColour() const {
    QColor c = palette().color(QPalette::Highlight);
    c.setAlpha(70);
    return c;
}

int TimelineView::preferredHeight() const {
    const int lanes = int(timeline_.lanes.size()) + 1; // the phase strip
    return info_->sizeHint().height() + 60 + 16 * lanes;
}

void TimelineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) rebuild();
}

void TimelineView::rebuild() {
    colours::stylePlot(*plot_, palette());
    plot_->clearPlottables();
    plot_->clearItems();
    highlights_.clear();
    boxes_ = nullptr;
    if (timeline_.lanes.empty()) {
        info_->setText(
            tr("No MoE layers were probed in this run: nothing to show on the timeline."));
        plot_->replot();
        return;
    }
    // The phases in a strip above the lanes: prefill and alternating decode
    // steps. Behind the lanes they tinted whole expert lanes in the
    // prefill's colour.
    for (const auto& p : timeline_.phases) {
        if (!isLlmPhase(p.phase)) continue;
        auto* r = new QCPItemRect(plot_);
        r->topLeft->setCoords(double(p.startNs) / 1e6, -0.6);
        r->bottomRight->setCoords(double(p.endNs) / 1e6, kPhaseStripTop);
        r->setPen(Qt::NoPen);
        // Phase bands tinted into the base colour: light or dark, the boxes stay readable.
        const QPalette& pal = palette();
        r->setBrush(p.phase == Phase::Prefill ? colours::tint(pal, QColor(255, 200, 60), 0.22)
                    : p.step % 2              ? colours::tint(pal, QColor(80, 180, 80), 0.16)
                                              : colours::tint(pal, QColor(80, 180, 80), 0.07));
        r->setLayer(QStringLiteral("background"));
        r->setClipToAxisRect(true);
    }
    boxes_ = new TimelinePlottable(plot_->xAxis, plot_->yAxis, &timeline_);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick((kPhaseStripTop - 0.6) / 2, tr("phase"));
    for (size_t i = 0; i < timeline_.lanes.size(); ++i)
        ticker->addTick(double(i), QString::fromStdString(timeline_.lanes[i].label));
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRangeReversed(true);
    plot_->yAxis->setRange(kPhaseStripTop, double(timeline_.lanes.size()) - 0.5);
    plot_->setMinimumHeight(std::min(400, 60 + 12 * int(timeline_.lanes.size())));
    // Open on the part with MoE activity (prefill and decode), not the whole run.
    int64_t first = timeline_.endNs;
    for (const auto& lane : timeline_.lanes)
        if (!lane.starts.empty()) first = std::min(first, lane.starts.front());
    const double margin = double(timeline_.endNs - first) * 0.02;
    plot_->xAxis->setRange((double(first) - margin) / 1e6, double(timeline_.endNs) / 1e6);
    info_->setText(tr("%1 gate and expert spans in %2 lanes; red: router, blue: experts, darker: "
                      "several spans folded into one pixel; the top strip: yellow prefill, "
                      "green decode steps; shaded lanes: the experts the selected token went to.")
                       .arg(timeline_.spanCount())
                       .arg(timeline_.lanes.size()));
    plot_->replot();
}

bool TimelineView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_) return false;
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        QCPRange r = plot_->xAxis->range();
        const double step = r.size() * 0.2;
        switch (key->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            plot_->xAxis->scaleRange(0.8, r.center());
            break;
        case Qt::Key_Minus:
            plot_->xAxis->scaleRange(1.25, r.center());
            break;
        case Qt::Key_Left:
            plot_->xAxis->setRange(r.lower - step, r.upper - step);
            break;
        case Qt::Key_Right:
            plot_->xAxis->setRange(r.lower + step, r.upper + step);
            break;
        case Qt::Key_Home:
            plot_->xAxis->setRange(0, double(timeline_.endNs) / 1e6);
            break;
        default:
            return false;
        }
        plot_->replot();
        return true;
    }
    if (event->type() == QEvent::MouseMove && !timeline_.lanes.empty()) {
        auto* m = static_cast<QMouseEvent*>(event);
        const double ms = plot_->xAxis->pixelToCoord(m->position().x());
        const int lane = int(std::lround(plot_->yAxis->pixelToCoord(m->position().y())));
        if (lane < 0 || lane >= int(timeline_.lanes.size())) return false;
        const double nsPerPixel =
            plot_->xAxis->range().size() * 1e6 / std::max(1, plot_->axisRect()->width());
        const auto t = int64_t(ms * 1e6);
        for (const auto& b : levelOfDetail(timeline_.lanes[size_t(lane)], t - int64_t(nsPerPixel),
                                           t + int64_t(nsPerPixel), nsPerPixel)) {
            QToolTip::showText(m->globalPosition().toPoint(),
                               tr("%1: %2 span(s), %3–%4 ms (measured)")
                                   .arg(QString::fromStdString(timeline_.lanes[size_t(lane)].label))
                                   .arg(b.count)
                                   .arg(double(b.start) / 1e6, 0, 'f', 3)
                                   .arg(double(b.end) / 1e6, 0, 'f', 3),
                               plot_);
            break;
        }
    }
    return false;
}

} // namespace mvp::views
