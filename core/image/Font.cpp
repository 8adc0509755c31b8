#include "core/image/Font.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

// stb_truetype's implementation lives here, its only user.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb/stb_truetype.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace mvp {

namespace {
// Code points of UTF-8 text; a byte that starts no valid sequence is U+FFFD.
std::vector<int> codePoints(const std::string& s) {
    std::vector<int> out;
    for (size_t i = 0; i < s.size();) {
        const auto c = uint8_t(s[i]);
        const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = n > 0 && i + size_t(n) <= s.size();
        int cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
        for (int k = 1; ok && k < n; ++k) {
            const auto b = uint8_t(s[i + size_t(k)]);
            ok = (b & 0xC0) == 0x80;
            cp = (cp << 6) | (b & 0x3F);
        }
        out.push_back(ok ? cp : 0xFFFD);
        i += ok ? size_t(n) : 1;
    }
    return out;
}

std::vector<unsigned char> readFile(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
} // namespace

struct Font::Impl {
    std::vector<unsigned char> bytes;
    stbtt_fontinfo info{};
};

Font::Font(std::unique_ptr<Impl> impl) : d_(std::move(impl)) {}
Font::~Font() = default;

const Font* Font::system() {
    static const std::unique_ptr<Font> font = []() -> std::unique_ptr<Font> {
        const char* chosen = std::getenv("MVPROF_FONT");
        for (const char* path : {chosen, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"}) {
            if (!path || !*path) continue;
            auto impl = std::make_unique<Impl>();
            impl->bytes = readFile(path);
            const int offset =
                impl->bytes.size() > 12 ? stbtt_GetFontOffsetForIndex(impl->bytes.data(), 0) : -1;
            if (offset >= 0 && stbtt_InitFont(&impl->info, impl->bytes.data(), offset))
                return std::unique_ptr<Font>(new Font(std::move(impl)));
        }
        return nullptr;
    }();
    return font.get();
}

int Font::width(const std::string& text, int px) const {
    const float scale = stbtt_ScaleForPixelHeight(&d_->info, float(px));
    const auto cps = codePoints(text);
    float x = 0;
    for (size_t i = 0; i < cps.size(); ++i) {
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&d_->info, cps[i], &advance, &lsb);
        x += float(advance) * scale;
        if (i + 1 < cps.size())
            x += float(stbtt_GetCodepointKernAdvance(&d_->info, cps[i], cps[i + 1])) * scale;
    }
    return int(x + 0.999f);
}

void Font::draw(RgbImage& img, int x, int y, const std::string& text, int px,
                std::array<uint8_t, 3> colour) const {
    const float scale = stbtt_ScaleForPixelHeight(&d_->info, float(px));
    int ascent = 0, descent = 0, gap = 0;
    stbtt_GetFontVMetrics(&d_->info, &ascent, &descent, &gap);
    const int baseline = y + int(float(ascent) * scale + 0.5f);
    const auto cps = codePoints(text);
    float pen = float(x);
    for (size_t i = 0; i < cps.size(); ++i) {
        int w = 0, h = 0, xoff = 0, yoff = 0;
        unsigned char* glyph = stbtt_GetCodepointBitmapSubpixel(
            &d_->info, scale, scale, pen - float(int(pen)), 0, cps[i], &w, &h, &xoff, &yoff);
        for (int gy = 0; gy < h; ++gy)
            for (int gx = 0; gx < w; ++gx) {
                const int ix = int(pen) + xoff + gx, iy = baseline + yoff + gy;
                const int a = glyph[gy * w + gx];
                if (a == 0 || ix < 0 || iy < 0 || ix >= img.width || iy >= img.height) continue;
                uint8_t* p = &img.rgb[(size_t(iy) * size_t(img.width) + size_t(ix)) * 3];
                for (int c = 0; c < 3; ++c)
                    p[c] = uint8_t((colour[size_t(c)] * a + p[c] * (255 - a) + 127) / 255);
            }
        stbtt_FreeBitmap(glyph, nullptr);
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&d_->info, cps[i], &advance, &lsb);
        pen += float(advance) * scale;
        if (i + 1 < cps.size())
            pen += float(stbtt_GetCodepointKernAdvance(&d_->info, cps[i], cps[i + 1])) * scale;
    }
}

} // namespace mvp
