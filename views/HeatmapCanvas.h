#pragma once
// The picture of the heatmap view: the image with its overlay, kept to its
// aspect ratio, zoomable and pannable, with the patch grid, the selected
// patch, pruned patches greyed and kept ones outlined. Hovering a patch
// reports it; clicking selects it.

#include <QImage>
#include <QPointF>
#include <QWidget>
#include <vector>

namespace mvp::views {

class HeatmapCanvas : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapCanvas(QWidget* parent = nullptr);
    void setImages(const QImage& overlay, int gridRows, int gridCols, std::vector<double> values);
    const QImage& overlay() const { return overlay_; }
    QSize sizeHint() const override { return {480, 480}; }
    // Where the image is drawn inside the widget.
    QRect imageRect() const;

    // Outlines one patch (-1: none).
    void setSelectedPatch(int patch);
    // Patches whose tokens the run never fed the decoder (visual-token
    // pruning) are drawn greyed out; empty: none.
    void setPrunedPatches(std::vector<bool> pruned);
    const std::vector<bool>& prunedPatches() const { return pruned_; }
    // Patches whose tokens a what-if kept are outlined (a method that drops
    // or merges visual tokens); empty: none.
    void setKeptPatches(std::vector<bool> kept);
    const std::vector<bool>& keptPatches() const { return kept_; }
    static QColor keptOutline() { return QColor(0, 229, 255); }
    void setGridVisible(bool on);
    // The patch boundaries' opacity in [0, 1].
    void setGridOpacity(double opacity);
    // Zoom factor (1 = fit) and pan offset in widget pixels; wheel zooms at
    // the cursor, the middle or right button drags, a double-click fits again.
    double zoom() const { return zoom_; }
    void setZoom(double zoom, QPointF anchor);
    void resetView();
    // The patch under a widget position, or -1.
    int patchAt(QPointF pos) const;

signals:
    void patchHovered(int row, int col, double value);
    void patchClicked(int patch);

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;

private:
    int selected_ = -1;
    bool gridVisible_ = false;
    double gridOpacity_ = 0.35;
    double zoom_ = 1.0;
    QPointF pan_;
    QPointF dragFrom_;
    bool dragging_ = false;
    QImage overlay_;
    int rows_ = 0, cols_ = 0;
    std::vector<double> values_;
    std::vector<bool> pruned_;
    std::vector<bool> kept_;
};

} // namespace mvp::views
