#include "core/image/ColourBar.h"

#include "core/image/Font.h"

#include <algorithm>
#include <cmath>

// stb_easy_font builds each glyph from axis-aligned quads: filling them is
// the whole rasteriser. Its functions are static, so it lives in this TU.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace mvp {

namespace {
constexpr int kFontHeight = 12; // stb_easy_font's line height in font pixels

std::string ascii(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = uint8_t(text[i]);
        if (c < 0x80) {
            out += char(c);
        } else if ((c & 0xc0) != 0x80) { // the first byte of a multi-byte character
            out += '?';
        }
    }
    return out;
}

void fill(RgbImage& img, PixelRect r, std::array<uint8_t, 3> colour) {
    const int x0 = std::max(0, r.x), y0 = std::max(0, r.y);
    const int x1 = std::min(img.width, r.x + r.width), y1 = std::min(img.height, r.y + r.height);
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            std::copy(colour.begin(), colour.end(), &img.rgb[(size_t(y) * img.width + x) * 3]);
}

// The panel's text: the system's TrueType font, antialiased, its line a
// 24th of the image's height (at least 11 px) — the legend at the image's
// scale — or, without one, the bitmap font at an integer scale.
struct Ink {
    const Font* font = Font::system();
    int scale = 1, px = 11;
    explicit Ink(int imageHeight)
        : scale(std::max(1, imageHeight / 320)), px(std::max(11, imageHeight / 24)) {}
    int width(const std::string& text) const {
        return font ? font->width(text, px) : textWidth(text, scale);
    }
    int height() const { return font ? px + px / 5 : textHeight(scale); }
    void draw(RgbImage& img, int x, int y, const std::string& text,
              std::array<uint8_t, 3> colour) const {
        if (font)
            font->draw(img, x, y, text, px, colour);
        else
            drawText(img, x, y, text, scale, colour);
    }
};

// The panel's geometry for an overlay of `height` pixels.
struct Panel {
    int margin = 0, width = 0;
    PixelRect bar;
};

Panel panelFor(const RgbImage& overlay, const ColourBarText& text, const Ink& ink) {
    Panel p;
    p.margin = ink.height() / 2;
    int widest = 0;
    for (const auto& line : text.title)
        widest = std::max(widest, ink.width(line));
    const int valueWidth = std::max(ink.width(text.high), ink.width(text.low));
    const int barWidth = ink.height() + ink.height() / 6;
    p.width = std::max(widest, barWidth + p.margin + valueWidth) + 2 * p.margin;
    const int titleHeight = int(text.title.size()) * ink.height() + p.margin;
    p.bar.x = overlay.width + p.margin;
    p.bar.y = p.margin + titleHeight;
    p.bar.width = barWidth;
    p.bar.height = std::max(0, overlay.height - p.bar.y - p.margin - ink.height() / 2);
    return p;
}
} // namespace

int textWidth(const std::string& text, int scale) {
    std::string s = ascii(text);
    return stb_easy_font_width(s.data()) * scale;
}

int textHeight(int scale) {
    return kFontHeight * scale;
}

void drawText(RgbImage& img, int x, int y, const std::string& text, int scale,
              std::array<uint8_t, 3> colour) {
    std::string s = ascii(text);
    // stb says ~270 bytes per character on average; a character may take up to
    // ~16 quads of 64 bytes, and a short buffer silently drops strokes.
    std::vector<char> quads(s.size() * 1024 + 64);
    const int n = stb_easy_font_print(0, 0, s.data(), nullptr, quads.data(), int(quads.size()));
    for (int q = 0; q < n; ++q) {
        const auto* v = reinterpret_cast<const float*>(quads.data() + size_t(q) * 64);
        // Vertices 0 and 2 of a quad are opposite corners (16 bytes, 4 floats, apart).
        const float qx0 = v[0], qy0 = v[1], qx1 = v[8], qy1 = v[9];
        fill(img,
             {x + int(std::lround(qx0 * scale)), y + int(std::lround(qy0 * scale)),
              int(std::lround((qx1 - qx0) * scale)), int(std::lround((qy1 - qy0) * scale))},
             colour);
    }
}

PixelRect colourBarRect(const RgbImage& overlay, const ColourBarText& text) {
    return panelFor(overlay, text, Ink(overlay.height)).bar;
}

RgbImage withColourBar(const RgbImage& overlay, Colormap map, const ColourBarText& text) {
    const Ink ink(overlay.height);
    const Panel p = panelFor(overlay, text, ink);
    RgbImage out;
    out.width = overlay.width + p.width;
    out.height = overlay.height;
    out.rgb.assign(size_t(out.width) * out.height * 3, 255);
    for (int y = 0; y < overlay.height; ++y)
        std::copy_n(&overlay.rgb[size_t(y) * overlay.width * 3], size_t(overlay.width) * 3,
                    &out.rgb[size_t(y) * out.width * 3]);
    const std::array<uint8_t, 3> black{20, 20, 20};
    int y = p.margin;
    for (const auto& line : text.title) {
        ink.draw(out, overlay.width + p.margin, y, line, black);
        y += ink.height();
    }
    const PixelRect& bar = p.bar;
    for (int row = 0; row < bar.height; ++row) {
        const double t = bar.height > 1 ? 1.0 - double(row) / (bar.height - 1) : 1.0;
        fill(out, {bar.x, bar.y + row, bar.width, 1}, colorAt(map, t));
    }
    const int labelX = bar.x + bar.width + p.margin;
    ink.draw(out, labelX, bar.y, text.high, black);
    ink.draw(out, labelX, bar.y + bar.height - ink.height() / 2, text.low, black);
    return out;
}

} // namespace mvp
