#pragma once
// A method sweep (`mvprof-cli whatif --sweep … --progress jsonl`'s table) as
// the GUI shows it: one row per method and budget, in a table model (put it
// behind a QSortFilterProxyModel) and as points on a Pareto plot.

#include "views/RowTableModel.h"

#include <QJsonObject>
#include <QString>
#include <limits>
#include <vector>

namespace mvp::views {

struct SweepPoint {
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    QString method, convention, parameter, error; // error: why the point did not run
    double budget = 0;
    qint64 run = 0;      // the stored what-if; 0: not run
    double held = kNone; // image tokens or KV positions per head held (measured)
    double speedup = kNone, speedupLow = kNone, speedupHigh = kNone; // A/B, measured
    bool withinNoise = false;
    double costRatio = kNone; // prefill FLOPs (estimated) or KV bytes (measured) ÷ baseline's
    double klMean = kNone, top1 = kNone, tokenMatch = kNone; // fidelity, measured
};

struct SweepTable {
    qint64 baseline = 0;
    bool kv = false; // KV methods (costRatio is KV bytes); else visual-token methods (FLOPs)
    std::vector<SweepPoint> points;
};
SweepTable parseSweepTable(const QJsonObject& table);

class SweepTableModel : public RowTableModel<SweepPoint> {
    Q_OBJECT
public:
    enum Column {
        Method,
        Budget,
        Parameter,
        Run,
        Held,
        Speedup,
        Cost,
        Kl,
        Top1,
        Match,
        Note, // why a point did not run, in full (the last column, wrapped)
        Columns
    };
    using RowTableModel::RowTableModel;
    void setTable(const SweepTable& table);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    bool kv_ = false;
};

} // namespace mvp::views
