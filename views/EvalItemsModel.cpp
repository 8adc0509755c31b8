#include "views/EvalItemsModel.h"

#include <map>

namespace mvp::views {

std::vector<EvalItemPair> pairEvalItems(const std::vector<EvalItemRow>& a,
                                        const std::vector<EvalItemRow>& b) {
    std::map<int, const EvalItemRow*> byItem;
    for (const auto& i : a)
        byItem[i.item] = &i;
    std::vector<EvalItemPair> out;
    for (const auto& i : b)
        if (const auto it = byItem.find(i.item); it != byItem.end())
            out.push_back({*it->second, i});
    return out;
}

EvalItemsModel::EvalItemsModel(QObject* parent) : RowTableModel(parent) {}

int EvalItemsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
QString matchText(const std::optional<bool>& m) {
    return !m ? EvalItemsModel::tr("–") : *m ? EvalItemsModel::tr("yes") : EvalItemsModel::tr("no");
}
QString joined(const std::vector<std::string>& answers) {
    QStringList out;
    for (const auto& a : answers)
        out << QString::fromStdString(a);
    return out.join(QStringLiteral(" | "));
}
} // namespace

QVariant EvalItemsModel::data(const QModelIndex& index, int role) const {
    const EvalItemPair* p = rowAt(index);
    if (!p) return {};
    if (role == SortRole) {
        switch (index.column()) {
        case Kl:
            return p->b.klMean.value_or(-1);
        case MatchA:
            return p->a.correct ? int(*p->a.correct) : -1;
        case MatchB:
            return p->b.correct ? int(*p->b.correct) : -1;
        default:
            break;
        }
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case Id:
            return QString::fromStdString(p->b.id);
        case Kind:
            return QString::fromStdString(p->b.kind);
        case Prompt:
            return QString::fromStdString(p->b.prompt);
        case Expected:
            return joined(p->b.answers);
        case AnswerA:
            return QString::fromStdString(p->a.output);
        case AnswerB:
            return QString::fromStdString(p->b.output);
        case MatchA:
            return matchText(p->a.correct);
        case MatchB:
            return matchText(p->b.correct);
        case Kl:
            return p->b.klMean ? QString::number(*p->b.klMean, 'g', 3) : tr("–");
        case Changed:
            return p->changed() ? tr("changed") : tr("same");
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Kl)
        return tr("KL(A ‖ B) of the next-token distributions on this item, mean over the decode "
                  "steps both produced (measured)");
    return {};
}

QVariant EvalItemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Id:
        return tr("Item");
    case Kind:
        return tr("Kind");
    case Prompt:
        return tr("Prompt");
    case Expected:
        return tr("Expected");
    case AnswerA:
        return tr("A's answer");
    case AnswerB:
        return tr("B's answer");
    case MatchA:
        return tr("A right");
    case MatchB:
        return tr("B right");
    case Kl:
        return tr("KL (measured)");
    case Changed:
        return tr("Answer");
    }
    return {};
}

} // namespace mvp::views
