#pragma once
// A method sweep on a Pareto plot: each run point at its cost (the latency
// ratio 1 / speed-up, or the prefill-FLOPs / KV-bytes ratio) and its fidelity
// (KL to the baseline, top-1 agreement or token match), one colour per
// method, the front joined by a line. Hover names a point; clicking one
// emits runClicked with its stored run.

#include "views/SweepModels.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;

namespace mvp::views {

class ParetoView : public QWidget {
    Q_OBJECT
public:
    enum class Cost { Latency, Ratio };
    enum class Fidelity { Kl, Top1, TokenMatch };

    explicit ParetoView(QWidget* parent = nullptr);
    void setTable(const SweepTable& table);
    void setAxes(Cost cost, Fidelity fidelity);
    QCustomPlot* plot() const { return plot_; }
    // The plotted points (indices into the table's points) and those on the
    // front, by rising cost; a point's position in the plot's pixels.
    const std::vector<size_t>& plotted() const { return plotted_; }
    const std::vector<size_t>& front() const { return front_; }
    QPointF pixelOf(size_t point) const;
    int pointAt(QPointF pos) const; // a table point within a few pixels, or -1

signals:
    void runClicked(qint64 run);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* e) override;

private:
    double costOf(const SweepPoint& p) const;
    double fidelityOf(const SweepPoint& p) const;
    void redraw();
    void setAxisLabels();
    void drawMethod(const QString& method, const QColor& colour, std::vector<size_t> points);

    SweepTable table_;
    Cost cost_ = Cost::Latency;
    Fidelity fidelity_ = Fidelity::Kl;
    QComboBox* costBox_;
    QComboBox* fidelityBox_;
    QCustomPlot* plot_;
    QLabel* info_;
    std::vector<size_t> plotted_, front_;
};

} // namespace mvp::views
