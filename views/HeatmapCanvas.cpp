#include "views/HeatmapCanvas.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace mvp::views {

HeatmapCanvas::HeatmapCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(160, 160);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapCanvas::setImages(const QImage& overlay, int rows, int cols,
                              std::vector<double> values) {
    if (overlay.size() != overlay_.size()) resetView();
    overlay_ = overlay;
    rows_ = rows;
    cols_ = cols;
    values_ = std::move(values);
    update();
}

QRect HeatmapCanvas::imageRect() const {
    if (overlay_.isNull()) return {};
    const QSizeF fit = QSizeF(overlay_.size()).scaled(QSizeF(size()), Qt::KeepAspectRatio) * zoom_;
    const QPointF topLeft((width() - fit.width()) / 2 + pan_.x(),
                          (height() - fit.height()) / 2 + pan_.y());
    return QRectF(topLeft, fit).toRect();
}

void HeatmapCanvas::setZoom(double zoom, QPointF anchor) {
    const double z = std::clamp(zoom, 1.0, 32.0);
    // Keep the image point under `anchor` where it is.
    const QPointF centre(width() / 2.0, height() / 2.0);
    pan_ = anchor - centre - (anchor - centre - pan_) * (z / zoom_);
    zoom_ = z;
    if (zoom_ == 1.0) pan_ = {};
    update();
}

void HeatmapCanvas::resetView() {
    zoom_ = 1.0;
    pan_ = {};
    update();
}

void HeatmapCanvas::wheelEvent(QWheelEvent* e) {
    setZoom(zoom_ * std::pow(1.0015, e->angleDelta().y()), e->position());
    e->accept();
}

void HeatmapCanvas::mouseDoubleClickEvent(QMouseEvent*) {
    resetView();
}

void HeatmapCanvas::mouseReleaseEvent(QMouseEvent*) {
    dragging_ = false;
}

void HeatmapCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (overlay_.isNull()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No image in this run"));
        return;
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    const QRect r = imageRect();
    p.drawImage(r, overlay_);
    if (gridVisible_ && rows_ > 0 && cols_ > 0) {
        p.setPen(QPen(QColor(255, 255, 255, int(std::lround(255 * gridOpacity_))), 1));
        for (int c = 1; c < cols_; ++c)
            p.drawLine(QPointF(r.x() + c * double(r.width()) / cols_, r.top()),
                       QPointF(r.x() + c * double(r.width()) / cols_, r.bottom()));
        for (int k = 1; k < rows_; ++k)
            p.drawLine(QPointF(r.left(), r.y() + k * double(r.height()) / rows_),
                       QPointF(r.right(), r.y() + k * double(r.height()) / rows_));
    }
    if (!pruned_.empty() && rows_ > 0 && cols_ > 0 && int(pruned_.size()) == rows_ * cols_) {
        const double w = double(r.width()) / cols_, h = double(r.height()) / rows_;
        for (int i = 0; i < rows_ * cols_; ++i)
            if (pruned_[size_t(i)])
                p.fillRect(QRectF(r.x() + (i % cols_) * w, r.y() + (i / cols_) * h, w, h),
                           QColor(128, 128, 128, 215));
    }
    if (!kept_.empty() && rows_ > 0 && cols_ > 0 && int(kept_.size()) == rows_ * cols_) {
        const double w = double(r.width()) / cols_, h = double(r.height()) / rows_;
        p.setPen(QPen(HeatmapCanvas::keptOutline(), 1.5));
        p.setBrush(Qt::NoBrush);
        for (int i = 0; i < rows_ * cols_; ++i)
            if (kept_[size_t(i)])
                p.drawRect(
                    QRectF(r.x() + (i % cols_) * w + 1, r.y() + (i / cols_) * h + 1, w - 2, h - 2));
    }
    if (selected_ >= 0 && rows_ > 0 && cols_ > 0) {
        const double w = double(r.width()) / cols_, h = double(r.height()) / rows_;
        p.setPen(QPen(Qt::white, 2));
        p.drawRect(QRectF(r.x() + (selected_ % cols_) * w, r.y() + (selected_ / cols_) * h, w, h));
    }
}

void HeatmapCanvas::setPrunedPatches(std::vector<bool> pruned) {
    pruned_ = std::move(pruned);
    update();
}

void HeatmapCanvas::setKeptPatches(std::vector<bool> kept) {
    kept_ = std::move(kept);
    update();
}

int HeatmapCanvas::patchAt(QPointF pos) const {
    const QRect r = imageRect();
    if (!r.contains(pos.toPoint()) || rows_ == 0 || cols_ == 0) return -1;
    const int col = std::min(cols_ - 1, int((pos.x() - r.x()) * cols_ / r.width()));
    const int row = std::min(rows_ - 1, int((pos.y() - r.y()) * rows_ / r.height()));
    return row * cols_ + col;
}

void HeatmapCanvas::mouseMoveEvent(QMouseEvent* e) {
    if (dragging_) {
        pan_ += e->position() - dragFrom_;
        dragFrom_ = e->position();
        update();
        return;
    }
    const int p = patchAt(e->position());
    if (p < 0) return;
    emit patchHovered(p / cols_, p % cols_, size_t(p) < values_.size() ? values_[size_t(p)] : 0.0);
}

void HeatmapCanvas::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton)
        emit patchClicked(patchAt(e->position()));
    else if (e->button() == Qt::MiddleButton || e->button() == Qt::RightButton) {
        dragging_ = true;
        dragFrom_ = e->position();
    }
}

void HeatmapCanvas::setGridVisible(bool on) {
    gridVisible_ = on;
    update();
}

void HeatmapCanvas::setGridOpacity(double opacity) {
    gridOpacity_ = std::clamp(opacity, 0.0, 1.0);
    update();
}

void HeatmapCanvas::setSelectedPatch(int patch) {
    selected_ = patch;
    update();
}

} // namespace mvp::views
