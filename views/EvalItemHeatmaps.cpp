#include "views/EvalItemHeatmaps.h"

#include "core/analysis/Heatmap.h"
#include "core/image/Image.h"
#include "views/ColourBar.h"
#include "views/HeatmapView.h"
#include "views/Labels.h"
#include "views/SessionData.h"

#include <QGridLayout>
#include <QLabel>
#include <algorithm>

namespace mvp::views {

namespace {

constexpr int kDisplaySide = 512; // items are shown small; their files may be large
constexpr double kOpacity = 0.6;

QString answerText(const EvalItemRow& row) {
    const QString output = QString::fromStdString(row.output).simplified();
    if (!row.correct) return output;
    return EvalItemHeatmaps::tr("%1 (%2)")
        .arg(output, *row.correct ? EvalItemHeatmaps::tr("right") : EvalItemHeatmaps::tr("wrong"));
}

// Patches whose tokens the decoder never saw: all but `kept`; none when
// every patch was kept.
std::vector<bool> prunedPatches(const std::vector<int>& kept, int cells) {
    if (kept.empty()) return {};
    std::vector<bool> pruned(size_t(cells), true);
    for (int p : kept)
        if (p >= 0 && p < cells) pruned[size_t(p)] = false;
    return pruned;
}

// The item's image, or a mid-grey square standing in for one that is gone.
RgbImage itemImage(const std::string& path, bool& found) {
    auto image = loadImage(path);
    found = bool(image);
    if (image) return fitWithin(*image, kDisplaySide);
    RgbImage grey;
    grey.width = grey.height = kDisplaySide / 2;
    grey.rgb.assign(size_t(grey.width) * size_t(grey.height) * 3, 128);
    return grey;
}

HeatGrid gridOf(const EvalItemHeatmap& h) {
    return {h.gridH, h.gridW, {h.answerAttention.begin(), h.answerAttention.end()}};
}

// Both overlays drawn over the image on one scale, 0 to `top` (off the GUI
// thread: the item's file may be a large photograph).
EvalItemHeatmaps::Rendered renderItem(const std::string& image, HeatGrid a, HeatGrid b, double top) {
    EvalItemHeatmaps::Rendered out;
    out.image = image;
    const RgbImage pixels = itemImage(image, out.imageFound);
    for (auto [grid, into] : {std::pair{&a, &out.a}, std::pair{&b, &out.b}}) {
        into->raw = *grid;
        for (double& v : grid->values)
            v = top > 0 ? v / top : 0.0;
        into->overlay = toQImage(renderOverlay(pixels, *grid, Colormap::Viridis, kOpacity));
    }
    return out;
}

} // namespace

EvalItemHeatmaps::EvalItemHeatmaps(QWidget* parent)
    : QWidget(parent), a_(new HeatmapCanvas(this)), b_(new HeatmapCanvas(this)),
      titleA_(new QLabel(this)), titleB_(new QLabel(this)), caption_(new QLabel(this)),
      bar_(new ColourBar(this)),
      renders_(this, [this](Rendered r) { showRendered(std::move(r)); }) {
    setObjectName(QStringLiteral("evalItemHeatmaps"));
    a_->setObjectName(QStringLiteral("itemHeatmapA"));
    b_->setObjectName(QStringLiteral("itemHeatmapB"));
    caption_->setObjectName(QStringLiteral("itemHeatmapCaption"));
    caption_->setWordWrap(true);
    for (auto* t : {titleA_, titleB_})
        t->setWordWrap(true);
    auto* l = new QGridLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(titleA_, 0, 0);
    l->addWidget(titleB_, 0, 1);
    l->addWidget(a_, 1, 0);
    l->addWidget(b_, 1, 1);
    l->addWidget(bar_, 1, 2);
    l->addWidget(caption_, 2, 0, 1, 3);
    l->setRowStretch(1, 1);
    showItem(nullptr);
}

void EvalItemHeatmaps::showItem(const EvalItemPair* pair) {
    renders_.cancel();
    a_->setImages({}, 0, 0, {});
    b_->setImages({}, 0, 0, {});
    const auto clear = [this](const QString& why) {
        a_->setPrunedPatches({});
        b_->setPrunedPatches({});
        titleA_->clear();
        titleB_->clear();
        bar_->clear();
        caption_->setText(why);
    };
    if (!pair) return clear(tr("Choose an item to see where each run's model looked while it "
                               "answered (answer_attention)."));
    if (!pair->a.heatmap || !pair->b.heatmap)
        return clear(tr("No heatmaps stored for item %1: they need the model's attention to be "
                        "observable (the built-in model, a TorchScript model's attention roles, "
                        "an eager model's softmax in its attention modules), observed unless the "
                        "eval ran with --no-item-heatmaps (heatmaps=False in Python).")
                         .arg(QString::fromStdString(pair->a.id)));
    const EvalItemHeatmap& ha = *pair->a.heatmap;
    const EvalItemHeatmap& hb = *pair->b.heatmap;
    double top = 0;
    for (const auto* h : {&ha, &hb})
        for (float v : h->answerAttention)
            top = std::max(top, double(v));
    renders_.start([image = ha.image, a = gridOf(ha), b = gridOf(hb),
                    top](const LatestJob<Rendered>::Stale&) { return renderItem(image, a, b, top); });
    a_->setPrunedPatches({});
    b_->setPrunedPatches(prunedPatches(pair->b.keptPatches, hb.gridH * hb.gridW));
    titleA_->setText(tr("A: %1").arg(answerText(pair->a)));
    titleB_->setText(tr("B: %1").arg(answerText(pair->b)));
    bar_->setScale(Colormap::Viridis,
                   {metricLabel("answer_attention"),
                    tr("(%1)").arg(provenanceLabel(Provenance::Measured)),
                    tr("one scale for A and B"), tr("unit: attention weight")},
                   QString::number(top, 'g', 3), QStringLiteral("0"));
    QString text = tr("Item %1, \"%2\": attention the answer's queries gave each patch, summed "
                      "over the decoder's layers, from an untimed pass of each run. Colours run "
                      "from 0 to the larger maximum of the two.")
                       .arg(QString::fromStdString(pair->a.id),
                            QString::fromStdString(pair->a.prompt));
    if (!pair->b.keptPatches.empty())
        text += tr(" Greyed on B: the patches whose tokens B's decoder never saw.");
    caption_->setText(text);
}

void EvalItemHeatmaps::showRendered(Rendered r) {
    a_->setImages(r.a.overlay, r.a.raw.rows, r.a.raw.cols, r.a.raw.values);
    b_->setImages(r.b.overlay, r.b.raw.rows, r.b.raw.cols, r.b.raw.values);
    if (!r.imageFound)
        caption_->setText(caption_->text() +
                          tr(" The image %1 could not be read: the grids are drawn over grey.")
                              .arg(QString::fromStdString(r.image)));
}

} // namespace mvp::views
