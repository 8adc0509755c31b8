#include "views/PlotLegend.h"

#include <QAction>
#include <QCoreApplication>
#include <algorithm>
#include <qcustomplot.h>

namespace mvp::views {

namespace {
void showLegend(QCustomPlot& plot, bool on) {
    plot.legend->setVisible(on);
    QCPLayoutGrid* layout = plot.plotLayout();
    if (!on) {
        layout->take(plot.legend);
        layout->simplify();
    } else if (plot.legend->layout() != layout) {
        layout->addElement(layout->rowCount(), 0, plot.legend);
        layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
    }
    plot.replot();
}
} // namespace

void wrapLegendToWidth(QCustomPlot& plot) {
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

void putLegendBelow(QCustomPlot& plot) {
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(plot.plotLayout()->rowCount(), 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(plot.plotLayout()->rowCount() - 1, 0.001);
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot.legend->setIconSize(18, 10); // QCustomPlot's 32 px lines leave less for the names
    QObject::connect(&plot, &QCustomPlot::beforeReplot, &plot, [p = &plot] {
        if (p->legend->visible()) wrapLegendToWidth(*p);
    });
    auto* toggle = new QAction(
        QCoreApplication::translate("mvp::views::PlotLegend", "Show Legend"), &plot);
    toggle->setObjectName(QStringLiteral("showLegend"));
    toggle->setCheckable(true);
    toggle->setChecked(true);
    plot.addAction(toggle);
    plot.setContextMenuPolicy(Qt::ActionsContextMenu);
    QObject::connect(toggle, &QAction::toggled, &plot,
                     [p = &plot](bool on) { showLegend(*p, on); });
}

} // namespace mvp::views
