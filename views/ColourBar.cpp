#include "views/ColourBar.h"

#include <QPainter>
#include <algorithm>

namespace mvp::views {

namespace {
constexpr int kBarWidth = 14;
constexpr int kMargin = 6;
} // namespace

ColourBar::ColourBar(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

void ColourBar::setScale(Colormap map, const QStringList& title, const QString& high,
                         const QString& low) {
    shown_ = true;
    map_ = map;
    title_ = title;
    high_ = high;
    low_ = low;
    setToolTip(title.join(QLatin1Char('\n')));
    updateGeometry();
    update();
}

void ColourBar::clear() {
    shown_ = false;
    title_.clear();
    high_.clear();
    low_.clear();
    setToolTip({});
    update();
}

QStringList ColourBar::texts() const {
    if (!shown_) return {};
    return QStringList(title_) << high_ << low_;
}

QRect ColourBar::barRect() const {
    return barRectIn(size());
}

QRect ColourBar::barRectIn(QSize area) const {
    const int line = fontMetrics().height();
    const int top = kMargin + int(title_.size()) * line + kMargin;
    const int bottom = area.height() - kMargin - line / 2;
    return {kMargin, top, kBarWidth, std::max(0, bottom - top)};
}

QSize ColourBar::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    int widest = 0;
    for (const auto& line : title_)
        widest = std::max(widest, fm.horizontalAdvance(line));
    const int values = std::max(fm.horizontalAdvance(high_), fm.horizontalAdvance(low_));
    return {std::max(widest, kBarWidth + kMargin + values) + 2 * kMargin, 160};
}

QSize ColourBar::minimumSizeHint() const {
    return {sizeHint().width(), 80};
}

void ColourBar::paintEvent(QPaintEvent*) {
    if (!shown_) return;
    QPainter p(this);
    paint(p, size(), palette());
}

bool ColourBar::isShown() const {
    return shown_;
}

void ColourBar::paint(QPainter& p, QSize area, const QPalette& colours) const {
    p.setFont(font());
    p.setPen(colours.color(QPalette::WindowText));
    const int line = fontMetrics().height();
    int y = kMargin;
    for (const auto& text : title_) {
        p.drawText(QRect(kMargin, y, area.width() - kMargin, line),
                   Qt::AlignLeft | Qt::AlignVCenter, text);
        y += line;
    }
    const QRect bar = barRectIn(area);
    for (int row = 0; row < bar.height(); ++row) {
        const double t = bar.height() > 1 ? 1.0 - double(row) / (bar.height() - 1) : 1.0;
        const auto c = colorAt(map_, t);
        p.fillRect(bar.x(), bar.y() + row, bar.width(), 1, QColor(c[0], c[1], c[2]));
    }
    p.setPen(colours.color(QPalette::Mid));
    p.drawRect(bar.adjusted(-1, -1, 0, 0));
    p.setPen(colours.color(QPalette::WindowText));
    const int x = bar.right() + kMargin;
    p.drawText(QRect(x, bar.top() - line / 2, area.width() - x, line),
               Qt::AlignLeft | Qt::AlignVCenter, high_);
    p.drawText(QRect(x, bar.bottom() - line / 2, area.width() - x, line),
               Qt::AlignLeft | Qt::AlignVCenter, low_);
}

} // namespace mvp::views
