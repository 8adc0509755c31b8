#include "views/HeatmapView.h"

#include "core/analysis/PatchMetrics.h"
#include "views/ColourBar.h"
#include "views/Labels.h"
#include "views/SessionData.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace mvp::views {

QString metricLabel(const std::string& metric) {
    if (metric == "attention") return HeatmapView::tr("Attention received");
    if (metric == "answer_attention") return HeatmapView::tr("Attention while answering");
    if (metric == "expert_flops") return HeatmapView::tr("Expert FLOPs");
    if (metric == "latency") return HeatmapView::tr("Expert latency share");
    if (metric == "saliency") return HeatmapView::tr("Saliency (blend)");
    if (metric == "waste") return HeatmapView::tr("Waste: cost without attention");
    return QString::fromStdString(metric);
}

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent), metric_(new QComboBox(this)), phase_(new QComboBox(this)),
      colormap_(new QComboBox(this)), scale_(new QComboBox(this)), first_(new QSpinBox(this)),
      last_(new QSpinBox(this)), opacity_(new QSlider(Qt::Horizontal, this)),
      gridToggle_(new QCheckBox(tr("Grid"), this)), gridOpacity_(new QSlider(Qt::Horizontal, this)),
      info_(new QLabel(this)), canvas_(new HeatmapCanvas(this)), colourBar_(new ColourBar(this)) {
    // Named for style sheets, UI automation and the GUI tests.
    const std::pair<QWidget*, const char*> parts[] = {{metric_, "metric"},
                                                      {phase_, "phase"},
                                                      {colormap_, "colormap"},
                                                      {first_, "firstLayer"},
                                                      {last_, "lastLayer"},
                                                      {opacity_, "opacity"},
                                                      {gridToggle_, "grid"},
                                                      {canvas_, "heatmapCanvas"},
                                                      {colourBar_, "heatmapColourBar"},
                                                      {scale_, "heatmapScale"},
                                                      {gridOpacity_, "gridOpacity"}};
    for (const auto& [part, name] : parts)
        part->setObjectName(QString::fromLatin1(name));
    metric_->setToolTip(tr(
        "What colours each patch; the status bar says whether a value is measured or estimated"));
    metric_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    addLlmPhaseChoices(phase_);
    phase_->setToolTip(
        tr("Count only the prompt's tokens (prefill) or the generated ones (decode)"));
    for (const auto& name : colormapNames())
        colormap_->addItem(QString::fromStdString(name));
    scale_->addItem(tr("Absolute (0 to max)"), int(HeatScale::Absolute));
    scale_->addItem(tr("Range (min to max)"), int(HeatScale::Range));
    scale_->addItem(tr("Per layer (each to its maximum)"), int(HeatScale::PerLayer));
    scale_->setToolTip(tr("Absolute: colours from 0, so a small spread looks flat. Range: the "
                          "smallest to the largest value, so any spread fills the colours. Per "
                          "layer: each layer's values divided by that layer's maximum, then "
                          "averaged over the layers shown, so a layer with larger values does "
                          "not drown the others (unitless, derived). Values within %1 % of each "
                          "other are shown as uniform.")
                           .arg(kUniformBelow * 100, 0, 'f', 0));
    opacity_->setRange(0, 100);
    opacity_->setValue(60);
    first_->setPrefix(tr("from layer "));
    last_->setPrefix(tr("to layer "));

    // Two rows: what is shown (metric, phase, layers), then how (colours,
    // scale, opacity, grid) — one row cut the metric's name beside the docks.
    auto* what = new QHBoxLayout;
    what->addWidget(metric_);
    what->addWidget(phase_);
    what->addWidget(first_);
    what->addWidget(last_);
    what->addStretch();
    auto* how = new QHBoxLayout;
    how->addWidget(colormap_);
    how->addWidget(scale_);
    how->addWidget(new QLabel(tr("Opacity"), this));
    how->addWidget(opacity_);
    how->addWidget(gridToggle_);
    how->addWidget(gridOpacity_);
    gridToggle_->setToolTip(tr("Draw the patch boundaries (the model's patches)"));
    gridOpacity_->setRange(0, 100);
    gridOpacity_->setValue(35);
    gridOpacity_->setEnabled(false);
    gridOpacity_->setMaximumWidth(90);
    gridOpacity_->setToolTip(tr("Opacity of the patch boundaries"));
    connect(gridToggle_, &QCheckBox::toggled, canvas_, &HeatmapCanvas::setGridVisible);
    connect(gridToggle_, &QCheckBox::toggled, gridOpacity_, &QWidget::setEnabled);
    connect(gridOpacity_, &QSlider::valueChanged, canvas_,
            [this](int v) { canvas_->setGridOpacity(v / 100.0); });
    canvas_->setGridOpacity(gridOpacity_->value() / 100.0);
    // A long line wraps rather than setting the view's minimum width (two
    // views sit side by side in the comparison).
    info_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(what);
    layout->addLayout(how);
    auto* picture = new QHBoxLayout;
    picture->addWidget(canvas_, 1);
    picture->addWidget(colourBar_);
    layout->addLayout(picture, 1);
    layout->addWidget(info_);

    for (auto* spin : {first_, last_})
        connect(spin, &QSpinBox::valueChanged, this, &HeatmapView::render);
    connect(last_, &QSpinBox::valueChanged, this, &HeatmapView::outlineHeldTokens);
    connect(opacity_, &QSlider::valueChanged, this, &HeatmapView::render);
    connect(colormap_, &QComboBox::currentIndexChanged, this, &HeatmapView::render);
    connect(scale_, &QComboBox::currentIndexChanged, this, &HeatmapView::render);
    connect(metric_, &QComboBox::currentIndexChanged, this, &HeatmapView::render);
    connect(phase_, &QComboBox::currentIndexChanged, this, &HeatmapView::render);
    connect(canvas_, &HeatmapCanvas::patchClicked, this, &HeatmapView::selectPatch);
    // The read-out is a tooltip at the cursor, not a status-bar line that
    // runs into the run's label.
    connect(canvas_, &HeatmapCanvas::patchHovered, this, [this](int row, int col, double) {
        const int cols = data_ && data_->grid ? data_->grid->gridW : 1;
        QToolTip::showText(QCursor::pos(), describePatch(row * cols + col), canvas_);
    });
}

QString HeatmapView::describePatch(int patch) const {
    if (!data_ || !data_->grid || patch < 0) return {};
    const int cols = data_->grid->gridW;
    QStringList lines;
    // One numbering everywhere: the patch (row-major) and the token, its
    // position in the sequence, as the expert view names it.
    lines << tr("Patch %1 (row %2, column %3) · token %4")
                 .arg(patch)
                 .arg(patch / cols)
                 .arg(patch % cols)
                 .arg(data_->grid->firstPosition + patch);
    for (const auto& m : heatmapMetrics()) {
        const auto it = allGrids_.find(m);
        const auto info = heatMetric(m);
        if (it == allGrids_.end() || size_t(patch) >= it->second.values.size() || !info) continue;
        const double v = it->second.values[size_t(patch)];
        if (perLayer() && isLayerCombined(m))
            lines << tr("%1: %2 of each layer's maximum, averaged (%3)")
                         .arg(metricLabel(m))
                         .arg(v, 0, 'g', 3)
                         .arg(provenanceLabel(Provenance::Derived));
        else
            lines << tr("%1: %2 (%3)")
                         .arg(metricLabel(m))
                         .arg(QString::fromStdString(metricValueText(*info, v)))
                         .arg(provenanceLabel(info->provenance));
    }
    lines << tr("layers %1–%2 (decoder)").arg(first_->value()).arg(last_->value());
    return lines.join(QLatin1Char('\n'));
}

void HeatmapView::selectPatch(int patch) {
    selected_ = patch;
    canvas_->setSelectedPatch(patch);
    emit patchSelected(patch);
}

const QImage& HeatmapView::overlay() const {
    return canvas_->overlay();
}

QImage HeatmapView::fullResolutionOverlay() const {
    if (!data_ || shownImage_.isNull() || grid_.values.empty()) return {};
    return toQImage(overlayOn(fromQImage(shownImage_), grid_, chosenScale(grid_)));
}

// A non-square image is stretched to the model's square input by the
// built-in preprocessing (and its patches are square there): shown that way,
// the grid's patches are square over what the model saw. Within 1 % of the
// grid's aspect: as stored.
QImage HeatmapView::asTheModelSawIt(const SessionData& d) {
    if (!d.grid || d.image.isNull() || d.grid->gridH <= 0 || d.grid->gridW <= 0) return d.image;
    const double want = double(d.grid->gridW) / double(d.grid->gridH);
    const double have = double(d.image.width()) / double(d.image.height());
    if (std::abs(have / want - 1) < 0.01) return d.image;
    const int height = d.image.height(), width = std::max(1, int(std::lround(height * want)));
    return d.image.scaled(width, height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

bool HeatmapView::perLayer() const {
    return HeatScale(scale_->currentData().toInt()) == HeatScale::PerLayer;
}

bool HeatmapView::isLayerCombined(const std::string& metric) {
    // Saliency and waste blend normalised grids of their own: not per layer.
    return metric != "saliency" && metric != "waste";
}

QImage HeatmapView::fullResolutionOverlayWithLegend() const {
    const QImage overlay = fullResolutionOverlay();
    if (overlay.isNull() || !colourBar_->isShown()) return overlay;
    // The bar laid out as on screen for a 400-px-high picture, then scaled
    // by the painter: its text is drawn at the image's size, not enlarged.
    const double scale = std::max(1.0, overlay.height() / 400.0);
    const QSize bar(colourBar_->sizeHint().width(), int(overlay.height() / scale));
    QImage out(overlay.width() + int(std::ceil(bar.width() * scale)), overlay.height(),
               QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter p(&out);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.drawImage(0, 0, overlay);
    p.translate(overlay.width(), 0);
    p.scale(scale, scale);
    QPalette light;
    light.setColor(QPalette::WindowText, Qt::black);
    light.setColor(QPalette::Mid, Qt::gray);
    colourBar_->paint(p, bar, light);
    return out;
}

ScaleRange HeatmapView::chosenScale(const HeatGrid& grid) const {
    const auto scale = HeatScale(scale_->currentData().toInt());
    if (const HeatGrid* other = peerGrid()) return sharedScale({&grid, other}, scale);
    return scaleRange(grid, scale);
}

const HeatGrid* HeatmapView::peerGrid() const {
    if (!peer_ || shown_.empty() || peer_->shown_ != shown_ || peer_->grid_.values.empty())
        return nullptr;
    return &peer_->grid_;
}

void HeatmapView::shareScaleWith(HeatmapView* peer) {
    for (const auto& link : peerLinks_)
        disconnect(link);
    peerLinks_.clear();
    peer_ = peer;
    if (peer) {
        // The peer's grid is part of this view's scale: re-colour when it
        // changes (gridShown fires on a change only, so two linked views
        // settle after one exchange).
        peerLinks_.push_back(connect(peer, &HeatmapView::gridShown, this, &HeatmapView::render));
        peerLinks_.push_back(
            connect(peer->scale_, &QComboBox::currentIndexChanged, this, [this](int i) {
                if (scale_->currentIndex() != i) scale_->setCurrentIndex(i);
            }));
    }
    render();
}

void HeatmapView::showGrid(const std::string& metric, const HeatGrid& grid) {
    const bool changed = metric != shown_ || grid.values != grid_.values;
    shown_ = metric;
    grid_ = grid;
    if (changed) emit gridShown();
}

RgbImage HeatmapView::overlayOn(const RgbImage& image, const HeatGrid& grid,
                                const ScaleRange& scale) const {
    if (scale.uniform) return image;
    const auto map =
        colormapFromName(colormap_->currentText().toStdString()).value_or(Colormap::Viridis);
    return renderOverlay(image, onScale(grid, scale), map, opacity_->value() / 100.0);
}

QString HeatmapView::scaleText(const ScaleRange& scale) const {
    if (scale.uniform)
        return tr("uniform within %1 % of the mean, so not painted (the differences are "
                  "below %2 %)")
            .arg(scale.spread * 100, 0, 'g', 2)
            .arg(kUniformBelow * 100, 0, 'f', 0);
    if (scale.scale == HeatScale::PerLayer)
        return tr("each layer divided by its own maximum, then averaged over the layers shown "
                  "(per layer, derived); colours from 0 to the largest average%1")
            .arg(scaleShared() ? tr(" of both sides (one scale)") : QString());
    if (scaleShared())
        return scale.scale == HeatScale::Absolute
                   ? tr("colours from 0 to the maximum of both sides (absolute, one scale)")
                   : tr("colours from the minimum to the maximum of both sides (range, one "
                        "scale)");
    return scale.scale == HeatScale::Absolute ? tr("colours from 0 to the maximum (absolute)")
                                              : tr("colours from the minimum to the maximum "
                                                   "(range)");
}

QString HeatmapView::gridCsv() const {
    return grid_.values.empty() ? QString() : QString::fromStdString(mvp::gridCsv(grid_));
}

void HeatmapView::setSession(std::shared_ptr<const SessionData> data, bool keepState) {
    const QVariant metric = metric_->currentData();
    const int phase = phase_->currentIndex(), first = first_->value(), last = last_->value(),
              selected = selected_;
    data_ = std::move(data);
    grids_.cancel(); // a result for the previous data must not land on this one
    cacheKey_.clear();
    pendingKey_.clear();
    showGrid({}, {});
    allGrids_.clear();
    {
        // Offer the metrics this run has data for.
        QSignalBlocker block(metric_);
        metric_->clear();
        // The analysis (done off the GUI thread) already holds every metric over all layers.
        for (const auto& m : heatmapMetrics())
            if (data_ && data_->analysis.heatmaps.count(m))
                metric_->addItem(
                    tr("%1 (%2)").arg(metricLabel(m), provenanceLabel(heatMetric(m)->provenance)),
                    QString::fromStdString(m));
    }
    shownImage_ = data_ ? asTheModelSawIt(*data_) : QImage();
    display_ =
        !shownImage_.isNull() ? fitWithin(fromQImage(shownImage_), kDisplaySide) : RgbImage{};
    const int lo = data_ && !data_->layers.empty() ? data_->layers.front() : 0;
    const int hi = data_ && !data_->layers.empty() ? data_->layers.back() : 0;
    for (auto* spin : {first_, last_}) {
        QSignalBlocker block(spin);
        spin->setRange(lo, hi);
    }
    {
        QSignalBlocker b1(first_), b2(last_);
        first_->setValue(lo);
        last_->setValue(hi);
    }
    // A pruned run fed the decoder only some patches: grey out the others.
    std::vector<bool> pruned;
    if (data_ && data_->grid) {
        const auto seen = patchOfPosition(data_->data);
        const int patches = data_->grid->gridH * data_->grid->gridW;
        if (!seen.empty() && int(seen.size()) < patches) {
            pruned.assign(size_t(patches), true);
            for (const auto& [position, patch] : seen)
                if (patch >= 0 && patch < patches) pruned[size_t(patch)] = false;
        }
    }
    // The tokens a what-if kept, outlined: those it sent, or (a method that
    // drops inside the decoder) those the last shown layer's input held.
    std::vector<bool> kept;
    for (size_t i = 0; i < pruned.size(); ++i)
        kept.push_back(!pruned[i]);
    canvas_->setPrunedPatches(std::move(pruned));
    canvas_->setKeptPatches(std::move(kept));
    if (keepState) {
        QSignalBlocker b1(metric_), b2(phase_), b3(first_), b4(last_);
        if (const int i = metric_->findData(metric); i >= 0) metric_->setCurrentIndex(i);
        phase_->setCurrentIndex(phase);
        first_->setValue(first); // clamped to the new range
        last_->setValue(last);
    }
    outlineHeldTokens();
    render();
    if (keepState && selected >= 0) {
        selected_ = selected;
        canvas_->setSelectedPatch(selected);
    }
}

void HeatmapView::showScale(const std::string& metric, const ScaleRange& scale, Colormap map) {
    const auto info = heatMetric(metric);
    if (!info || scale.uniform) { // nothing painted: no colours to explain
        colourBar_->clear();
        return;
    }
    if (perLayer() && isLayerCombined(metric)) {
        // Unitless: each layer's share of its own maximum.
        const ColourBarText values = heatLegend({info->name, Provenance::Derived, ""}, scale);
        colourBar_->setScale(
            map,
            {metricLabel(metric), tr("(%1)").arg(provenanceLabel(Provenance::Derived)),
             tr("layers %1–%2, each to its maximum").arg(first_->value()).arg(last_->value()),
             tr("unit: none (share of each layer's maximum)")},
            QString::fromStdString(values.high), QString::fromStdString(values.low));
        return;
    }
    const ColourBarText values = heatLegend(*info, scale);
    // The ends carry SI prefixes (µs, kFLOP): the unit line names the base unit.
    const QString unit =
        info->unit.empty() ? tr("none (score)")
        : info->unit == "ns"
            ? tr("s, with SI prefixes")
            : tr("%1, with SI prefixes")
                  .arg(QString::fromLatin1(info->unit.data(), qsizetype(info->unit.size())));
    colourBar_->setScale(map,
                         {metricLabel(metric), tr("(%1)").arg(provenanceLabel(info->provenance)),
                          tr("layers %1–%2").arg(first_->value()).arg(last_->value()),
                          tr("unit: %1").arg(unit)},
                         QString::fromStdString(values.high), QString::fromStdString(values.low));
}

struct HeatmapView::Grids {
    std::map<std::string, HeatGrid> byMetric;
    QString error;
};

void HeatmapView::recompute(const QString& key) {
    if (key == pendingKey_ && grids_.busy()) return; // already on its way
    pendingKey_ = key;
    info_->setText(
        tr("Computing the heatmap for layers %1–%2…").arg(first_->value()).arg(last_->value()));
    const LayerRange range{first_->value(), last_->value()};
    const std::optional<Phase> phase = chosenPhase(phase_);
    const LayerCombine combine = perLayer() ? LayerCombine::PerLayerNormalised : LayerCombine::Sum;
    grids_.start([data = data_, range, phase, combine](const auto&) {
        auto g = std::make_shared<Grids>();
        try {
            g->byMetric = computePatchMetrics(data->data, range, phase, combine);
        } catch (const std::exception& e) {
            g->error = QString::fromLocal8Bit(e.what());
        }
        return std::shared_ptr<const Grids>(std::move(g));
    });
}

void HeatmapView::recomputed(const std::shared_ptr<const Grids>& grids) {
    if (!grids->error.isEmpty()) {
        info_->setText(tr("The heatmap could not be computed: %1").arg(grids->error));
        return;
    }
    allGrids_ = grids->byMetric;
    cacheKey_ = pendingKey_;
    render();
}

void HeatmapView::outlineHeldTokens() {
    if (!data_ || !data_->grid || data_->data.tokensKept.empty()) return;
    // FastV, PyramidDrop, DART: outline what the last shown layer's input
    // held, when that layer held fewer image tokens than it was sent.
    const int layer = last_->value();
    const int patches = data_->grid->gridH * data_->grid->gridW;
    std::vector<bool> held(size_t(patches), false);
    int rows = 0, kept = 0;
    for (const auto& r : data_->data.tokensKept)
        if (r.layer == layer && r.patch >= 0 && r.patch < patches) {
            ++rows;
            if (r.value > 0) held[size_t(r.patch)] = true, ++kept;
        }
    canvas_->setKeptPatches(rows > 0 && kept < rows ? std::move(held) : std::vector<bool>{});
}

void HeatmapView::render() {
    if (!data_ || data_->image.isNull() || !data_->grid || metric_->count() == 0)
        showGrid({}, {}); // nothing for a linked peer to share
    if (!data_ || data_->image.isNull()) {
        canvas_->setImages({}, 0, 0, {});
        colourBar_->clear();
        info_->setText(!data_ ? QString()
                       : data_->data.importFormat.empty()
                           ? tr("This run has no stored image.")
                           : tr("This run was imported from a trace, which has no image: "
                                "heatmaps need an mvprof capture."));
        return;
    }
    if (last_->value() < first_->value()) {
        QSignalBlocker b(last_);
        last_->setValue(first_->value());
    }
    if (!data_->grid || metric_->count() == 0) {
        canvas_->setImages(data_->image, 0, 0, {});
        colourBar_->clear();
        info_->setText(tr("No patch values in this run (captured with --no-probes?)."));
        return;
    }
    const std::optional<Phase> phase = chosenPhase(phase_);
    const QString key = QStringLiteral("%1-%2:%3:%4")
                            .arg(first_->value())
                            .arg(last_->value())
                            .arg(phase ? int(*phase) : -1)
                            .arg(perLayer() ? 1 : 0);
    if (key != cacheKey_) {
        // The analysis holds every metric over all layers and phases; any other range is
        // computed off the GUI thread, and the picture stays as it is meanwhile.
        const bool everything =
            !phase && !perLayer() &&
            (data_->layers.empty() ||
             (first_->value() == data_->layers.front() && last_->value() == data_->layers.back()));
        if (!everything) {
            recompute(key);
            return;
        }
        grids_.cancel();
        allGrids_ = data_->analysis.heatmaps;
        cacheKey_ = key;
    }
    const std::string metric = metric_->currentData().toString().toStdString();
    const auto it = allGrids_.find(metric);
    if (it == allGrids_.end()) {
        showGrid({}, {});
        canvas_->setImages(data_->image, 0, 0, {});
        colourBar_->clear();
        info_->setText(tr("No %1 values for layers %2–%3.")
                           .arg(metric_->currentText())
                           .arg(first_->value())
                           .arg(last_->value()));
        return;
    }
    showGrid(metric, it->second);
    const HeatGrid* grid = &grid_;
    const auto map =
        colormapFromName(colormap_->currentText().toStdString()).value_or(Colormap::Viridis);
    const ScaleRange scale = chosenScale(*grid);
    canvas_->setImages(toQImage(overlayOn(display_, *grid, scale)), grid->rows, grid->cols,
                       grid->values);
    showScale(metric, scale, map);
    const QString image =
        shownImage_.size() == data_->image.size()
            ? tr("image %1 × %2 px").arg(data_->image.width()).arg(data_->image.height())
            : tr("image %1 × %2 px shown resized to the model's input shape, as its "
                 "preprocessing resized it (square patches)")
                  .arg(data_->image.width())
                  .arg(data_->image.height());
    info_->setText(tr("%1: %2 × %3 patches, layers %4–%5; %6; %7")
                       .arg(metricLabel(metric))
                       .arg(grid->rows)
                       .arg(grid->cols)
                       .arg(first_->value())
                       .arg(last_->value())
                       .arg(scaleText(scale))
                       .arg(image));
}

} // namespace mvp::views
