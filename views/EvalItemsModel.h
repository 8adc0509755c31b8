#pragma once
// The items of two eval runs side by side (docs/eval.md): id, kind, prompt,
// expected answer, A's and B's answers, whether each matches, and B's
// fidelity to A on that item (KL, measured). Sortable (SortRole) and
// filterable to the items whose answers changed (the Changed column).

#include "core/session/Records.h"
#include "views/ItemViews.h"
#include "views/RowTableModel.h"

namespace mvp::views {

struct EvalItemPair {
    EvalItemRow a, b;
    bool changed() const { return a.output != b.output; }
};

// The pairs of `a`'s and `b`'s items with the same index in the set.
std::vector<EvalItemPair> pairEvalItems(const std::vector<EvalItemRow>& a,
                                        const std::vector<EvalItemRow>& b);

class EvalItemsModel : public RowTableModel<EvalItemPair> {
    Q_OBJECT
public:
    enum Column {
        Id,
        Kind,
        Prompt,
        Expected,
        AnswerA,
        AnswerB,
        MatchA,
        MatchB,
        Kl,
        Changed,
        ColumnCount
    };
    explicit EvalItemsModel(QObject* parent = nullptr);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

} // namespace mvp::views
