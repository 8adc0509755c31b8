#include "views/Colours.h"

#include <cmath>
#include <qcustomplot.h>

namespace mvp::views::colours {

namespace {
double linear(double c) {
    c /= 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double luminance(const QColor& c) {
    return 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue());
}
} // namespace

bool isDark(const QPalette& p) {
    return luminance(p.color(QPalette::Base)) < 0.25;
}

QColor ink(const QPalette& p) {
    return p.color(QPalette::WindowText);
}

QColor muted(const QPalette& p) {
    return p.color(QPalette::Disabled, QPalette::Text);
}

QColor good(const QPalette& p) {
    return isDark(p) ? QColor(110, 210, 120) : QColor(30, 140, 60);
}

QColor bad(const QPalette& p) {
    return isDark(p) ? QColor(255, 115, 105) : QColor(200, 40, 40);
}

QColor warning(const QPalette& p) {
    return isDark(p) ? QColor(255, 185, 70) : QColor(190, 110, 0);
}

QColor tint(const QPalette& p, const QColor& hue, double amount) {
    const QColor base = p.color(QPalette::Base);
    auto mix = [&](int b, int h) { return int(std::lround(b + (h - b) * amount)); };
    return QColor(mix(base.red(), hue.red()), mix(base.green(), hue.green()),
                  mix(base.blue(), hue.blue()));
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

void stylePlot(QCustomPlot& plot, const QPalette& p) {
    const QColor text = ink(p), grid = p.color(QPalette::Mid);
    plot.setBackground(p.color(QPalette::Base));
    for (auto* rect : plot.axisRects())
        for (auto* axis : rect->axes()) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
            axis->grid()->setSubGridPen(QPen(grid, 0, Qt::DotLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    plot.legend->setBrush(p.color(QPalette::Base));
    plot.legend->setBorderPen(QPen(grid));
    plot.legend->setTextColor(text);
}

} // namespace mvp::views::colours
