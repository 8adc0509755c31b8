#include "app/gui/WhatIf.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QToolBar>

namespace mvp {

QStringList WhatIfRequest::arguments() const {
    QStringList a{QStringLiteral("whatif"), session, QStringLiteral("--progress"),
                  QStringLiteral("jsonl")};
    if (baseline > 0) a << QStringLiteral("--run") << QString::number(baseline);
    if (pruneVisual > 0) a << QStringLiteral("--prune-visual") << QString::number(pruneVisual);
    if (pruneVisual > 0 && !saliency.isEmpty()) a << QStringLiteral("--saliency") << saliency;
    if (quantBits) a << QStringLiteral("--quant") << QStringLiteral("w%1").arg(quantBits);
    if (kvInt4) a << QStringLiteral("--kv") << QStringLiteral("int4");
    if (freezeCold) a << QStringLiteral("--freeze-cold");
    if (pruneChannels > 0)
        a << QStringLiteral("--prune-channels") << QString::number(pruneChannels);
    if (fastv > 0) a << QStringLiteral("--fastv") << QString::number(fastv);
    if (fastv > 0 && fastvLayer > 0)
        a << QStringLiteral("--fastv-layer") << QString::number(fastvLayer);
    if (pdrop > 0) a << QStringLiteral("--pdrop") << QString::number(pdrop);
    if (skipExperts) a << QStringLiteral("--skip-experts");
    if (keepExperts > 0) a << QStringLiteral("--keep-experts") << QString::number(keepExperts);
    if (visionZip > 0) a << QStringLiteral("--visionzip") << QString::number(visionZip);
    if (tome > 0) a << QStringLiteral("--tome") << QString::number(tome);
    if (downsample > 0) a << QStringLiteral("--downsample") << QString::number(downsample);
    if (dart > 0) a << QStringLiteral("--dart") << QString::number(dart);
    if (!kvMethod.isEmpty()) a << QStringLiteral("--kv-method") << kvMethod;
    if (!kvMethod.isEmpty() && kvMethod != QLatin1String("kivi"))
        a << QStringLiteral("--kv-budget") << QString::number(kvBudget);
    a << QStringLiteral("--reps") << QString::number(reps);
    return a;
}

QString WhatIfRequest::label() const {
    QStringList parts;
    if (quantBits) parts << QObject::tr("W%1").arg(quantBits);
    if (kvInt4) parts << QObject::tr("KV INT4");
    if (pruneVisual > 0) parts << QObject::tr("prune %1").arg(pruneVisual);
    if (freezeCold) parts << QObject::tr("freeze cold experts");
    if (pruneChannels > 0) parts << QObject::tr("prune channels %1").arg(pruneChannels);
    if (fastv > 0) parts << QObject::tr("FastV R %1").arg(fastv);
    if (pdrop > 0) parts << QObject::tr("PyramidDrop λ %1").arg(pdrop);
    if (skipExperts) parts << QObject::tr("skip experts");
    if (keepExperts > 0) parts << QObject::tr("keep %1 experts").arg(keepExperts);
    if (visionZip > 0) parts << QObject::tr("VisionZip %1").arg(visionZip);
    if (tome > 0) parts << QObject::tr("ToMe r %1").arg(tome);
    if (downsample > 0) parts << QObject::tr("downsample to %1").arg(downsample);
    if (dart > 0) parts << QObject::tr("DART %1").arg(dart);
    if (kvMethod == QLatin1String("kivi"))
        parts << QObject::tr("KIVI 2-bit");
    else if (!kvMethod.isEmpty())
        parts << QObject::tr("%1 KV %2")
                     .arg(kvMethod == QLatin1String("h2o")      ? QStringLiteral("H2O")
                          : kvMethod == QLatin1String("snapkv") ? QStringLiteral("SnapKV")
                                                                : QStringLiteral("StreamingLLM"))
                     .arg(kvBudget);
    return parts.join(QStringLiteral(" + "));
}

WhatIfDialog::WhatIfDialog(QWidget* parent)
    : QDialog(parent), prune_(new QCheckBox(tr("Prune visual tokens, keep"), this)),
      keep_(new QDoubleSpinBox(this)), saliency_(new QComboBox(this)), quant_(new QComboBox(this)),
      kv_(new QCheckBox(tr("Compress the KV cache (merge similar visual keys, INT4)"), this)),
      freeze_(new QCheckBox(
          tr("Freeze cold experts (< 3 activations in two windows of 128 tokens)"), this)),
      channels_(new QCheckBox(tr("Prune vision MLP channels, fraction"), this)),
      channelFraction_(new QDoubleSpinBox(this)), drop_(new QComboBox(this)),
      dropFraction_(new QDoubleSpinBox(this)), dropTokens_(new QSpinBox(this)),
      skipExperts_(new QCheckBox(
          tr("Skip a token's lower-ranked expert below β × the top-1's weight"), this)),
      keepExperts_(new QCheckBox(tr("Prune experts, keep per MoE layer"), this)),
      keptExperts_(new QSpinBox(this)), encoder_(new QComboBox(this)),
      encoderValue_(new QSpinBox(this)), kvMethod_(new QComboBox(this)),
      kvBudget_(new QDoubleSpinBox(this)), reps_(new QSpinBox(this)) {
    setWindowTitle(tr("Custom What-if"));
    keep_->setRange(0.05, 1.0);
    keep_->setSingleStep(0.05);
    keep_->setValue(0.4);
    saliency_->addItem(tr("by the attention the patches received"), QString());
    saliency_->addItem(tr("by the saliency map (needs attention maps)"),
                       QStringLiteral("saliency"));
    saliency_->addItem(tr("by the visual features' norm"), QStringLiteral("feature-norm"));
    quant_->addItem(tr("No weight quantisation"), 0);
    quant_->addItem(tr("W8, AWQ, int8 kernels where libtorch has them"), 8);
    quant_->addItem(tr("W4, group 128, AWQ"), 4);
    channelFraction_->setRange(0.05, 0.95);
    channelFraction_->setSingleStep(0.05);
    channelFraction_->setValue(0.3);
    drop_->addItem(tr("No visual tokens dropped inside the decoder"), QString());
    drop_->addItem(tr("FastV (from layer 2, drop the fraction least attended)"),
                   QStringLiteral("fastv"));
    drop_->addItem(tr("PyramidDrop (at L/4, L/2, 3L/4, keep the fraction most attended)"),
                   QStringLiteral("pdrop"));
    drop_->addItem(tr("DART (after layer 2, keep 4 + 8·⌊N/8⌋ tokens least like 8 pivots), N"),
                   QStringLiteral("dart"));
    dropFraction_->setRange(0.05, 0.95);
    dropFraction_->setSingleStep(0.05);
    dropFraction_->setValue(0.5);
    dropTokens_->setRange(8, 4096);
    dropTokens_->setValue(128);
    encoder_->addItem(tr("The encoder sends every visual token"), QString());
    encoder_->addItem(tr("VisionZip (most attended + contextual merges), tokens sent"),
                      QStringLiteral("visionzip"));
    encoder_->addItem(tr("ToMe (merge in every vision block), tokens merged per block"),
                      QStringLiteral("tome"));
    encoder_->addItem(tr("Downsample baseline (the image resized), tokens"),
                      QStringLiteral("downsample"));
    connect(encoder_, &QComboBox::currentIndexChanged, this, [this] { encoderChosen(); });
    connect(drop_, &QComboBox::currentIndexChanged, this, [this] { dropChosen(); });
    encoderChosen();
    dropChosen();
    // Named for style sheets and UI automation.
    drop_->setObjectName(QStringLiteral("decoderDrop"));
    dropTokens_->setObjectName(QStringLiteral("dartTokens"));
    encoder_->setObjectName(QStringLiteral("encoder"));
    encoderValue_->setObjectName(QStringLiteral("encoderValue"));
    reps_->setObjectName(QStringLiteral("reps"));
    kvMethod_->addItem(tr("No published KV-cache method"), QString());
    kvMethod_->addItem(tr("StreamingLLM (4 attention sinks + the most recent), keep"),
                       QStringLiteral("streaming"));
    kvMethod_->addItem(tr("H2O (heavy hitters + the most recent, every step), keep"),
                       QStringLiteral("h2o"));
    kvMethod_->addItem(tr("SnapKV (the prompt's last 32 queries vote, once), keep"),
                       QStringLiteral("snapkv"));
    kvMethod_->addItem(tr("KIVI (2-bit keys per channel, values per token)"),
                       QStringLiteral("kivi"));
    kvBudget_->setRange(0.05, 0.95);
    kvBudget_->setSingleStep(0.05);
    kvBudget_->setValue(0.4);
    kvBudget_->setToolTip(tr("The fraction of the prompt's positions each KV head keeps"));
    keptExperts_->setRange(1, 256);
    keptExperts_->setValue(6);
    reps_->setRange(0, 100);
    reps_->setValue(5);
    reps_->setToolTip(tr("Both setups re-run this many times each, interleaved, so the speed-up "
                         "comes with an interval; 0 compares one run of each"));
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(
        tr("The transforms apply together in one real run of the baseline's inputs."), this));
    form->addRow(prune_, keep_);
    form->addRow(QString(), saliency_);
    form->addRow(tr("Weights:"), quant_);
    form->addRow(kv_);
    form->addRow(kvMethod_, kvBudget_);
    form->addRow(freeze_);
    form->addRow(channels_, channelFraction_);
    form->addRow(encoder_, encoderValue_);
    auto* dropValues = new QWidget(this);
    auto* dropRow = new QHBoxLayout(dropValues);
    dropRow->setContentsMargins(0, 0, 0, 0);
    dropRow->addWidget(dropFraction_);
    dropRow->addWidget(dropTokens_);
    form->addRow(drop_, dropValues);
    form->addRow(skipExperts_);
    form->addRow(keepExperts_, keptExperts_);
    form->addRow(tr("A/B repetitions:"), reps_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

WhatIfRequest WhatIfDialog::request() const {
    WhatIfRequest r;
    if (prune_->isChecked()) {
        r.pruneVisual = keep_->value();
        r.saliency = saliency_->currentData().toString();
    }
    r.quantBits = quant_->currentData().toInt();
    r.kvInt4 = kv_->isChecked();
    r.freezeCold = freeze_->isChecked();
    if (channels_->isChecked()) r.pruneChannels = channelFraction_->value();
    const QString drop = drop_->currentData().toString();
    if (drop == QLatin1String("fastv")) r.fastv = dropFraction_->value();
    if (drop == QLatin1String("pdrop")) r.pdrop = dropFraction_->value();
    if (drop == QLatin1String("dart")) r.dart = dropTokens_->value();
    r.skipExperts = skipExperts_->isChecked();
    if (keepExperts_->isChecked()) r.keepExperts = keptExperts_->value();
    const QString encoder = encoder_->currentData().toString();
    if (encoder == QLatin1String("visionzip")) r.visionZip = encoderValue_->value();
    if (encoder == QLatin1String("tome")) r.tome = encoderValue_->value();
    if (encoder == QLatin1String("downsample")) r.downsample = encoderValue_->value();
    r.kvMethod = kvMethod_->currentData().toString();
    r.kvBudget = kvBudget_->value();
    r.reps = reps_->value();
    return r;
}

void WhatIfDialog::encoderChosen() {
    const QString method = encoder_->currentData().toString();
    const bool tome = method == QLatin1String("tome");
    encoderValue_->setEnabled(!method.isEmpty());
    encoderValue_->setRange(tome                                   ? 1
                            : method == QLatin1String("visionzip") ? 2
                                                                   : 1,
                            tome ? 512 : 4096);
    encoderValue_->setValue(tome ? 8 : 64);
    encoderValue_->setToolTip(
        method == QLatin1String("visionzip")
            ? tr("The most attended tokens plus contextual tokens merging the rest by key "
                 "similarity (VisionZip, CVPR 2025)")
        : tome ? tr("Tokens merged after attention in every vision block by bipartite soft "
                    "matching on the keys (ToMe, ICLR 2023)")
               : tr("The image resized so the encoder emits about this many tokens (the "
                    "nearest square grid), its position table interpolated"));
}

void WhatIfDialog::dropChosen() {
    const QString method = drop_->currentData().toString();
    dropFraction_->setEnabled(method == QLatin1String("fastv") || method == QLatin1String("pdrop"));
    dropTokens_->setEnabled(method == QLatin1String("dart"));
}

WhatIfActions::WhatIfActions(QMenu* menu, QToolBar* toolbar, QWidget* dialogParent)
    : QObject(menu) {
    auto preset = [](auto set) {
        WhatIfRequest r;
        set(r);
        return r;
    };
    const std::tuple<QString, QString, QString, WhatIfRequest> presets[] = {
        {QStringLiteral("prune"), tr("Prune Visual Tokens (keep 40 %)"), tr("Prune 0.4"),
         preset([](WhatIfRequest& r) { r.pruneVisual = 0.4; })},
        {QStringLiteral("fastv"), tr("FastV: Drop Half the Image Tokens from Layer 2"), tr("FastV"),
         preset([](WhatIfRequest& r) { r.fastv = 0.5; })},
        {QStringLiteral("pdrop"), tr("PyramidDrop: Halve the Image Tokens at Each Stage"),
         tr("PyramidDrop"), preset([](WhatIfRequest& r) { r.pdrop = 0.5; })},
        {QStringLiteral("visionzip"), tr("VisionZip: Send 64 Visual Tokens"), tr("VisionZip 64"),
         preset([](WhatIfRequest& r) { r.visionZip = 64; })},
        {QStringLiteral("w4"), tr("Quantise Weights to W4 (AWQ)"), tr("W4"),
         preset([](WhatIfRequest& r) { r.quantBits = 4; })},
        {QStringLiteral("w8"), tr("Quantise Weights to W8 (AWQ)"), tr("W8"),
         preset([](WhatIfRequest& r) { r.quantBits = 8; })},
        {QStringLiteral("kv"), tr("Compress the KV Cache (merge + INT4)"), tr("KV INT4"),
         preset([](WhatIfRequest& r) { r.kvInt4 = true; })},
        {QStringLiteral("h2o"), tr("H2O: Keep 40 % of the KV Cache (heavy hitters + recent)"),
         tr("H2O 0.4"), preset([](WhatIfRequest& r) { r.kvMethod = QStringLiteral("h2o"); })},
        {QStringLiteral("kivi"), tr("KIVI: Hold the KV Cache in 2 Bits"), tr("KIVI"),
         preset([](WhatIfRequest& r) { r.kvMethod = QStringLiteral("kivi"); })},
        {QStringLiteral("freeze"), tr("Freeze Cold Experts"), tr("Freeze"),
         preset([](WhatIfRequest& r) { r.freezeCold = true; })},
        {QStringLiteral("skip"), tr("Skip Weak Second Experts (β = the median w₂/w₁)"),
         tr("Skip Experts"), preset([](WhatIfRequest& r) { r.skipExperts = true; })},
        {QStringLiteral("channels"), tr("Prune Vision MLP Channels (30 %)"), tr("Channels 0.3"),
         preset([](WhatIfRequest& r) { r.pruneChannels = 0.3; })},
        {QStringLiteral("combined"), tr("W4 + KV INT4 + Prune 0.4 (the design note's setup)"),
         tr("W4+KV+Prune"), preset([](WhatIfRequest& r) {
             r.quantBits = 4;
             r.kvInt4 = true;
             r.pruneVisual = 0.4;
         })},
    };
    // The toolbar keeps mvprof's own transforms and the first published
    // methods; the rest are in the menu (a wider toolbar would overflow).
    const QStringList menuOnly{QStringLiteral("visionzip"), QStringLiteral("h2o"),
                               QStringLiteral("kivi")};
    for (const auto& [name, text, shortText, request] : presets) {
        auto* a = new QAction(text, this);
        a->setIconText(shortText);
        a->setToolTip(tr("Run again with: %1").arg(text));
        connect(a, &QAction::triggered, this, [this, r = request] { emit requested(r); });
        menu->addAction(a);
        if (!menuOnly.contains(name)) toolbar->addAction(a);
        actions_.emplace_back(name, a);
    }
    menu->addSeparator();
    auto* custom = menu->addAction(tr("&Custom What-if…"));
    connect(custom, &QAction::triggered, this, [this, dialogParent] {
        WhatIfDialog dialog(dialogParent);
        if (dialog.exec() != QDialog::Accepted) return;
        const WhatIfRequest r = dialog.request();
        if (r.any()) emit requested(r);
    });
    actions_.emplace_back(QStringLiteral("custom"), custom);
    auto* compare = menu->addAction(tr("Compare &Methods…"));
    connect(compare, &QAction::triggered, this, &WhatIfActions::compareRequested);
    actions_.emplace_back(QStringLiteral("compare"), compare);
    setEnabled(false);
}

void WhatIfActions::setEnabled(bool enabled) {
    for (auto& [name, a] : actions_)
        a->setEnabled(enabled);
}

QAction* WhatIfActions::action(const QString& name) const {
    for (const auto& [n, a] : actions_)
        if (n == name) return a;
    return nullptr;
}

} // namespace mvp
