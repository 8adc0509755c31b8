#pragma once
// The input image with the patch heatmap overlaid: metric, layer range,
// colormap and opacity controls above a canvas that keeps the aspect ratio.
// Hovering a patch shows its row, column and value.

#include "core/analysis/Heatmap.h"
#include "views/HeatmapCanvas.h"
#include "views/LatestJob.h"

#include <QImage>
#include <QPointer>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace mvp::views {

class ColourBar;
struct SessionData;

// The translated name of a heatmap metric ("attention", "expert_flops", …).
QString metricLabel(const std::string& metric);

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    // keepState: a reload of the same run keeps the metric, phase, layer
    // range and selected patch where they still apply.
    void setSession(std::shared_ptr<const SessionData> data, bool keepState = false);

    // The overlay as shown (the stored image, downscaled to at most
    // kDisplaySide pixels so that re-colouring never stalls the GUI).
    const QImage& overlay() const;
    // The colormap chooser (the window remembers its choice across sessions).
    QComboBox* colormap() const { return colormap_; }
    // Every metric's value at one patch, for the hover read-out.
    QString describePatch(int patch) const;
    // The overlay at the stored image's full resolution with the current
    // settings (for export); null without an image or values.
    QImage fullResolutionOverlay() const;
    // The same with the colour bar beside it, drawn with the window's font
    // scaled to the image (text stays sharp at any size), dark on white; the
    // overlay alone where the grid is uniform (no colours to explain).
    QImage fullResolutionOverlayWithLegend() const;
    // The current grid (raw values, before normalisation) as CSV.
    QString gridCsv() const;

    // Selects a visual patch (row-major index, -1: none) everywhere.
    void selectPatch(int patch);
    int selectedPatch() const { return selected_; }
    // True while the grids for a new layer range or phase are computed (off the GUI thread).
    bool recomputing() const { return grids_.busy(); }

    // Side by side: while this view and `peer` show the same metric, both
    // colour on one scale, the union of their values, and their scale
    // choices follow each other; nullptr unlinks (each its own scale again).
    void shareScaleWith(HeatmapView* peer);
    // Linked and showing the same metric as the peer now.
    bool scaleShared() const { return peerGrid() != nullptr; }

signals:
    void statusMessage(const QString& text);
    void patchSelected(int patch);
    // The metric or the grid shown changed (what a linked peer's scale reads).
    void gridShown();

private:
    void render();
    void outlineHeldTokens(); // the tokens.kept of the last shown layer, if it dropped some
    struct Grids;
    void recompute(const QString& key);
    void recomputed(const std::shared_ptr<const Grids>& grids);
    void showScale(const std::string& metric, const ScaleRange& scale, Colormap map);
    ScaleRange chosenScale(const HeatGrid& grid) const; // the grid on the chosen scale
    bool perLayer() const;                              // the per-layer normalised scale is chosen
    // The stored image at the model's input aspect (the grid's), if it differs.
    static QImage asTheModelSawIt(const SessionData& d);
    // Whether `metric`'s grid is combined per layer on that scale.
    static bool isLayerCombined(const std::string& metric);
    const HeatGrid* peerGrid() const; // the linked peer's grid if it shows the same metric
    // Sets the grid shown and its metric; emits gridShown on a change.
    void showGrid(const std::string& metric, const HeatGrid& grid);
    // The grid coloured over `image` on `scale`; the image alone
    // where the grid is uniform (its differences are noise).
    RgbImage overlayOn(const RgbImage& image, const HeatGrid& grid, const ScaleRange& scale) const;
    QString scaleText(const ScaleRange& scale) const; // what the colours map, for the info line

    static constexpr int kDisplaySide = 1024;
    std::shared_ptr<const SessionData> data_;
    QImage shownImage_; // the stored image as the model saw it (asTheModelSawIt)
    RgbImage display_;
    HeatGrid grid_;     // the current metric's grid
    std::string shown_; // its metric ("" while none is shown)
    QPointer<HeatmapView> peer_;
    std::vector<QMetaObject::Connection> peerLinks_;
    QString cacheKey_;   // layer range and phase allGrids_ was derived for
    QString pendingKey_; // what the newest recomputation is for
    QComboBox* metric_;
    QComboBox* phase_;
    QComboBox* colormap_;
    QComboBox* scale_; // HeatScale: absolute (from 0), the grid's range, or per layer
    QSpinBox* first_;
    QSpinBox* last_;
    QSlider* opacity_;
    QCheckBox* gridToggle_;
    QSlider* gridOpacity_; // the patch boundaries' opacity, while they are drawn
    std::map<std::string, HeatGrid> allGrids_; // every metric at the current layer range
    QLabel* info_;
    HeatmapCanvas* canvas_;
    ColourBar* colourBar_;
    int selected_ = -1;
    // Declared last: destroyed first, before what its results would touch.
    LatestJob<std::shared_ptr<const Grids>> grids_{this, [this](auto g) { recomputed(g); }};
};

} // namespace mvp::views
