#include "views/FlameChartView.h"

#include "core/session/SessionReader.h"
#include "views/Colours.h"
#include "views/SessionData.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace mvp::views {

namespace {
// A stable colour per name: hue from the name's hash, tinted for the theme.
QColor sliceColour(const std::string& name, const QPalette& pal) {
    const size_t h = std::hash<std::string>{}(name);
    const QColor hue = QColor::fromHsv(int(h % 360), 120, 210);
    return colours::tint(pal, hue, colours::isDark(pal) ? 0.55 : 0.75);
}

QString kindName(FlameKind k) {
    switch (k) {
    case FlameKind::Phase:
        return FlameChartView::tr("phase");
    case FlameKind::Module:
        return FlameChartView::tr("module span");
    case FlameKind::Op:
        return FlameChartView::tr("op");
    case FlameKind::Device:
        return FlameChartView::tr("GPU work");
    case FlameKind::Api:
        return FlameChartView::tr("CUDA API call");
    }
    return {};
}

QString msText(int64_t ns) {
    return QString::number(double(ns) / 1e6, 'f', ns < 1000000 ? 4 : 3);
}
} // namespace

FlameCanvas::FlameCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
}

QSize FlameCanvas::sizeHint() const {
    return {800, kAxisHeight + int(chart_.rows.size()) * kRowHeight + 2};
}

void FlameCanvas::setChart(FlameChart chart) {
    chart_ = std::move(chart);
    highlighted_.clear();
    selectedName_ = -1;
    setMinimumHeight(sizeHint().height());
    setRange(chart_.startNs, std::max(chart_.endNs, chart_.startNs + 1));
}

void FlameCanvas::setRange(int64_t fromNs, int64_t toNs) {
    from_ = fromNs;
    to_ = std::max(toNs, fromNs + 10); // at most 10 ns across
    update();
}

void FlameCanvas::setHighlight(const std::string& needle) {
    highlighted_.clear();
    if (!needle.empty()) {
        highlighted_ = matchingNames(chart_, needle);
    }
    update();
}

void FlameCanvas::setSelectedName(const std::string& name) {
    selectedName_ = -1;
    for (size_t i = 0; i < chart_.names.size(); ++i)
        if (chart_.names[i] == name) selectedName_ = int64_t(i);
    update();
}

double FlameCanvas::nsPerPixel() const {
    return double(to_ - from_) / std::max(1, width() - kLabelWidth);
}

double FlameCanvas::xOf(int64_t ns) const {
    return kLabelWidth + double(ns - from_) / nsPerPixel();
}

int64_t FlameCanvas::nsAt(double x) const {
    return from_ + int64_t((x - kLabelWidth) * nsPerPixel());
}

void FlameCanvas::paintEvent(QPaintEvent* e) {
    QElapsedTimer timer;
    timer.start();
    QPainter p(this);
    p.fillRect(e->rect(), palette().base());
    boxesDrawn_ = 0;
    const int first = std::max(0, (e->rect().top() - kAxisHeight) / kRowHeight);
    const int last =
        std::min(int(chart_.rows.size()) - 1, (e->rect().bottom() - kAxisHeight) / kRowHeight);
    for (int r = first; r <= last; ++r)
        paintRow(p, size_t(r), kAxisHeight + r * kRowHeight);
    paintAxis(p);
    if (chart_.rows.empty())
        p.drawText(rect(), Qt::AlignCenter, FlameChartView::tr("No slices in this run"));
    lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

void FlameCanvas::paintRow(QPainter& p, size_t r, int y) {
    const FlameRow& row = chart_.rows[r];
    const QPalette& pal = palette();
    p.setPen(colours::muted(pal));
    p.drawText(QRect(4, y, kLabelWidth - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
               QString::fromStdString(row.label));
    p.setClipRect(QRect(kLabelWidth, y, width() - kLabelWidth, kRowHeight));
    flameBoxes(row, from_, to_, nsPerPixel(), boxes_);
    const bool searching = !highlighted_.empty();
    for (const auto& b : boxes_) {
        const uint32_t name = row.names[b.first];
        const double x0 = std::max(double(kLabelWidth) - 1, xOf(b.start));
        const double x1 = std::max(x0 + 1, std::min(double(width()) + 1, xOf(b.end)));
        const QRectF box(x0, y + 1, x1 - x0, kRowHeight - 2);
        QColor fill = sliceColour(chart_.names[name], pal);
        if (b.count > 1) fill = fill.darker(125);
        if (searching && !highlighted_[name]) fill = colours::tint(pal, fill, 0.25);
        p.fillRect(box, fill);
        const bool selected = int64_t(name) == selectedName_;
        if (selected || (searching && highlighted_[name])) {
            p.setPen(QPen(selected ? colours::bad(pal) : colours::ink(pal), 2));
            p.drawRect(box.adjusted(1, 1, -1, -1));
        }
        if (b.count == 1 && box.width() > 40) {
            p.setPen(colours::ink(pal));
            p.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(QString::fromStdString(chart_.names[name]),
                                                  Qt::ElideRight, int(box.width()) - 5));
        }
        ++boxesDrawn_;
    }
    p.setClipping(false);
}

// Ticks at a round step of ms across the top.
void FlameCanvas::paintAxis(QPainter& p) {
    const QPalette& pal = palette();
    p.fillRect(QRect(0, 0, width(), kAxisHeight), pal.window());
    p.setPen(colours::muted(pal));
    const double spanMs = double(to_ - from_) / 1e6;
    const double rough = spanMs / std::max(1.0, double(width() - kLabelWidth) / 100.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(rough, 1e-6))));
    const double step = rough / magnitude < 2   ? 2 * magnitude
                        : rough / magnitude < 5 ? 5 * magnitude
                                                : 10 * magnitude;
    const double startMs = std::ceil(double(from_) / 1e6 / step) * step;
    for (double t = startMs; t <= double(to_) / 1e6; t += step) {
        const double x = xOf(int64_t(t * 1e6));
        p.drawLine(QPointF(x, kAxisHeight - 5), QPointF(x, kAxisHeight));
        p.drawText(QPointF(x + 2, kAxisHeight - 7),
                   FlameChartView::tr("%1 ms").arg(QString::number(t, 'g', 6)));
    }
    p.drawText(QRect(4, 0, kLabelWidth, kAxisHeight), Qt::AlignVCenter,
               FlameChartView::tr("time (measured)"));
}

std::pair<int, long> FlameCanvas::sliceAt(const QPoint& pt) const {
    const int r = (pt.y() - kAxisHeight) / kRowHeight;
    if (pt.y() < kAxisHeight || r < 0 || r >= int(chart_.rows.size()) || pt.x() < kLabelWidth)
        return {-1, -1};
    const FlameRow& row = chart_.rows[size_t(r)];
    const int64_t t = nsAt(pt.x()), slack = int64_t(2 * nsPerPixel());
    auto it = std::upper_bound(row.starts.begin(), row.starts.end(), t + slack);
    if (it == row.starts.begin()) return {-1, -1};
    const auto i = long(it - row.starts.begin()) - 1;
    if (row.ends[size_t(i)] + slack < t) return {-1, -1};
    return {r, i};
}

void FlameCanvas::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    const double factor = std::pow(0.8, steps);
    const int64_t at = nsAt(e->position().x());
    const auto from = at - int64_t(double(at - from_) * factor);
    const auto to = at + int64_t(double(to_ - at) * factor);
    setRange(from, to);
    e->accept();
}

void FlameCanvas::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    dragging_ = true;
    dragFrom_ = e->pos();
    dragRangeFrom_ = from_;
    dragRangeTo_ = to_;
}

void FlameCanvas::mouseMoveEvent(QMouseEvent* e) {
    if (!dragging_) return;
    const auto shift = int64_t(double(e->pos().x() - dragFrom_.x()) * nsPerPixel());
    setRange(dragRangeFrom_ - shift, dragRangeTo_ - shift);
}

void FlameCanvas::mouseReleaseEvent(QMouseEvent* e) {
    if (!dragging_) return;
    dragging_ = false;
    if ((e->pos() - dragFrom_).manhattanLength() < 4) { // a click, not a drag
        const auto [row, index] = sliceAt(e->pos());
        if (row >= 0) emit sliceClicked(row, index);
    }
}

void FlameCanvas::mouseDoubleClickEvent(QMouseEvent*) {
    setRange(chart_.startNs, std::max(chart_.endNs, chart_.startNs + 1));
}

bool FlameCanvas::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const auto [r, i] = sliceAt(help->pos());
    if (r < 0) {
        QToolTip::hideText();
        return true;
    }
    const FlameRow& row = chart_.rows[size_t(r)];
    const size_t k = size_t(i);
    QToolTip::showText(help->globalPos(),
                       FlameChartView::tr("%1 (%2)\n%3 ms (measured), from %4 ms")
                           .arg(QString::fromStdString(chart_.names[row.names[k]]),
                                kindName(row.kind), msText(row.ends[k] - row.starts[k]),
                                msText(row.starts[k])),
                       this);
    return true;
}

struct FlameChartView::Built {
    FlameChart chart;
    QString error;
};

FlameChartView::FlameChartView(QWidget* parent)
    : QWidget(parent), canvas_(new FlameCanvas), scroll_(new QScrollArea(this)),
      search_(new QLineEdit(this)), info_(new QLabel(this)),
      builds_(this, [this](std::shared_ptr<Built> b) {
          if (!b->error.isEmpty()) {
              info_->setText(tr("The flame chart could not be built: %1").arg(b->error));
              return;
          }
          setChart(std::move(b->chart));
      }) {
    search_->setPlaceholderText(tr("Find slices by name (Enter: next)"));
    search_->setClearButtonEnabled(true);
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(true);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* bar = new QHBoxLayout;
    bar->addWidget(search_, 1);
    bar->addWidget(info_, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(scroll_, 1);
    connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
        // Highlighting reads the names only; the slices are searched on Enter.
        canvas_->setHighlight(text.toStdString());
        hits_.clear();
        nextHit_ = 0;
        info_->clear();
    });
    connect(search_, &QLineEdit::returnPressed, this, &FlameChartView::findNext);
    connect(canvas_, &FlameCanvas::sliceClicked, this, [this](int row, long index) {
        const FlameRow& r = canvas_->chart().rows[size_t(row)];
        const std::string& name = canvas_->chart().names[r.names[size_t(index)]];
        if (r.kind == FlameKind::Module) {
            canvas_->setSelectedName(name);
            emit moduleClicked(QString::fromStdString(name));
        }
    });
}

FlameChartView::~FlameChartView() = default;

const FlameChart& FlameChartView::chart() const {
    return canvas_->chart();
}

void FlameChartView::setChart(FlameChart chart) {
    const size_t slices = chart.sliceCount();
    canvas_->setChart(std::move(chart));
    info_->setText(tr("%1 slices").arg(qulonglong(slices)));
    if (!search_->text().isEmpty()) canvas_->setHighlight(search_->text().toStdString());
    emit chartReady();
}

void FlameChartView::setSession(std::shared_ptr<const SessionData> data) {
    if (!data) return;
    pending_ = std::move(data);
    if (isVisible()) build();
}

void FlameChartView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (pending_) build();
}

// Ops and device activity are read from the file on a worker: a run of
// millions of ops does not hold up the rest of the window.
void FlameChartView::build() {
    const auto data = std::move(pending_);
    pending_.reset();
    info_->setText(tr("Building the flame chart…"));
    builds_.start([data](const LatestJob<std::shared_ptr<Built>>::Stale& stale) {
        auto built = std::make_shared<Built>();
        try {
            FlameChartBuilder b(data->data.phases, data->data.modules, data->data.spans);
            auto reader = SessionReader::open(data->path.toStdString());
            if (!reader) {
                built->error = QString::fromStdString(reader.error().message);
                return built;
            }
            auto s = (*reader)->forEachOp(data->runId, [&](OpRow&& o) -> Status {
                if (stale()) return makeError(ErrorCode::Cancelled, "newer session");
                b.addOp(o);
                return Ok{};
            });
            auto acts = (*reader)->activities(data->runId);
            if (!s || !acts) {
                built->error =
                    QString::fromStdString(!s ? s.error().message : acts.error().message);
                return built;
            }
            for (const auto& a : *acts)
                b.addActivity(a);
            built->chart = b.finish();
        } catch (const std::exception& e) {
            built->error = QString::fromLocal8Bit(e.what());
        }
        return built;
    });
}

void FlameChartView::selectModule(const QString& path) {
    canvas_->setSelectedName(path.toStdString());
}

void FlameChartView::showRange(int64_t fromNs, int64_t toNs) {
    canvas_->setRange(fromNs, toNs);
}

// The next match, centred with some context around it.
void FlameChartView::findNext() {
    if (hits_.empty()) hits_ = findSlices(canvas_->chart(), search_->text().toStdString(), 100000);
    if (hits_.empty()) {
        info_->setText(tr("%1 slices match").arg(0));
        return;
    }
    const auto [row, index] = hits_[nextHit_++ % hits_.size()];
    const FlameRow& r = canvas_->chart().rows[row];
    const int64_t start = r.starts[index], end = r.ends[index];
    const int64_t pad = std::max<int64_t>((end - start) * 2, 1000);
    showRange(start - pad, end + pad);
    scroll_->ensureVisible(0, FlameCanvas::kAxisHeight + int(row) * FlameCanvas::kRowHeight);
    info_->setText(tr("match %1 of %2: %3")
                       .arg(qulonglong(nextHit_ - 1) % hits_.size() + 1)
                       .arg(hits_.size())
                       .arg(QString::fromStdString(canvas_->chart().names[r.names[index]])));
}

} // namespace mvp::views
