#include "views/ParetoView.h"

#include "core/compare/Pareto.h"
#include "views/Colours.h"
#include "views/PlotLegend.h"
#include "views/PlotPicking.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace mvp::views {

namespace {
// Categorical colours that read on light and dark bases alike.
const QColor kMethodColours[] = {QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),
                                 QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75),
                                 QColor(227, 119, 194)};
} // namespace

ParetoView::ParetoView(QWidget* parent)
    : QWidget(parent), costBox_(new QComboBox(this)), fidelityBox_(new QComboBox(this)),
      plot_(new QCustomPlot(this)), info_(new QLabel(this)) {
    costBox_->addItem(tr("Latency ratio, 1 / speed-up (measured)"));
    costBox_->addItem(tr("Prefill FLOPs or KV bytes ratio"));
    fidelityBox_->addItem(tr("KL mean to the baseline (measured)"));
    fidelityBox_->addItem(tr("Top-1 agreement (measured)"));
    fidelityBox_->addItem(tr("Token match (measured)"));
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Cost:"), this));
    axes->addWidget(costBox_, 1);
    axes->addWidget(new QLabel(tr("Fidelity:"), this));
    axes->addWidget(fidelityBox_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(axes);
    layout->addWidget(plot_, 1);
    layout->addWidget(info_);
    info_->setWordWrap(true);
    putLegendBelow(*plot_);
    plot_->installEventFilter(this);
    plot_->setMouseTracking(true);
    auto changed = [this] {
        setAxes(costBox_->currentIndex() == 0 ? Cost::Latency : Cost::Ratio,
                Fidelity(fidelityBox_->currentIndex()));
    };
    connect(costBox_, &QComboBox::currentIndexChanged, this, changed);
    connect(fidelityBox_, &QComboBox::currentIndexChanged, this, changed);
}

void ParetoView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) redraw();
}

void ParetoView::setTable(const SweepTable& table) {
    table_ = table;
    costBox_->setItemText(1, table.kv ? tr("KV bytes ratio (measured)")
                                      : tr("Prefill FLOPs ratio (estimated)"));
    redraw();
}

void ParetoView::setAxes(Cost cost, Fidelity fidelity) {
    cost_ = cost;
    fidelity_ = fidelity;
    const QSignalBlocker a(costBox_), b(fidelityBox_);
    costBox_->setCurrentIndex(cost == Cost::Latency ? 0 : 1);
    fidelityBox_->setCurrentIndex(int(fidelity));
    redraw();
}

double ParetoView::costOf(const SweepPoint& p) const {
    return cost_ == Cost::Latency ? 1.0 / p.speedup : p.costRatio;
}

double ParetoView::fidelityOf(const SweepPoint& p) const {
    return fidelity_ == Fidelity::Kl     ? p.klMean
           : fidelity_ == Fidelity::Top1 ? p.top1
                                         : p.tokenMatch;
}

// One method's points, by rising cost (QCPGraph keeps its data sorted, and
// the error bars follow the data's order), with the latency interval as
// horizontal error bars: 1 / speed-up, so [1 / high, 1 / low].
void ParetoView::drawMethod(const QString& method, const QColor& colour,
                            std::vector<size_t> points) {
    std::sort(points.begin(), points.end(), [&](size_t a, size_t b) {
        return costOf(table_.points[a]) < costOf(table_.points[b]);
    });
    auto* g = plot_->addGraph();
    g->setName(method);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 10));
    auto* bars = cost_ == Cost::Latency ? new QCPErrorBars(plot_->xAxis, plot_->yAxis) : nullptr;
    if (bars) {
        bars->removeFromLegend();
        bars->setErrorType(QCPErrorBars::etKeyError);
        bars->setPen(QPen(colour, 1.2));
        bars->setDataPlottable(g);
    }
    for (const size_t i : points) {
        const SweepPoint& p = table_.points[i];
        const double x = costOf(p);
        g->addData(x, fidelityOf(p));
        if (!bars) continue;
        const bool spread = std::isfinite(p.speedupLow) && std::isfinite(p.speedupHigh) &&
                            p.speedupLow > 0 && p.speedupHigh > 0;
        bars->addData(spread ? x - 1 / p.speedupHigh : 0, spread ? 1 / p.speedupLow - x : 0);
    }
}

void ParetoView::redraw() {
    colours::stylePlot(*plot_, palette());
    plot_->clearPlottables();
    plotted_.clear();
    // On the front: least cost and least loss (KL, or 1 − agreement).
    std::vector<std::pair<double, double>> costLoss;
    std::vector<std::pair<QString, std::vector<size_t>>> byMethod; // in first-seen order
    double maxX = 1, maxY = fidelity_ == Fidelity::Kl ? 0 : 1;
    for (size_t i = 0; i < table_.points.size(); ++i) {
        const SweepPoint& p = table_.points[i];
        const double x = costOf(p), y = fidelityOf(p);
        costLoss.push_back({x, fidelity_ == Fidelity::Kl ? y : 1 - y});
        if (p.run == 0 || !std::isfinite(x) || !std::isfinite(y)) continue;
        auto it = std::find_if(byMethod.begin(), byMethod.end(),
                               [&](const auto& m) { return m.first == p.method; });
        if (it == byMethod.end()) it = byMethod.insert(byMethod.end(), {p.method, {}});
        it->second.push_back(i);
        plotted_.push_back(i);
        maxX =
            std::max(maxX, cost_ == Cost::Latency && std::isfinite(p.speedupLow) && p.speedupLow > 0
                               ? 1 / p.speedupLow
                               : x);
        maxY = std::max(maxY, y);
    }
    for (size_t m = 0; m < byMethod.size(); ++m)
        drawMethod(byMethod[m].first, kMethodColours[m % std::size(kMethodColours)],
                   byMethod[m].second);
    front_.clear();
    for (const size_t i : paretoFront(costLoss))
        if (std::find(plotted_.begin(), plotted_.end(), i) != plotted_.end()) front_.push_back(i);
    auto* line = plot_->addGraph();
    line->setName(tr("Pareto front"));
    line->setPen(QPen(colours::ink(palette()), 1.2, Qt::DashLine));
    for (const size_t i : front_)
        line->addData(costOf(table_.points[i]), fidelityOf(table_.points[i]));
    setAxisLabels();
    plot_->xAxis->setRange(0, maxX * 1.1);
    plot_->yAxis->setRange(0, maxY > 0 ? maxY * 1.1 : 1);
    info_->setText(
        tr("%1 runs against baseline run %2; %3 on the front (none cheaper loses "
           "less), by medians; bars: the latency ratio's interval (A/B, measured; ≈ 95 % "
           "from 6 repetitions on, less with fewer). "
           "Click a point to open its comparison.")
            .arg(plotted_.size())
            .arg(table_.baseline)
            .arg(front_.size()));
    plot_->replot();
}

// Shorter than the choosers' texts, and the plot kept tall enough for the
// vertical one: an axis label is never cut.
void ParetoView::setAxisLabels() {
    const QString x = cost_ == Cost::Latency ? tr("1 / speed-up (measured)")
                      : table_.kv            ? tr("KV bytes ratio (measured)")
                                             : tr("Prefill FLOPs ratio (estimated)");
    const QString y = fidelity_ == Fidelity::Kl     ? tr("KL mean (measured)")
                      : fidelity_ == Fidelity::Top1 ? tr("Top-1 agreement (measured)")
                                                    : tr("Token match (measured)");
    plot_->xAxis->setLabel(x);
    plot_->yAxis->setLabel(y);
    // The axis rect spans the plot less the x axis and the legend below it.
    const int below = 4 * QFontMetrics(plot_->xAxis->labelFont()).height() +
                      2 * QFontMetrics(plot_->legend->font()).height();
    plot_->setMinimumHeight(QFontMetrics(plot_->yAxis->labelFont()).horizontalAdvance(y) + below);
}

QPointF ParetoView::pixelOf(size_t point) const {
    const SweepPoint& p = table_.points[point];
    return {plot_->xAxis->coordToPixel(costOf(p)), plot_->yAxis->coordToPixel(fidelityOf(p))};
}

int ParetoView::pointAt(QPointF pos) const {
    const int k = nearestPoint(
        plotted_.size(), [this](size_t n) { return pixelOf(plotted_[n]); }, pos, 10.0);
    return k < 0 ? -1 : int(plotted_[size_t(k)]);
}

bool ParetoView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_ ||
        (event->type() != QEvent::MouseMove && event->type() != QEvent::MouseButtonRelease))
        return false;
    auto* m = static_cast<QMouseEvent*>(event);
    const int i = pointAt(m->position());
    if (i < 0) return false;
    const SweepPoint& p = table_.points[size_t(i)];
    if (event->type() == QEvent::MouseButtonRelease) {
        emit runClicked(p.run);
        return false;
    }
    QToolTip::showText(m->globalPosition().toPoint(),
                       tr("%1 at %2 (%3): run %4\ncost %5 · fidelity %6")
                           .arg(p.method)
                           .arg(p.budget)
                           .arg(p.parameter)
                           .arg(p.run)
                           .arg(costOf(p), 0, 'f', 4)
                           .arg(fidelityOf(p), 0, 'f', 4),
                       plot_);
    return false;
}

} // namespace mvp::views
