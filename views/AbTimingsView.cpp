#include "views/AbTimingsView.h"

#include "views/ComparisonModels.h"

#include <QPainter>
#include <algorithm>

namespace mvp::views {

namespace {
QString msInterval(const Interval& i) {
    return AbTimingsModel::tr("%1 [%2, %3]")
        .arg(i.median / 1e6, 0, 'f', 2)
        .arg(i.low / 1e6, 0, 'f', 2)
        .arg(i.high / 1e6, 0, 'f', 2);
}

QString verdict(const AbPhase& p) {
    QString v = p.withinNoise() ? AbTimingsModel::tr("within noise")
                : p.speedup.median > 1 ? AbTimingsModel::tr("faster")
                                       : AbTimingsModel::tr("slower");
    if (p.control)
        v += p.withinNoise() ? AbTimingsModel::tr(" · noise control")
                             : AbTimingsModel::tr(" · noise control: machine unsteady");
    return v;
}

// The colours of A and B, as in the heatmaps' A | B order.
const QColor kBaseline(0x4c, 0x78, 0xa8), kWhatIf(0xf5, 0x85, 0x18);
} // namespace

AbTimingsModel::AbTimingsModel(QObject* parent) : RowTableModel(parent) {}

void AbTimingsModel::setTimings(const std::optional<AbTimings>& t) {
    std::vector<AbPhase> rows;
    if (t) {
        rows = t->phases;
        rows.push_back(t->total);
    }
    setRows(std::move(rows));
}

int AbTimingsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AbTimingsModel::data(const QModelIndex& index, int role) const {
    const AbPhase* p = rowAt(index);
    if (!p) return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Phase:
            return QString::fromStdString(p->name());
        case Baseline:
            return msInterval(p->baseline);
        case WhatIf:
            return msInterval(p->whatIf);
        case Speedup:
            return tr("%1× [%2, %3]")
                .arg(p->speedup.median, 0, 'f', 2)
                .arg(p->speedup.low, 0, 'f', 2)
                .arg(p->speedup.high, 0, 'f', 2);
        case Verdict:
            return verdict(*p);
        }
    }
    if (role == ComparisonSortRole) {
        switch (index.column()) {
        case Phase:
            return index.row(); // pipeline order
        case Baseline:
            return p->baseline.median;
        case WhatIf:
            return p->whatIf.median;
        case Speedup:
            return p->speedup.median;
        case Verdict:
            return verdict(*p);
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1 repetitions each; the interval is a pair of order statistics covering "
                  "the median with %2 % confidence")
            .arg(p->speedup.n)
            .arg(100.0 * p->speedup.coverage, 0, 'f', 1);
    return {};
}

QVariant AbTimingsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Phase:
        return tr("Phase");
    case Baseline:
        return tr("A ms, median [interval] (measured)");
    case WhatIf:
        return tr("B ms, median [interval] (measured)");
    case Speedup:
        return tr("Speed-up A/B (derived, paired)");
    case Verdict:
        return tr("Verdict");
    }
    return {};
}

AbChart::AbChart(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(120);
}

void AbChart::setTimings(const std::optional<AbTimings>& t) {
    timings_ = t;
    updateGeometry();
    update();
}

QSize AbChart::sizeHint() const {
    const int phases = timings_ ? int(timings_->phases.size()) + 1 : 1;
    return {640, 24 + 40 * phases};
}

void AbChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().text().color());
    if (!timings_) {
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No A/B repetitions for this pair: one stored run each, no interval. "
                      "Run the what-if again (it repeats both setups by default)."));
        return;
    }
    std::vector<AbPhase> rows = timings_->phases;
    rows.push_back(timings_->total);
    const QFontMetrics fm(font());
    int labelW = 0, speedW = 0;
    for (const auto& r : rows) {
        labelW = std::max(labelW, fm.horizontalAdvance(QString::fromStdString(r.name())) + 12);
        speedW = std::max(speedW, fm.horizontalAdvance(speedupLabel(r)) + 12);
    }
    const int top = fm.height() + 6;
    const int barW = std::max(40, width() - labelW - speedW - 8);
    const int rowH = std::max(8, (height() - top) / int(rows.size()));
    p.drawText(QRect(labelW, 0, width() - labelW, top), Qt::AlignLeft | Qt::AlignVCenter,
               tr("A (blue) and B (orange): median ms with its interval as an error bar "
                  "(measured); each phase on its own scale"));
    for (size_t i = 0; i < rows.size(); ++i)
        paintRow(p, rows[i], QRect(0, top + int(i) * rowH, width(), rowH), labelW, barW);
}

QString AbChart::speedupLabel(const AbPhase& r) const {
    return tr("%1× %2").arg(r.speedup.median, 0, 'f', 2).arg(verdict(r));
}

void AbChart::paintRow(QPainter& p, const AbPhase& r, const QRect& row, int labelW,
                       int barW) const {
    const double scale = std::max({r.baseline.high, r.whatIf.high, 1.0}) / double(barW);
    p.setPen(palette().text().color());
    p.drawText(QRect(row.x(), row.y(), labelW - 6, row.height()), Qt::AlignRight | Qt::AlignVCenter,
               QString::fromStdString(r.name()));
    const int barH = std::max(3, row.height() / 2 - 4);
    for (int arm = 0; arm < 2; ++arm) {
        const Interval& v = arm == 0 ? r.baseline : r.whatIf;
        const int by = row.y() + 2 + arm * (barH + 2);
        p.fillRect(QRect(labelW, by, int(v.median / scale), barH), arm == 0 ? kBaseline : kWhatIf);
        // The error bar: a line from low to high with end ticks.
        p.setPen(QPen(palette().text().color(), 1));
        const int lo = labelW + int(v.low / scale), hi = labelW + int(v.high / scale);
        const int cy = by + barH / 2;
        p.drawLine(lo, cy, hi, cy);
        p.drawLine(lo, by, lo, by + barH);
        p.drawLine(hi, by, hi, by + barH);
    }
    p.drawText(QRect(labelW + barW + 8, row.y(), row.width() - labelW - barW - 8, row.height()),
               Qt::AlignLeft | Qt::AlignVCenter, speedupLabel(r));
}

} // namespace mvp::views
