#pragma once
// Expert load: for the chosen MoE layer and phase, one bar per expert stacked
// by modality (visual below, text above) and coloured by state (overloaded,
// hot, normal, underloaded, cold/dead), with the overload threshold drawn;
// below, a layer × expert grid of Z-scores; and the balance scalars with their
// sample sizes.

#include "core/analysis/MoeStats.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QCPColorScale;
class QCustomPlot;

namespace mvp::views {

struct SessionData;

class ExpertLoadView : public QWidget {
    Q_OBJECT
public:
    explicit ExpertLoadView(QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const SessionData> data);
    // Selects a layer (by decoder layer index); false if it has no MoE.
    bool selectLayer(int layer);
    // Highlights the experts a sequence position was routed to (-1: none).
    void selectToken(int position);
    int selectedToken() const { return token_; }
    // The selected token's routing, one line per layer ("" without one).
    QString tokenRouting() const;

    QComboBox* layerBox() const { return layer_; }
    QComboBox* phaseBox() const { return phase_; }
    QCustomPlot* barsPlot() const { return bars_; }
    QCustomPlot* zGridPlot() const { return grid_; }
    // The statistics currently drawn (for tests and the status bar).
    const LayerMoeReport& shown() const { return shown_; }

protected:
    void changeEvent(QEvent* e) override; // a new theme redraws in its colours

private:
    void render();
    // render()'s steps, over shown_ (the chosen layer and phase).
    void drawLoadBars();
    void outlineToken(int layer);
    void scaleBars();
    void showScalars(int layer);
    void drawZGrid();

    std::shared_ptr<const SessionData> data_;
    QComboBox* layer_;
    QComboBox* phase_;
    QLabel* scalars_;
    QCustomPlot* bars_;
    QCustomPlot* grid_;
    QCPColorScale* zScale_ = nullptr; // the Z grid's colour scale, beside it
    LayerMoeReport shown_;
    int token_ = -1;
    QLabel* tokenLabel_;
};

} // namespace mvp::views
