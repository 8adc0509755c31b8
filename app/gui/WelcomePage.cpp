#include "app/gui/WelcomePage.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace mvp {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent), recent_(new QListWidget(this)) {
    setObjectName(QStringLiteral("welcomePage"));
    auto* title = new QLabel(tr("<h2>mvprof — MoE-Visual Profiler</h2>"), this);
    auto* what = new QLabel(
        tr("Where every millisecond, byte and FLOP of one image and prompt goes in a "
           "vision-language model: a heatmap over the image's patches, the module cost tree, "
           "expert load, the gate-vs-expert timeline, a flame chart and the roofline — and "
           "what-ifs (token pruning, quantisation, KV-cache compression, frozen experts) run "
           "side by side with error bars."),
        this);
    what->setWordWrap(true);
    auto button = [this](const QString& text, const char* name) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(QString::fromLatin1(name));
        return b;
    };
    auto* capture = button(tr("New Capture…"), "welcomeNewCapture");
    auto* sample = button(tr("Capture the Demo Scene…"), "welcomeSample");
    sample->setToolTip(tr("The trained built-in model (ref:demo) asked about a bundled scene, "
                          "as ./run.sh does"));
    auto* open = button(tr("Open a Session or Trace…"), "welcomeOpen");
    open->setToolTip(tr("An mvprof session, a torch.profiler trace (.json, .json.gz) or an "
                        "Nsight Systems SQLite export"));
    recent_->setObjectName(QStringLiteral("welcomeRecent"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(48, 32, 48, 32);
    layout->addWidget(title);
    layout->addWidget(what);
    for (auto* b : {capture, sample, open})
        layout->addWidget(b, 0, Qt::AlignLeft);
    layout->addWidget(new QLabel(tr("Recent sessions:"), this));
    layout->addWidget(recent_, 1);
    connect(capture, &QPushButton::clicked, this, &WelcomePage::newCaptureRequested);
    connect(sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit recentChosen(item->data(Qt::UserRole).toString());
    });
}

void WelcomePage::setRecent(const QStringList& paths) {
    recent_->clear();
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(
            tr("%1 — %2").arg(QFileInfo(path).fileName(), QFileInfo(path).absolutePath()), recent_);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
    }
    if (paths.isEmpty()) {
        auto* none = new QListWidgetItem(tr("(none yet)"), recent_);
        none->setFlags(Qt::NoItemFlags);
    }
}

} // namespace mvp
