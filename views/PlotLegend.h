#pragma once
// Legends beside the data, never over it: below the axis rect, filled in
// columns, so no legend hides a bar or a point at any window size.

#include <qcustomplot.h>

namespace mvp::views {

inline void putLegendBelow(QCustomPlot& plot) {
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(plot.plotLayout()->rowCount(), 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(plot.plotLayout()->rowCount() - 1, 0.001);
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
}

} // namespace mvp::views
