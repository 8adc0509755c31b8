#pragma once
// Legends beside the data, never over it: below the axis rect, filled in
// columns, as many to a row as the plot's width holds (re-wrapped before
// every replot), so no legend hides a bar or a point, and its own text is
// not cut where a dock is narrow.

#include <algorithm>
#include <qcustomplot.h>

namespace mvp::views {

// As many legend columns as the plot's width holds for its widest entry.
inline void wrapLegendToWidth(QCustomPlot& plot) {
    QCPLegend* legend = plot.legend;
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (legend->item(i))
            widest = std::max(widest, legend->item(i)->minimumOuterSizeHint().width());
    if (widest <= 0) return;
    // The legend's row spans the plot layout's width, inside its margins.
    const int outer = legend->outerRect().width() > 0 ? legend->outerRect().width() : plot.width();
    const int room = outer - legend->margins().left() - legend->margins().right();
    const int spacing = legend->columnSpacing();
    const int columns = std::max(1, (room + spacing) / (widest + spacing));
    if (columns == legend->wrap()) return;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true); // rearranges the entries
}

inline void putLegendBelow(QCustomPlot& plot) {
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(plot.plotLayout()->rowCount(), 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(plot.plotLayout()->rowCount() - 1, 0.001);
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot.legend->setIconSize(18, 10); // QCustomPlot's 32 px lines leave less for the names
    QObject::connect(&plot, &QCustomPlot::beforeReplot, &plot,
                     [p = &plot] { wrapLegendToWidth(*p); });
}

} // namespace mvp::views
