#pragma once
// Colours that read on the current palette, light or dark: text-like colours
// from the palette itself, signal colours (good, bad, warning) in a light-
// and a dark-theme variant, tints mixed into the palette's base, and plots
// styled to match the window rather than QCustomPlot's fixed white.

#include <QColor>
#include <QPalette>

class QCustomPlot;

namespace mvp::views::colours {

bool isDark(const QPalette& p);
QColor ink(const QPalette& p);   // text and lines that must stand out
QColor muted(const QPalette& p); // secondary text (stale rows)
QColor good(const QPalette& p);  // faster, smaller
QColor bad(const QPalette& p);   // slower, larger, critical
QColor warning(const QPalette& p);
// `hue` mixed into the base colour by `amount` in [0, 1]: backgrounds that keep text readable.
QColor tint(const QPalette& p, const QColor& hue, double amount);
// WCAG contrast ratio of two colours, 1 (none) to 21 (black on white).
double contrast(const QColor& a, const QColor& b);

// Background, axes, ticks, labels, grid and legend from `p`.
void stylePlot(QCustomPlot& plot, const QPalette& p);

} // namespace mvp::views::colours
