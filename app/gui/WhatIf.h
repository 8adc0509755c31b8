#pragma once
// The GUI's what-ifs: a request that becomes `mvprof-cli whatif … --progress
// jsonl`, the one-click presets of the What-if menu and toolbar, and a dialog
// for custom combinations.

#include <QDialog>
#include <QObject>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QMenu;
class QSpinBox;
class QToolBar;
class QAction;

namespace mvp {

struct WhatIfRequest {
    QString session;
    qint64 baseline = 0;    // 0: the session's first complete baseline
    double pruneVisual = 0; // keep ratio; 0: no token pruning
    QString saliency;       // what ranks the patches: "" (attention), "saliency" or "feature-norm"
    int quantBits = 0;      // 4, 8 or 0
    bool kvInt4 = false;
    bool freezeCold = false;
    double pruneChannels = 0; // fraction; 0: none
    double fastv = 0;         // FastV's R, the fraction of image tokens dropped; 0: none
    int fastvLayer = 0;       // FastV's K; 0: mvprof-cli's default (the paper's 2)
    double pdrop = 0;         // PyramidDrop's λ; 0: none
    bool skipExperts = false; // Expert_Sparsity's dynamic skipping
    int keepExperts = 0;      // Expert_Sparsity's static pruning: experts kept per layer; 0: none
    int visionZip = 0;        // VisionZip: visual tokens the encoder sends; 0: none
    int tome = 0;             // ToMe: tokens merged in every vision block; 0: none
    int downsample = 0;       // the downsample baseline: visual tokens (nearest square); 0: none
    int dart = 0;             // DART: its token count N (4 + 8·floor(N/8) kept); 0: none
    QString kvMethod;      // a published KV method: "streaming", "h2o", "snapkv", "kivi"; "": none
    double kvBudget = 0.4; // the fraction of the prefill each KV head keeps (not KIVI)
    int reps = 5;             // A/B repetitions of both setups (mvprof-cli whatif --reps)
    bool any() const {
        return pruneVisual > 0 || quantBits || kvInt4 || freezeCold || pruneChannels > 0 ||
               fastv > 0 || pdrop > 0 || skipExperts || keepExperts > 0 || !kvMethod.isEmpty() ||
               visionZip > 0 || tome > 0 || downsample > 0 || dart > 0;
    }
    QStringList arguments() const;
    QString label() const; // e.g. "W4 + KV INT4"
};

// The custom what-if dialog: every transform with its parameter.
class WhatIfDialog : public QDialog {
    Q_OBJECT
public:
    explicit WhatIfDialog(QWidget* parent = nullptr);
    WhatIfRequest request() const; // session and baseline left for the caller

private:
    QCheckBox* prune_;
    QDoubleSpinBox* keep_;
    QComboBox* saliency_;
    QComboBox* quant_;
    QCheckBox* kv_;
    QCheckBox* freeze_;
    QCheckBox* channels_;
    QDoubleSpinBox* channelFraction_;
    QComboBox* drop_; // visual tokens dropped inside the decoder: none, FastV, PyramidDrop, DART
    QDoubleSpinBox* dropFraction_; // FastV's R, PyramidDrop's λ
    QSpinBox* dropTokens_;         // DART's N
    QCheckBox* skipExperts_;
    QCheckBox* keepExperts_;
    QSpinBox* keptExperts_;
    QComboBox* encoder_; // tokens the encoder sends: as is, VisionZip, ToMe, downsampled
    QSpinBox* encoderValue_;
    QComboBox* kvMethod_; // none, StreamingLLM, H2O, SnapKV, KIVI
    QDoubleSpinBox* kvBudget_;
    QSpinBox* reps_;

    void encoderChosen(); // the value box's meaning, range and default follow the method
    void dropChosen();    // the fraction for FastV/PyramidDrop, the count for DART
};

// The What-if menu and toolbar: one action per transform, one for the
// design note's combination, and Custom…; `requested` carries the choice.
class WhatIfActions : public QObject {
    Q_OBJECT
public:
    WhatIfActions(QMenu* menu, QToolBar* toolbar, QWidget* dialogParent);
    void setEnabled(bool enabled);
    // The preset action for a transform name: "prune", "fastv", "pdrop", "w4", "w8", "kv",
    // "visionzip", "h2o", "kivi", "freeze", "skip", "channels", "combined".
    QAction* action(const QString& name) const;

signals:
    void requested(const WhatIfRequest& request);
    void compareRequested(); // What-if → Compare Methods…

private:
    std::vector<std::pair<QString, QAction*>> actions_;
};

} // namespace mvp
