#pragma once
// The module cost tree as a Qt item model: one row per probed module, nested as
// in the model (vision → blocks → attn/mlp; llm → layers → attn/moe → experts).
// Display text is formatted; Qt::UserRole holds the raw number for sorting.

#include "core/analysis/ModuleCosts.h"
#include "views/ItemViews.h"

#include <QAbstractItemModel>

namespace mvp::views {

class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        Module,
        Kind,
        Calls,
        TotalMs,
        SelfMs,
        Share,
        GFlops,
        MBytes,
        Intensity,
        BoundColumn,
        DeviceMs, // GPU time launched inside (measured); "–" for a run without GPU activity
        ColumnCount
    };
    static constexpr int SortRole = views::SortRole;

    explicit ModuleTreeModel(QObject* parent = nullptr);

    // ridge: the device's FLOP/byte ridge point for the bound column (0: unknown).
    void setTree(ModuleCostTree tree, double ridge = 0);
    const ModuleCostTree& tree() const { return tree_; }
    // The module shown at `index`, or nullptr.
    const ModuleCost* costAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const std::vector<size_t>& childrenOf(const QModelIndex& parent) const;
    ModuleCostTree tree_;
    double ridge_ = 0;
    std::vector<std::optional<size_t>> parentOf_; // node → parent node
    std::vector<int> rowOf_;                      // node → row under its parent
};

} // namespace mvp::views
