#include "views/SweepModels.h"

#include <QJsonArray>
#include <cmath>

namespace mvp::views {

namespace {
double number(const QJsonValue& v) {
    return v.isDouble() ? v.toDouble() : SweepPoint::kNone; // "n/a" and absent: none
}
} // namespace

SweepTable parseSweepTable(const QJsonObject& j) {
    SweepTable t;
    t.baseline = j.value(QStringLiteral("baseline_run")).toInteger();
    t.kv = j.value(QStringLiteral("budget_unit")).toString().startsWith(QLatin1String("fraction"));
    for (const auto& v : j.value(QStringLiteral("points")).toArray()) {
        const QJsonObject o = v.toObject();
        SweepPoint p;
        p.method = o.value(QStringLiteral("method")).toString();
        p.convention = o.value(QStringLiteral("convention")).toString();
        p.parameter = o.value(QStringLiteral("parameter")).toString();
        p.error = o.value(QStringLiteral("error")).toString();
        p.budget = o.value(QStringLiteral("budget")).toDouble();
        p.run = o.value(QStringLiteral("run")).toInteger();
        p.held = number(o.contains(QStringLiteral("tokens_held_measured"))
                            ? o.value(QStringLiteral("tokens_held_measured"))
                            : o.value(QStringLiteral("kv_positions_per_head_measured")));
        const QJsonObject s = o.value(QStringLiteral("speedup")).toObject();
        p.speedup = number(s.value(QStringLiteral("median")));
        const QJsonArray ci = s.value(QStringLiteral("ci95")).toArray();
        if (ci.size() == 2) {
            p.speedupLow = number(ci[0]);
            p.speedupHigh = number(ci[1]);
        }
        p.withinNoise = s.value(QStringLiteral("within_noise")).toBool();
        p.costRatio = number(t.kv ? o.value(QStringLiteral("kv_bytes_ratio_measured"))
                                  : o.value(QStringLiteral("prefill_flops_ratio_estimated")));
        const QJsonObject f = o.value(QStringLiteral("fidelity_measured")).toObject();
        p.klMean = number(f.value(QStringLiteral("kl_mean")));
        p.top1 = number(f.value(QStringLiteral("top1_agreement")));
        p.tokenMatch = number(f.value(QStringLiteral("token_match")));
        t.points.push_back(p);
    }
    return t;
}

void SweepTableModel::setTable(const SweepTable& table) {
    kv_ = table.kv;
    setRows(table.points);
}

int SweepTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Columns;
}

QVariant SweepTableModel::data(const QModelIndex& index, int role) const {
    const SweepPoint* p = rowAt(index);
    if (!p || (role != Qt::DisplayRole && role != Qt::UserRole && role != Qt::ToolTipRole))
        return {};
    const bool raw = role == Qt::UserRole; // the sort key
    auto value = [&](double v, int decimals) -> QVariant {
        if (std::isnan(v)) return raw ? QVariant(-1.0) : QVariant(tr("n/a"));
        return raw ? QVariant(v) : QVariant(QString::number(v, 'f', decimals));
    };
    if (role == Qt::ToolTipRole) return p->error.isEmpty() ? p->convention : p->error;
    switch (index.column()) {
    case Method:
        return p->method;
    case Budget:
        return raw ? QVariant(p->budget) : QVariant(QString::number(p->budget));
    case Parameter:
        return p->error.isEmpty() ? p->parameter : tr("not run");
    case Run:
        return p->run ? QVariant(p->run) : QVariant();
    case Held:
        return value(p->held, kv_ ? 0 : 1);
    case Speedup:
        if (raw || std::isnan(p->speedup)) return value(p->speedup, 3);
        return tr("%1× [%2, %3]%4")
            .arg(p->speedup, 0, 'f', 3)
            .arg(p->speedupLow, 0, 'f', 3)
            .arg(p->speedupHigh, 0, 'f', 3)
            .arg(p->withinNoise ? tr(" within noise") : QString());
    case Cost:
        return value(p->costRatio, 4);
    case Kl:
        return value(p->klMean, 5);
    case Top1:
        return value(p->top1, 2);
    case Match:
        return value(p->tokenMatch, 2);
    case Note:
        return p->error;
    default:
        return {};
    }
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Method:
        return tr("Method");
    case Budget:
        return kv_ ? tr("Budget (KV fraction)") : tr("Budget (tokens)");
    case Parameter:
        return tr("Parameter");
    case Run:
        return tr("Run");
    case Held:
        return kv_ ? tr("Positions/head (measured)") : tr("Tokens held (measured)");
    case Speedup:
        return tr("Speed-up (A/B, measured)");
    case Cost:
        return kv_ ? tr("KV bytes ratio (measured)") : tr("Prefill FLOPs ratio (estimated)");
    case Kl:
        return tr("KL mean (measured)");
    case Top1:
        return tr("Top-1 agreement (measured)");
    case Match:
        return tr("Token match (measured)");
    case Note:
        return tr("Why not run");
    default:
        return {};
    }
}

} // namespace mvp::views
