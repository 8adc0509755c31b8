#pragma once
// The heatmap's colour bar: the metric's name, how its values were obtained
// and their unit above a vertical gradient from the grid's maximum (top) to
// its minimum (bottom), both values printed beside it. Palette-aware text.

#include "core/image/Colormap.h"

#include <QStringList>
#include <QWidget>

class QPainter;

namespace mvp::views {

class ColourBar : public QWidget {
    Q_OBJECT
public:
    explicit ColourBar(QWidget* parent = nullptr);
    // `title` lines print above the bar; `high`/`low` at its ends.
    void setScale(Colormap map, const QStringList& title, const QString& high, const QString& low);
    void clear();
    // What it prints, top to bottom (title lines, then high and low).
    QStringList texts() const;
    // Where the gradient is drawn, in widget coordinates.
    QRect barRect() const;
    // Whether a scale is set (clear() or a uniform grid: nothing to explain).
    bool isShown() const;
    // Draws what the widget shows into `area` (logical pixels) with
    // `colours`: an exported image's legend, at any scale the painter has.
    void paint(QPainter& p, QSize area, const QPalette& colours) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QRect barRectIn(QSize area) const;

    bool shown_ = false;
    Colormap map_ = Colormap::Viridis;
    QStringList title_;
    QString high_, low_;
};

} // namespace mvp::views
