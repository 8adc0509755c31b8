#include "views/RooflineView.h"

#include "views/Colours.h"
#include "views/PlotLegend.h"
#include "views/PlotPicking.h"
#include "views/SessionData.h"

#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace mvp::views {

RooflineView::RooflineView(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), info_(new QLabel(this)) {
    for (auto* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    plot_->xAxis->setLabel(tr("arithmetic intensity (FLOP/byte, estimated)"));
    plot_->yAxis->setLabel(tr("performance (FLOP/s)"));
    putLegendBelow(*plot_); // the points and the roofs stay visible
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    info_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(plot_, 1);
    layout->addWidget(info_);
}

void RooflineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) setSession(data_);
}

void RooflineView::setSession(std::shared_ptr<const SessionData> data) {
    data_ = data;
    colours::stylePlot(*plot_, palette());
    plot_->clearGraphs();
    dots_.clear();
    points_.clear();
    if (!data || !data->analysis.host) {
        info_->setText(!data ? QString()
                       : data->data.importFormat.empty()
                           ? tr("No device ceilings were recorded for this run: no roofline.")
                           : tr("This run was imported from a trace, which does not measure its "
                                "machine's ceilings: no roofline (the op table and flame chart "
                                "show its ops)."));
        plot_->replot();
        return;
    }
    const auto& a = data->analysis;
    for (const auto& p : a.moduleRoofline)
        if (p.intensity > 0 && p.achievedFlops > 0) points_.push_back(p);
    const bool counted = !points_.empty() && std::all_of(points_.begin(), points_.end(),
                                                         [](const auto& p) { return p.counted; });
    plot_->xAxis->setLabel(counted ? tr("arithmetic intensity (FLOP/byte, GPU counters)")
                                   : tr("arithmetic intensity (FLOP/byte, estimated)"));

    // Ceilings: min(peak, AI · bandwidth) over the visible intensity range.
    const double lo = 1e-2, hi = 1e4;
    // The legend names each roof (a long one was cut in a narrow dock); where
    // its peak comes from is in the line below the plot.
    QStringList sources;
    auto ceiling = [&](const DeviceCeiling& d, const QColor& c, Qt::PenStyle style,
                       const QString& label) {
        auto* g = plot_->addGraph();
        g->setName(label);
        sources << tr("%1: %2").arg(QString::fromStdString(d.name),
                                    QString::fromStdString(d.source));
        g->setPen(QPen(c, 1.5, style));
        QVector<double> x, y;
        for (double ai = lo; ai <= hi * 1.0001; ai *= 1.25) {
            x << ai;
            y << std::min(d.peakFlops, ai * d.peakBytesPerS);
        }
        g->setData(x, y);
    };
    // The host's name can be long ("Intel(R) Xeon(R) Platinum …"): the
    // legend says "this machine", the line below names it.
    ceiling(*a.host, colours::ink(palette()), Qt::SolidLine, tr("this machine"));
    const QColor refs[] = {QColor(150, 150, 220), QColor(120, 190, 120), QColor(220, 150, 150)};
    for (size_t i = 0; i < a.references.size(); ++i)
        ceiling(a.references[i], refs[i % 3], Qt::DashLine,
                // "A100 SXM 80GB (BF16 tensor)": the precision is in the line below.
                QString::fromStdString(
                    a.references[i].name.substr(0, a.references[i].name.find(" ("))));

    int64_t maxNs = 1;
    for (const auto& p : points_)
        maxNs = std::max(maxNs, p.ns);
    for (const auto& p : points_) {
        auto* g = plot_->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        const double size = 6 + 18 * std::sqrt(double(p.ns) / double(maxNs)); // area ∝ time
        const QColor c = p.bound == Bound::Memory ? QColor(31, 119, 180) : QColor(255, 127, 14);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, size));
        g->addData(p.intensity, p.achievedFlops);
        g->removeFromLegend();
        dots_.push_back(g);
    }
    plot_->xAxis->setRange(lo, hi);
    double minY = a.host->peakFlops, maxY = 0;
    for (const auto& d : a.references)
        maxY = std::max(maxY, d.peakFlops);
    for (const auto& p : points_)
        minY = std::min(minY, p.achievedFlops);
    plot_->yAxis->setRange(std::max(1e6, minY / 10), std::max(maxY, a.host->peakFlops) * 2);
    info_->setText((counted ? tr("%1 modules; blue: memory-bound, orange: compute-bound on %2 "
                                 "(ridge %3 FLOP/B, measured). Point area ∝ kernel time; FLOPs, "
                                 "DRAM bytes and kernel time are measured by the GPU's counters.")
                            : tr("%1 modules; blue: memory-bound, orange: compute-bound on %2 "
                                 "(ridge %3 FLOP/B, measured). Point area ∝ "
                                 "time (measured); FLOPs and bytes are estimated from op shapes."))
                       .arg(points_.size())
                       .arg(QString::fromStdString(a.host->name))
                       .arg(a.host->ridge(), 0, 'f', 1) +
                   QLatin1Char('\n') + tr("Roofs: %1.").arg(sources.join(QStringLiteral("; "))));
    plot_->replot();
}

int RooflineView::pointAt(QPointF pos) const {
    return nearestPoint(
        points_.size(),
        [this](size_t i) {
            return QPointF(plot_->xAxis->coordToPixel(points_[i].intensity),
                           plot_->yAxis->coordToPixel(points_[i].achievedFlops));
        },
        pos, 12.0);
}

bool RooflineView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_ ||
        (event->type() != QEvent::MouseMove && event->type() != QEvent::MouseButtonRelease))
        return false;
    auto* m = static_cast<QMouseEvent*>(event);
    const int i = pointAt(m->position());
    if (i < 0) return false;
    const auto& p = points_[size_t(i)];
    if (event->type() == QEvent::MouseButtonRelease) {
        emit moduleClicked(QString::fromStdString(p.name));
        return false;
    }
    QToolTip::showText(
        m->globalPosition().toPoint(),
        tr("%1\nAI %2 FLOP/B (%7) · %3 GFLOP/s achieved (measured time)\n%4 ms · %5-bound · "
           "attainable %6 GFLOP/s (predicted)")
            .arg(QString::fromStdString(p.name))
            .arg(p.intensity, 0, 'f', 2)
            .arg(p.achievedFlops / 1e9, 0, 'f', 2)
            .arg(double(p.ns) / 1e6, 0, 'f', 2)
            .arg(QString::fromUtf8(toString(p.bound)))
            .arg(p.attainableFlops / 1e9, 0, 'f', 1)
            .arg(p.counted ? tr("GPU counters") : tr("estimated")),
        plot_);
    return false;
}

} // namespace mvp::views
