#include "core/image/Image.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

namespace mvp {

namespace {

bool startsWith(const std::vector<uint8_t>& b, std::initializer_list<int> magic, size_t at = 0) {
    if (b.size() < at + magic.size()) return false;
    size_t i = at;
    for (int m : magic)
        if (b[i++] != uint8_t(m)) return false;
    return true;
}

// Names the container so the error can say "this is a TIFF" rather than "bad file".
std::string sniffFormat(const std::vector<uint8_t>& b) {
    if (startsWith(b, {0x89, 'P', 'N', 'G'})) return "PNG";
    if (startsWith(b, {0xFF, 0xD8, 0xFF})) return "JPEG";
    if (startsWith(b, {'B', 'M'})) return "BMP";
    if (startsWith(b, {'G', 'I', 'F', '8'})) return "GIF";
    if (startsWith(b, {'R', 'I', 'F', 'F'}) && startsWith(b, {'W', 'E', 'B', 'P'}, 8))
        return "WebP";
    if (startsWith(b, {'I', 'I', 42, 0}) || startsWith(b, {'M', 'M', 0, 42})) return "TIFF";
    if (startsWith(b, {'f', 't', 'y', 'p'}, 4)) return "HEIF/AVIF";
    if (startsWith(b, {'%', 'P', 'D', 'F'})) return "PDF";
    if (startsWith(b, {'<'})) return "text (SVG or HTML?)";
    return "";
}

constexpr const char* kSupported = "mvprof reads PNG, JPEG and BMP";

// Per-axis resampling weights: out[i] = Σ w·in[idx].
struct Tap {
    int index;
    float weight;
};
using Taps = std::vector<std::vector<Tap>>;

Taps bilinearTaps(int srcN, int dstN) {
    Taps taps(static_cast<size_t>(dstN));
    const double scale = double(srcN) / dstN;
    for (int i = 0; i < dstN; ++i) {
        const double src = std::max(0.0, (i + 0.5) * scale - 0.5);
        const int i0 = std::min(int(src), srcN - 1);
        const int i1 = std::min(i0 + 1, srcN - 1);
        const float l = float(src - i0);
        taps[size_t(i)] = {{i0, 1.0f - l}, {i1, l}};
    }
    return taps;
}

Taps areaTaps(int srcN, int dstN) {
    Taps taps(static_cast<size_t>(dstN));
    const double scale = double(srcN) / dstN;
    for (int i = 0; i < dstN; ++i) {
        const double a = i * scale, b = (i + 1) * scale;
        for (int s = int(a); s < std::min(int(std::ceil(b)), srcN); ++s) {
            const double cover = std::min(b, s + 1.0) - std::max(a, double(s));
            if (cover > 0) taps[size_t(i)].push_back({s, float(cover / scale)});
        }
    }
    return taps;
}

Taps tapsFor(int srcN, int dstN) {
    return dstN < srcN ? areaTaps(srcN, dstN) : bilinearTaps(srcN, dstN);
}

// Separable resampling of `channels` interleaved float planes.
std::vector<float> resample(const std::vector<float>& src, int sh, int sw, int channels,
                            const Taps& rows, const Taps& cols) {
    const int dh = int(rows.size()), dw = int(cols.size());
    std::vector<float> tmp(size_t(sh) * dw * channels, 0.0f);
    for (int y = 0; y < sh; ++y)
        for (int x = 0; x < dw; ++x)
            for (const Tap& t : cols[size_t(x)])
                for (int c = 0; c < channels; ++c)
                    tmp[(size_t(y) * dw + x) * channels + c] +=
                        t.weight * src[(size_t(y) * sw + t.index) * channels + c];
    std::vector<float> out(size_t(dh) * dw * channels, 0.0f);
    for (int y = 0; y < dh; ++y)
        for (const Tap& t : rows[size_t(y)])
            for (int x = 0; x < dw * channels; ++x)
                out[size_t(y) * dw * channels + x] +=
                    t.weight * tmp[size_t(t.index) * dw * channels + x];
    return out;
}

} // namespace

Result<RgbImage> decodeImage(const std::vector<uint8_t>& bytes, const std::string& name) {
    if (bytes.empty())
        return makeError(ErrorCode::BadInput,
                         name + " is empty (0 bytes): choose a PNG or JPEG image");
    const std::string format = sniffFormat(bytes);
    if (format.empty())
        return makeError(ErrorCode::BadInput,
                         name + " is not an image (" + kSupported + "): check the file");
    if (format != "PNG" && format != "JPEG" && format != "BMP")
        return makeError(ErrorCode::BadInput, name + " is a " + format + " file; " + kSupported +
                                                  ": convert it first (e.g. `convert " + name +
                                                  " image.png`)");
    int w = 0, h = 0, n = 0;
    const int len = int(std::min<size_t>(bytes.size(), size_t(INT32_MAX)));
    if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &n))
        return makeError(ErrorCode::BadInput, name + " looks like a " + format +
                                                  " but its header is damaged (" +
                                                  stbi_failure_reason() + "): re-export the image");
    if (int64_t(w) * h > kMaxImagePixels)
        return makeError(ErrorCode::BadInput, name + " is " + std::to_string(w) + "×" +
                                                  std::to_string(h) + " pixels, more than the " +
                                                  std::to_string(kMaxImagePixels / 1'000'000) +
                                                  "-megapixel limit: downscale it first");
    // stbi_load converts grey, palette, alpha and 16-bit samples to 8-bit RGB for us.
    unsigned char* data = stbi_load_from_memory(bytes.data(), len, &w, &h, &n, 3);
    if (!data)
        return makeError(ErrorCode::BadInput, name + " is a damaged " + format + " file (" +
                                                  stbi_failure_reason() +
                                                  "): re-export or re-download it");
    RgbImage img;
    img.width = w;
    img.height = h;
    img.rgb.assign(data, data + size_t(w) * h * 3);
    stbi_image_free(data);
    return img;
}

Result<std::vector<uint8_t>> readImageFile(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec))
        return makeError(ErrorCode::NotFound, "image " + path + " does not exist: check the path");
    if (fs::is_directory(path, ec))
        return makeError(ErrorCode::BadInput, path + " is a folder: choose an image file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, "cannot read image " + path + ": check its permissions");
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    if (in.bad()) return makeError(ErrorCode::Io, "reading image " + path + " failed");
    return bytes;
}

Result<RgbImage> loadImage(const std::string& path) {
    auto bytes = readImageFile(path);
    if (!bytes) return bytes.error();
    return decodeImage(*bytes, path);
}

Result<std::vector<uint8_t>> encodePng(const RgbImage& img) {
    std::vector<uint8_t> out;
    auto sink = [](void* ctx, void* data, int size) {
        auto* v = static_cast<std::vector<uint8_t>*>(ctx);
        v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
    };
    if (!stbi_write_png_to_func(sink, &out, img.width, img.height, 3, img.rgb.data(),
                                img.width * 3))
        return makeError(ErrorCode::Internal, "PNG encoding failed");
    return out;
}

Status writePng(const std::string& path, const RgbImage& img) {
    auto png = encodePng(img);
    if (!png) return png.error();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return makeError(ErrorCode::Io,
                         "cannot write " + path + ": check the folder exists and is writable");
    out.write(reinterpret_cast<const char*>(png->data()), std::streamsize(png->size()));
    out.close();
    if (!out) return makeError(ErrorCode::Io, "writing " + path + " failed (disk full?)");
    return Ok{};
}

RgbImage resize(const RgbImage& img, int w, int h) {
    if (img.width == w && img.height == h) return img;
    std::vector<float> src(img.rgb.begin(), img.rgb.end());
    const auto out =
        resample(src, img.height, img.width, 3, tapsFor(img.height, h), tapsFor(img.width, w));
    RgbImage r;
    r.width = w;
    r.height = h;
    r.rgb.resize(out.size());
    for (size_t i = 0; i < out.size(); ++i)
        r.rgb[i] = uint8_t(std::clamp(std::lround(out[i]), 0L, 255L));
    return r;
}

RgbImage fitWithin(const RgbImage& img, int maxSide) {
    const int longer = std::max(img.width, img.height);
    if (longer <= maxSide) return img;
    const double s = double(maxSide) / longer;
    return resize(img, std::max(1, int(std::lround(img.width * s))),
                  std::max(1, int(std::lround(img.height * s))));
}

std::vector<float> upsampleBilinear(const std::vector<float>& src, int srcH, int srcW, int dstH,
                                    int dstW) {
    return resample(src, srcH, srcW, 1, bilinearTaps(srcH, dstH), bilinearTaps(srcW, dstW));
}

} // namespace mvp
