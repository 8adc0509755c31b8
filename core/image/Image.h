#pragma once
// RGB images: loading with clear errors, resampling, PNG encoding.
// Everything here is plain C++ (stb underneath) so capture, CLI and GUI agree.

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

struct RgbImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb; // width·height·3, row-major
    bool empty() const { return width == 0 || height == 0; }
};

// Largest image accepted, in pixels; larger files are refused before decoding.
inline constexpr int64_t kMaxImagePixels = 100'000'000;

// Loads a PNG, JPEG or BMP file. Grayscale, palette, alpha and 16-bit files are
// converted to 8-bit RGB. Errors name the problem and what to do about it.
Result<RgbImage> loadImage(const std::string& path);
// The raw bytes of an image file, with the same errors as loadImage for a
// missing, unreadable or folder path.
Result<std::vector<uint8_t>> readImageFile(const std::string& path);
Result<RgbImage> decodeImage(const std::vector<uint8_t>& bytes, const std::string& nameForErrors);

Result<std::vector<uint8_t>> encodePng(const RgbImage& img);
Status writePng(const std::string& path, const RgbImage& img);

// Resamples to w×h: box-area averaging along an axis that shrinks, bilinear
// (align-corners false) along an axis that grows.
RgbImage resize(const RgbImage& img, int w, int h);
// Downscales (keeping the aspect ratio) so the longer side is at most maxSide.
RgbImage fitWithin(const RgbImage& img, int maxSide);

// Bilinear upsampling of one float channel, align-corners false, with the
// source coordinate clamped at 0: identical to PyTorch's
// F.interpolate(mode="bilinear", align_corners=False).
std::vector<float> upsampleBilinear(const std::vector<float>& src, int srcH, int srcW, int dstH,
                                    int dstW);

} // namespace mvp
