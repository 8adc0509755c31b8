#pragma once
// One eval item's two answer_attention heatmaps side by side, A | B, over the
// item's image (docs/eval.md): where each run's model looked while it
// answered. Both sides share one colour scale, 0 to the larger of the two
// maxima, so that they compare; B's patches whose tokens the decoder never
// saw (visual-token pruning) are greyed out. The grids come from the
// session (EvalItemRow::heatmap); the image is read from the item's file
// and both overlays drawn off the GUI thread, the newest item winning.

#include "core/analysis/Heatmap.h"
#include "views/EvalItemsModel.h"
#include "views/LatestJob.h"

#include <QImage>
#include <QWidget>

class QLabel;

namespace mvp::views {

class ColourBar;
class HeatmapCanvas;

class EvalItemHeatmaps : public QWidget {
    Q_OBJECT
public:
    explicit EvalItemHeatmaps(QWidget* parent = nullptr);
    // Shows `pair`'s heatmaps (the canvases once drawn); nullptr clears them.
    void showItem(const EvalItemPair* pair);
    // Whether the shown item's overlays are still being drawn.
    bool drawing() const { return renders_.busy(); }

    // One item's overlays, drawn off the GUI thread.
    struct Side {
        HeatGrid raw; // the stored grid, for the canvas's hover values
        QImage overlay;
    };
    struct Rendered {
        Side a, b;
        std::string image; // the item's image file
        bool imageFound = false;
    };

    HeatmapCanvas* canvasA() const { return a_; }
    HeatmapCanvas* canvasB() const { return b_; }
    QLabel* caption() const { return caption_; }
    ColourBar* colourBar() const { return bar_; }

private:
    HeatmapCanvas* a_;
    HeatmapCanvas* b_;
    QLabel* titleA_;
    QLabel* titleB_;
    QLabel* caption_;
    ColourBar* bar_;
    LatestJob<Rendered> renders_;

    void showRendered(Rendered r);
};

} // namespace mvp::views
