#pragma once
// A what-if's A/B repetitions in the comparison view (docs/diagnostics.md §9): a
// table of each phase's medians with their intervals and the paired speed-up
// ("within noise" when its interval holds 1.0; noise-control phases marked),
// and a chart of the same medians as bars with the intervals as error bars.

#include "core/compare/AbTimings.h"
#include "views/RowTableModel.h"

#include <QPainter>
#include <QWidget>
#include <optional>

namespace mvp::views {

class AbTimingsModel : public RowTableModel<AbPhase> {
    Q_OBJECT
public:
    enum Column { Phase, Baseline, WhatIf, Speedup, Verdict, ColumnCount };
    explicit AbTimingsModel(QObject* parent = nullptr);
    // Phases then the total; empty without repetitions.
    void setTimings(const std::optional<AbTimings>& t);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

// Per phase, A's and B's median latency as bars on a shared scale, each with
// its interval as an error bar, and the speed-up beside them.
class AbChart : public QWidget {
    Q_OBJECT
public:
    explicit AbChart(QWidget* parent = nullptr);
    void setTimings(const std::optional<AbTimings>& t);
    const std::optional<AbTimings>& timings() const { return timings_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString speedupLabel(const AbPhase& r) const;
    void paintRow(QPainter& p, const AbPhase& r, const QRect& row, int labelW, int barW) const;
    std::optional<AbTimings> timings_;
};

} // namespace mvp::views
