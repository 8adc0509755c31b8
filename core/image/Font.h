#pragma once
// Antialiased text in an RgbImage from a TrueType font (stb_truetype), for
// images that leave mvprof without Qt: the CLI's exported colour bar. The
// font is the system's DejaVu Sans (Debian's fonts-dejavu-core), or the file
// $MVPROF_FONT names; where neither can be read there is none and callers
// fall back to ColourBar.h's bitmap text. Text is UTF-8; a character the
// font lacks draws as the font's missing-glyph box.

#include "core/image/Image.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace mvp {

class Font {
public:
    // The font, loaded once per process; nullptr where no file could be read.
    static const Font* system();
    ~Font();

    // Width in pixels of `text` set at `px` pixels per line.
    int width(const std::string& text, int px) const;
    // Draws `text` with its line's top-left corner at (x, y), blending each
    // glyph's coverage over what is there.
    void draw(RgbImage& img, int x, int y, const std::string& text, int px,
              std::array<uint8_t, 3> colour) const;

private:
    struct Impl;
    explicit Font(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d_;
};

} // namespace mvp
