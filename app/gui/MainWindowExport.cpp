// MainWindow's exports: what the views show, written to PNG, PDF, CSV or
// Markdown (File → Export).
#include "app/gui/MainWindow.h"
#include "core/report/Report.h"
#include "views/ExpertLoadView.h"
#include "views/Export.h"
#include "views/FindingsView.h"
#include "views/HeatmapView.h"
#include "views/ModuleTreeView.h"
#include "views/SessionData.h"
#include "views/TimelineView.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <qcustomplot.h>

namespace mvp {

QString MainWindow::exportTo(Export kind, const QString& path) {
    if (!session_) return tr("Open a session first.");
    switch (kind) {
    case Export::HeatmapPng:
        return views::writeImageFile(path, heatmap_->fullResolutionOverlay());
    case Export::HeatmapLegendPng:
        return views::writeImageFile(path, heatmap_->fullResolutionOverlayWithLegend());
    case Export::HeatmapCsv: {
        const QString csv = heatmap_->gridCsv();
        return csv.isEmpty() ? tr("This run has no heatmap values.")
                             : views::writeTextFile(path, csv);
    }
    case Export::ModulesCsv:
        return views::writeTextFile(path, views::modelToCsv(*modules_->proxy()));
    case Export::FindingsCsv:
        return views::writeTextFile(path, views::modelToCsv(*findings_->proxy()));
    case Export::FindingsMarkdown: {
        SessionReport rep;
        rep.path = session_->path.toStdString();
        rep.runs.push_back(session_->analysis);
        return views::writeTextFile(path, QString::fromStdString(formatMarkdown(rep)));
    }
    case Export::ExpertPlotPng:
    case Export::TimelinePng: {
        auto* plot = kind == Export::ExpertPlotPng ? experts_->barsPlot() : timeline_->plot();
        return plot->savePng(path, 0, 0, 2.0) ? QString() : tr("Writing %1 failed").arg(path);
    }
    case Export::ExpertPlotPdf:
    case Export::TimelinePdf: {
        auto* plot = kind == Export::ExpertPlotPdf ? experts_->barsPlot() : timeline_->plot();
        return plot->savePdf(path) ? QString() : tr("Writing %1 failed").arg(path);
    }
    }
    return tr("Unknown export");
}

void MainWindow::chooseExport(Export kind) {
    if (!session_) {
        statusBar()->showMessage(tr("Open a session first"), 4000);
        return;
    }
    const bool png = kind == Export::HeatmapPng || kind == Export::HeatmapLegendPng ||
                     kind == Export::ExpertPlotPng || kind == Export::TimelinePng;
    const bool pdf = kind == Export::ExpertPlotPdf || kind == Export::TimelinePdf;
    const bool md = kind == Export::FindingsMarkdown;
    const QString filter = png   ? tr("PNG images (*.png)")
                           : pdf ? tr("PDF documents (*.pdf)")
                           : md  ? tr("Markdown (*.md)")
                                 : tr("CSV tables (*.csv)");
    const QString suffix = png   ? QStringLiteral(".png")
                           : pdf ? QStringLiteral(".pdf")
                           : md  ? QStringLiteral(".md")
                                 : QStringLiteral(".csv");
    QSettings settings;
    const QString dir =
        settings.value(QStringLiteral("exportDirectory"), QFileInfo(session_->path).absolutePath())
            .toString();
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export"),
        QDir(dir).filePath(QFileInfo(session_->path).completeBaseName() + suffix), filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(suffix)) path += suffix;
    settings.setValue(QStringLiteral("exportDirectory"), QFileInfo(path).absolutePath());
    const QString error = exportTo(kind, path);
    if (!error.isEmpty())
        showError(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

} // namespace mvp
