#pragma once
// Picking a plotted point under the mouse, shared by the scatter views
// (roofline, Pareto): the nearest point within a radius in pixels.

#include <QPointF>
#include <cmath>
#include <cstddef>

namespace mvp {

// The index among `count` points whose pixel position (pixelOf(i)) is
// nearest `pos` and closer than `radius` pixels, or −1.
template <typename PixelOf>
int nearestPoint(std::size_t count, PixelOf pixelOf, QPointF pos, double radius) {
    int best = -1;
    double bestD = radius;
    for (std::size_t i = 0; i < count; ++i) {
        const QPointF at = pixelOf(i);
        const double d = std::hypot(at.x() - pos.x(), at.y() - pos.y());
        if (d < bestD) bestD = d, best = int(i);
    }
    return best;
}

} // namespace mvp
