#pragma once
// A colour bar beside a heatmap overlay, for images that must explain
// themselves once exported: a panel to the right of the overlay with title
// lines (metric, provenance, unit), then a vertical bar from the maximum
// (top) to the minimum (bottom) with both values printed at its ends.
// The panel's text is antialiased TrueType at the image's scale (Font.h);
// without a font, the bitmap text below.

#include "core/image/Colormap.h"
#include "core/image/Image.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

struct ColourBarText {
    std::vector<std::string> title; // e.g. {"attention", "(measured)"}
    std::string high, low;          // the values at the top and bottom of the bar
};

struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;
};

// Where the bar (the gradient itself) lies in withColourBar's result.
PixelRect colourBarRect(const RgbImage& overlay, const ColourBarText& text);

// The overlay, unchanged, with the panel appended on its right; the height is the overlay's.
RgbImage withColourBar(const RgbImage& overlay, Colormap map, const ColourBarText& text);

// Bitmap text (stb_easy_font), ASCII; other characters print as '?'.
// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide.
void drawText(RgbImage& img, int x, int y, const std::string& text, int scale,
              std::array<uint8_t, 3> colour);
// Width and height in pixels of `text` as drawText draws it.
int textWidth(const std::string& text, int scale);
int textHeight(int scale);

} // namespace mvp
