#pragma once
// Legends beside the data, never over it: below the axis rect, filled in
// columns, as many to a row as the plot's width holds (re-wrapped before
// every replot), so no legend hides a bar or a point, and its own text is
// not cut where a dock is narrow; the plot's context menu hides it.

class QCustomPlot;

namespace mvp::views {

// As many legend columns as the plot's width holds for its widest entry.
void wrapLegendToWidth(QCustomPlot& plot);

// The legend in a row of its own below the plot, wrapped to its width, with
// "Show Legend" (object name "showLegend", checked) in the plot's context
// menu; hidden, the legend gives its row back to the data.
void putLegendBelow(QCustomPlot& plot);

} // namespace mvp::views
