#pragma once
// Expert placement (DeepSeek's EPLB, core/placement) for the run shown: the
// GPU shape and which routed tokens count, each MoE layer's balancedness
// before (SGLang's trivial placement) and after, derived, with the summary
// over layers, and SGLang's --init-expert-location file. Recomputed as the
// inputs change: a placement of a few hundred layers takes milliseconds.

#include "core/placement/PlacementPlan.h"

#include <QDialog>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace mvp::views {

struct SessionData;
class PlacementLayersModel;

class PlacementDialog : public QDialog {
    Q_OBJECT
public:
    explicit PlacementDialog(std::shared_ptr<const SessionData> data, QWidget* parent = nullptr);
    ~PlacementDialog() override;

    // The placement for the current inputs; nullopt when EPLB refuses them
    // (the summary says why).
    const std::optional<PlacementPlan>& plan() const { return plan_; }
    // Writes SGLang's placement file; false with a message box on failure.
    bool savePlacement(const QString& path);

private:
    QSpinBox* spin(const char* name, int value, const QString& tip);
    void recompute();
    void chooseFile();

    std::shared_ptr<const SessionData> data_;
    QSpinBox *replicas_, *gpus_, *groups_, *nodes_;
    QComboBox *phase_, *modality_;
    QLabel* summary_;
    PlacementLayersModel* model_;
    QTableView* table_;
    QPushButton* save_;
    std::optional<PlacementPlan> plan_;
};

} // namespace mvp::views
