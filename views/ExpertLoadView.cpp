#include "views/ExpertLoadView.h"

#include "views/Colours.h"
#include "views/Labels.h"
#include "views/PlotLegend.h"
#include "views/SessionData.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace mvp::views {

namespace {
QColor stateColor(ExpertState s) {
    switch (s) {
    case ExpertState::Overloaded:
        return QColor(214, 39, 40);
    case ExpertState::Hot:
        return QColor(255, 127, 14);
    case ExpertState::Underloaded:
        return QColor(140, 180, 220);
    case ExpertState::Cold:
    case ExpertState::Dead:
        return QColor(150, 150, 150);
    case ExpertState::Normal:
        break;
    }
    return QColor(31, 119, 180);
}
} // namespace

ExpertLoadView::ExpertLoadView(QWidget* parent)
    : QWidget(parent), layer_(new QComboBox(this)), phase_(new QComboBox(this)),
      scalars_(new QLabel(this)), bars_(new QCustomPlot(this)), grid_(new QCustomPlot(this)),
      tokenLabel_(new QLabel(this)) {
    addLlmPhaseChoices(phase_);
    scalars_->setWordWrap(true);
    scalars_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Layer"), this));
    controls->addWidget(layer_);
    controls->addWidget(phase_);
    controls->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(bars_, 3);
    layout->addWidget(scalars_);
    layout->addWidget(tokenLabel_);
    layout->addWidget(grid_, 2);
    bars_->xAxis->setLabel(tr("expert"));
    bars_->yAxis->setLabel(tr("routing slots (measured)"));
    putLegendBelow(*bars_); // no expert's bar behind it
    grid_->xAxis->setLabel(tr("expert"));
    grid_->yAxis->setLabel(tr("layer"));
    // The Z grid's colours explained beside it.
    zScale_ = new QCPColorScale(grid_);
    zScale_->setType(QCPAxis::atRight);
    zScale_->setGradient(QCPColorGradient::gpThermal);
    zScale_->setDataRange(QCPRange(-2.5, 2.5));
    zScale_->axis()->setLabel(tr("load Z-score (derived)"));
    grid_->plotLayout()->addElement(0, 1, zScale_);
    connect(layer_, &QComboBox::currentIndexChanged, this, &ExpertLoadView::render);
    connect(phase_, &QComboBox::currentIndexChanged, this, &ExpertLoadView::render);
}

void ExpertLoadView::setSession(std::shared_ptr<const SessionData> data) {
    data_ = std::move(data);
    token_ = -1;
    tokenLabel_->clear();
    QSignalBlocker block(layer_);
    layer_->clear();
    if (data_)
        for (const auto& l : data_->analysis.moe)
            layer_->addItem(QString::number(l.layer), l.layer);
    render();
}

void ExpertLoadView::selectToken(int position) {
    token_ = position;
    tokenLabel_->setText(tokenRouting());
    render();
}

QString ExpertLoadView::tokenRouting() const {
    if (!data_ || token_ < 0) return {};
    std::map<int, QStringList> perLayer;
    for (const auto& r : data_->data.routing)
        if (r.token == token_)
            perLayer[r.layer] << tr("e%1 (%2)").arg(r.expert).arg(r.weight, 0, 'f', 2);
    if (perLayer.empty()) return tr("Token %1 was not routed (no MoE rows for it).").arg(token_);
    QStringList parts;
    for (const auto& [layer, experts] : perLayer)
        parts << tr("L%1 → %2").arg(layer).arg(experts.join(QStringLiteral(", ")));
    // The heatmap's patch numbering beside the token's, for a visual token.
    const int patch = data_->grid ? token_ - data_->grid->firstPosition : -1;
    const bool visual =
        data_->grid && patch >= 0 && patch < data_->grid->gridH * data_->grid->gridW;
    return tr("Selected token %1%2: %3 (measured gate weights)")
        .arg(token_)
        .arg(visual ? tr(" (patch %1)").arg(patch) : QString())
        .arg(parts.join(QStringLiteral("; ")));
}

bool ExpertLoadView::selectLayer(int layer) {
    const int i = layer_->findData(layer);
    if (i < 0) return false;
    layer_->setCurrentIndex(i);
    return true;
}

void ExpertLoadView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) render();
}

void ExpertLoadView::render() {
    for (auto* plot : {bars_, grid_})
        colours::stylePlot(*plot, palette());
    bars_->clearPlottables();
    bars_->clearItems();
    grid_->clearPlottables();
    shown_ = {};
    if (!data_ || layer_->count() == 0) {
        scalars_->setText(!data_ ? QString()
                          : data_->data.importFormat.empty()
                              ? tr("This run has no MoE routing.")
                              : tr("This run was imported from a trace, which has no routing: "
                                   "the MoE views need an mvprof capture."));
        bars_->replot();
        grid_->replot();
        return;
    }
    const int layer = layer_->currentData().toInt();
    const std::optional<Phase> phase = chosenPhase(phase_);
    std::vector<RoutingRow> rows;
    for (const auto& r : data_->data.routing)
        if (r.layer == layer && (!phase || r.phase == *phase)) rows.push_back(r);
    shown_ = analyseLayer(layer, rows, data_->data.experts);
    drawLoadBars();
    outlineToken(layer);
    scaleBars();
    showScalars(layer);
    drawZGrid();
}

// Stacked bars, one pair (visual, text) per state so each state keeps its colour.
void ExpertLoadView::drawLoadBars() {
    std::map<ExpertState, std::pair<QCPBars*, QCPBars*>> byState;
    for (const auto& e : shown_.experts) {
        auto& pair = byState[e.state];
        if (!pair.first) {
            const QColor c = stateColor(e.state);
            pair.first = new QCPBars(bars_->xAxis, bars_->yAxis);
            pair.second = new QCPBars(bars_->xAxis, bars_->yAxis);
            pair.first->setBrush(c.darker(120));
            pair.second->setBrush(c.lighter(140));
            pair.first->setPen(Qt::NoPen);
            pair.second->setPen(Qt::NoPen);
            pair.first->setName(tr("%1, visual").arg(QString::fromUtf8(toString(e.state))));
            pair.second->setName(tr("%1, text").arg(QString::fromUtf8(toString(e.state))));
            pair.second->moveAbove(pair.first);
        }
        pair.first->addData(e.id, double(shown_.visual.load[size_t(e.id)]));
        pair.second->addData(e.id, double(shown_.text.load[size_t(e.id)]));
    }
}

// Outlines the experts the selected token went to in this layer.
void ExpertLoadView::outlineToken(int layer) {
    for (const auto& r : data_->data.routing)
        if (r.token == token_ && r.layer == layer) {
            auto* box = new QCPItemRect(bars_);
            const double top = double(shown_.total.load[size_t(r.expert)]);
            box->topLeft->setCoords(r.expert - 0.45, top);
            box->bottomRight->setCoords(r.expert + 0.45, 0);
            box->setPen(QPen(colours::ink(palette()), 2));
            box->setBrush(Qt::NoBrush);
        }
}

// The overload threshold, and axes that show it.
void ExpertLoadView::scaleBars() {
    const auto& s = shown_.total;
    if (s.stddev > 0) {
        auto* line = new QCPItemStraightLine(bars_);
        const double threshold = s.mean + MoeThresholds{}.overloadZ * s.stddev;
        line->point1->setCoords(0, threshold);
        line->point2->setCoords(1, threshold);
        line->setPen(QPen(QColor(214, 39, 40), 1, Qt::DashLine));
    }
    bars_->xAxis->setRange(-0.6, double(s.experts) - 0.4);
    bars_->yAxis->rescale();
    bars_->yAxis->setRangeLower(0);
    bars_->yAxis->setRangeUpper(std::max(bars_->yAxis->range().upper, s.mean + 2.0 * s.stddev) *
                                1.05);
    bars_->replot();
}

void ExpertLoadView::showScalars(int layer) {
    const auto& s = shown_.total;
    scalars_->setText(
        tr("Layer %1, %2: %3 slots over %4 tokens (measured). CV %5 · balancedness %6 · Jain %7 · "
           "MaxVio %8 · dead %9 · normalised entropy %10 · dashed: overload threshold (Δ = 1.8)")
            .arg(layer)
            .arg(phase_->currentText())
            .arg(s.tokens)
            .arg(shown_.tokenCount)
            .arg(s.cv, 0, 'f', 2)
            .arg(s.balancedness, 0, 'f', 2)
            .arg(s.jain, 0, 'f', 2)
            .arg(s.maxvio, 0, 'f', 2)
            .arg(s.deadFraction, 0, 'f', 2)
            .arg(s.entropyNorm, 0, 'f', 2));
}

// Layer × expert grid of Z-scores over the whole run.
void ExpertLoadView::drawZGrid() {
    const auto& moe = data_->analysis.moe;
    const int experts = moe.front().total.experts;
    auto* map = new QCPColorMap(grid_->xAxis, grid_->yAxis);
    map->data()->setSize(experts, int(moe.size()));
    map->data()->setRange(QCPRange(0, experts - 1), QCPRange(0, double(moe.size()) - 1));
    for (size_t l = 0; l < moe.size(); ++l)
        for (int e = 0; e < experts && e < int(moe[l].total.z.size()); ++e)
            map->data()->setCell(e, int(l), moe[l].total.z[size_t(e)]);
    map->setColorScale(zScale_); // its gradient and range: -2.5 to 2.5
    map->setInterpolate(false);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t l = 0; l < moe.size(); ++l)
        ticker->addTick(double(l), QString::number(moe[l].layer));
    grid_->yAxis->setTicker(ticker);
    grid_->rescaleAxes();
    grid_->xAxis->setRange(-0.5, experts - 0.5);
    grid_->yAxis->setRange(-0.5, double(moe.size()) - 0.5);
    grid_->replot();
}

} // namespace mvp::views
