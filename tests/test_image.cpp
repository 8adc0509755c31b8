// Images: decoding with clear errors, conversions, resampling and heatmaps.
#include "TestSupport.h"
#include "core/analysis/Heatmap.h"
#include "core/analysis/PatchMetrics.h"
#include "core/image/ColourBar.h"
#include "core/image/Font.h"
#include "core/image/Image.h"

#include <QBuffer>
#include <QImage>
#include <QTest>
#include <set>

using namespace mvp;

namespace {
std::vector<uint8_t> bytesOf(const QByteArray& a) {
    return {a.begin(), a.end()};
}

std::vector<uint8_t> encodeWithQt(const QImage& img, const char* format) {
    QByteArray out;
    QBuffer buf(&out);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, format);
    return bytesOf(out);
}

QString errorOf(const std::vector<uint8_t>& bytes) {
    auto r = decodeImage(bytes, "test.img");
    return r ? QString() : QString::fromStdString(r.error().message);
}
} // namespace

class TestImage : public QObject {
    Q_OBJECT
private slots:
    void bilinearMatchesHandComputed2x2To4x4() {
        // F.interpolate([[0,1],[2,3]], size=4, mode="bilinear", align_corners=False)
        const std::vector<float> expected{0,   0.25, 0.75, 1,   0.5, 0.75, 1.25, 1.5,
                                          1.5, 1.75, 2.25, 2.5, 2,   2.25, 2.75, 3};
        const auto up = upsampleBilinear({0, 1, 2, 3}, 2, 2, 4, 4);
        QCOMPARE(up.size(), expected.size());
        for (size_t i = 0; i < up.size(); ++i)
            QVERIFY2(std::abs(up[i] - expected[i]) < 1e-6, qPrintable(QString::number(i)));
    }

    void areaDownscaleAverages() {
        RgbImage img{4, 2, {}};
        // Left half 0, right half 200, every channel.
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 4; ++x)
                for (int c = 0; c < 3; ++c)
                    img.rgb.push_back(x < 2 ? 0 : 200);
        const RgbImage half = resize(img, 2, 1);
        QCOMPARE(half.rgb, (std::vector<uint8_t>{0, 0, 0, 200, 200, 200}));
        const RgbImage one = resize(img, 1, 1);
        QCOMPARE(one.rgb, (std::vector<uint8_t>{100, 100, 100}));
    }

    void pngRoundTrip() {
        RgbImage img{3, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}};
        auto png = encodePng(img);
        QVERIFY(png.ok());
        auto back = decodeImage(*png, "roundtrip.png");
        QVERIFY(back.ok());
        QCOMPARE(back->rgb, img.rgb);
    }

    void grayscaleBecomesRgb() {
        QImage gray(5, 4, QImage::Format_Grayscale8);
        gray.fill(77);
        auto r = decodeImage(encodeWithQt(gray, "PNG"), "gray.png");
        QVERIFY2(r.ok(), qPrintable(errorOf(encodeWithQt(gray, "PNG"))));
        QCOMPARE(r->width, 5);
        QCOMPARE(r->rgb.size(), size_t(5 * 4 * 3));
        for (auto v : r->rgb)
            QCOMPARE(int(v), 77);
    }

    void sixteenBitBecomes8Bit() {
        QImage deep(6, 3, QImage::Format_RGBA64);
        deep.fill(QColor::fromRgba64(qRgba64(0xFFFF, 0x8080, 0x0000, 0xFFFF)));
        const auto bytes = encodeWithQt(deep, "PNG");
        QCOMPARE(int(bytes.at(24)), 16); // the IHDR bit depth: really a 16-bit file
        auto r = decodeImage(bytes, "deep.png");
        QVERIFY(r.ok());
        QCOMPARE(int(r->rgb[0]), 255);
        QCOMPARE(int(r->rgb[1]), 128);
        QCOMPARE(int(r->rgb[2]), 0);
    }

    void jpegDecodes() {
        QImage img(16, 8, QImage::Format_RGB888);
        img.fill(QColor(10, 200, 30));
        auto r = decodeImage(encodeWithQt(img, "JPEG"), "x.jpg");
        QVERIFY(r.ok());
        QCOMPARE(r->height, 8);
    }

    void badInputsSayWhatIsWrong() {
        QVERIFY(errorOf({}).contains(QStringLiteral("empty")));
        const std::string text = "hello, I am not an image";
        QVERIFY(errorOf({text.begin(), text.end()}).contains(QStringLiteral("not an image")));
        QVERIFY(errorOf({'I', 'I', 42, 0, 8, 0, 0, 0}).contains(QStringLiteral("TIFF")));
        QVERIFY(errorOf({'G', 'I', 'F', '8', '9', 'a'}).contains(QStringLiteral("GIF")));
        QVERIFY(errorOf({'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'})
                    .contains(QStringLiteral("WebP")));
        // A PNG cut off after its header decodes to an error, never to garbage pixels.
        QImage img(64, 64, QImage::Format_RGB888);
        img.fill(Qt::red);
        auto png = encodeWithQt(img, "PNG");
        png.resize(png.size() / 2);
        const QString cut = errorOf(png);
        QVERIFY2(cut.contains(QStringLiteral("damaged")), qPrintable(cut));
        auto missing = loadImage("/no/such/image.png");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
    }

    void oversizedImageIsRefusedBeforeDecoding() {
        // A PNG header claiming 12000 × 9000 pixels (108 MP) and nothing else.
        std::vector<uint8_t> png{0x89, 'P',  'N', 'G', '\r', '\n', 0x1A, '\n', 0,    0, 0,
                                 13,   'I',  'H', 'D', 'R',  0,    0,    0x2E, 0xE0, 0, 0,
                                 0x23, 0x28, 8,   2,   0,    0,    0,    0,    0,    0, 0};
        QVERIFY(errorOf(png).contains(QStringLiteral("megapixel")));
    }

    void plantedHotPatchPeaksAtItsPixels() {
        PatchGridRow grid{4, 4, 14, 56, 1};
        std::vector<PatchMetricRow> rows;
        for (int p = 0; p < 16; ++p)
            rows.push_back({0, "attention", p, p == 6 ? 5.0 : 1.0}); // row 1, col 2
        auto heat = gridFromMetrics(rows, grid, LayerRange{});
        QVERIFY(heat.ok());
        const HeatGrid n = normalised(*heat);
        QCOMPARE(n.at(1, 2), 1.0);
        QCOMPARE(n.at(0, 0), 0.0);
        // On a 20-pixel image, pixel 12 maps exactly onto patch column 2's centre
        // ((12 + 0.5) · 4/20 − 0.5 = 2) and pixel 7 onto patch row 1's.
        RgbImage gray{20, 20, std::vector<uint8_t>(20 * 20 * 3, 128)};
        const RgbImage out = renderOverlay(gray, n, Colormap::Viridis, 1.0);
        const auto top = colorAt(Colormap::Viridis, 1.0);
        auto pixel = [&](int x, int y) {
            const size_t i = (size_t(y) * 20 + x) * 3;
            return std::array<uint8_t, 3>{out.rgb[i], out.rgb[i + 1], out.rgb[i + 2]};
        };
        QCOMPARE(pixel(12, 7), top);
        // Every other pixel is further from the peak: none wears the top colour.
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 20; ++x)
                if (x != 12 || y != 7) QVERIFY(pixel(x, y) != top);
    }

    // Expert FLOPs spread over 100.2–100.6 kFLOP (0.4 %): uniform, not
    // painted; absolute scale from 0, range from the minimum — values worked
    // by hand.
    void colourScalesAreHonestAboutSmallSpreads() {
        HeatGrid g{1, 3, {100.2e3, 100.4e3, 100.6e3}};
        const ScaleRange abs = scaleRange(g, HeatScale::Absolute);
        QCOMPARE(abs.low, 0.0);
        QCOMPARE(abs.high, 100.6e3);
        QVERIFY(std::abs(abs.spread - 0.4e3 / 100.4e3) < 1e-12);
        QVERIFY(abs.uniform);
        const HeatGrid a = onScale(g, abs);
        QVERIFY(std::abs(a.values[0] - 100.2 / 100.6) < 1e-12 && a.values[2] == 1.0);
        const ScaleRange range = scaleRange(g, HeatScale::Range);
        QCOMPARE(range.low, 100.2e3);
        QVERIFY(range.uniform); // the spread is the grid's, whatever the scale
        const HeatGrid r = onScale(g, range);
        QVERIFY(r.values[0] == 0.0 && std::abs(r.values[1] - 0.5) < 1e-9 && r.values[2] == 1.0);
        // A real difference: 1 against 3 (spread 1.0) is painted.
        HeatGrid wide{1, 2, {1.0, 3.0}};
        QVERIFY(!scaleRange(wide, HeatScale::Absolute).uniform);
        QCOMPARE(onScale(wide, scaleRange(wide, HeatScale::Absolute)).values[0], 1.0 / 3.0);
        // All equal, all zero, negatives: no division by zero, 0 inside the absolute scale.
        HeatGrid zero{1, 2, {0.0, 0.0}};
        QVERIFY(scaleRange(zero, HeatScale::Range).uniform);
        QCOMPARE(onScale(zero, scaleRange(zero, HeatScale::Range)).values[1], 0.0);
        HeatGrid negative{1, 2, {-2.0, -1.0}};
        const ScaleRange n = scaleRange(negative, HeatScale::Absolute);
        QCOMPARE(n.low, -2.0);
        QCOMPARE(n.high, 0.0);
        QCOMPARE(onScale(negative, n).values[1], 0.5);
    }

    // Side by side, one scale: 0.268–0.406 beside 0–1.21 (issue #39's A | B)
    // both map through 0 … 1.21; two noise grids stay uniform together, one
    // beside a grid twice its size does not.
    void sideBySideGridsShareOneScale() {
        const HeatGrid a{1, 2, {0.268, 0.406}}, b{1, 2, {0.0, 1.21}};
        const ScaleRange abs = sharedScale({&a, &b}, HeatScale::Absolute);
        QCOMPARE(abs.low, 0.0);
        QCOMPARE(abs.high, 1.21);
        QVERIFY(std::abs(onScale(a, abs).values[1] - 0.406 / 1.21) < 1e-12);
        const ScaleRange range = sharedScale({&a, &b}, HeatScale::Range);
        QCOMPARE(range.low, 0.0); // B's minimum, not A's 0.268
        QCOMPARE(scaleRange(a, HeatScale::Range).low, 0.268);
        const HeatGrid n1{1, 2, {100.2, 100.6}}, n2{1, 2, {100.3, 100.5}}, big{1, 1, {200.0}};
        QVERIFY(sharedScale({&n1, &n2}, HeatScale::Absolute).uniform);
        QVERIFY(!sharedScale({&n1, &big}, HeatScale::Absolute).uniform);
        QCOMPARE(sharedScale({&n1, &big}, HeatScale::Absolute).high, 200.0);
    }

    void layerRanges() {
        QVERIFY(parseLayerRange("all").ok());
        auto r = parseLayerRange("2-5");
        QVERIFY(r.ok());
        QVERIFY(r->contains(2) && r->contains(5) && !r->contains(6));
        QVERIFY(!parseLayerRange("5-2").ok());
        QVERIFY(!parseLayerRange("x").ok());
        PatchGridRow grid{1, 2, 14, 28, 1};
        auto none = gridFromMetrics({{0, "attention", 0, 1.0}}, grid, *parseLayerRange("3"));
        QVERIFY(!none.ok());
        QVERIFY(QString::fromStdString(none.error().message)
                    .contains(QStringLiteral("layers with values: 0")));
    }

    // The exported colour bar: the overlay untouched, a panel beside it whose
    // gradient runs from the colormap's top (at the maximum) to its bottom.
    void colourBarKeepsTheOverlayAndShowsTheScale() {
        const RgbImage overlay{200, 300, std::vector<uint8_t>(200 * 300 * 3, 128)};
        const ColourBarText text{{"attention", "(measured)"}, "5", "1"};
        const RgbImage out = withColourBar(overlay, Colormap::Magma, text);
        QCOMPARE(out.height, overlay.height);
        QVERIFY(out.width > overlay.width);
        auto pixel = [&](int x, int y) {
            const size_t i = (size_t(y) * out.width + x) * 3;
            return std::array<uint8_t, 3>{out.rgb[i], out.rgb[i + 1], out.rgb[i + 2]};
        };
        for (int y = 0; y < overlay.height; y += 7)
            for (int x = 0; x < overlay.width; x += 5)
                QCOMPARE(pixel(x, y), (std::array<uint8_t, 3>{128, 128, 128}));
        const PixelRect bar = colourBarRect(overlay, text);
        QVERIFY(bar.x >= overlay.width && bar.x + bar.width <= out.width);
        QVERIFY(bar.height > overlay.height / 2);
        const int mid = bar.x + bar.width / 2;
        QCOMPARE(pixel(mid, bar.y), colorAt(Colormap::Magma, 1.0));
        QCOMPARE(pixel(mid, bar.y + bar.height - 1), colorAt(Colormap::Magma, 0.0));
        // Ink above the bar where the title is, none without a title.
        auto inkAbove = [&](const RgbImage& img, int below) {
            int n = 0;
            for (int y = 0; y < below; ++y)
                for (int x = overlay.width; x < img.width; ++x)
                    n += img.rgb[(size_t(y) * img.width + x) * 3] < 60;
            return n;
        };
        QVERIFY(inkAbove(out, bar.y) > 20);
        const RgbImage untitled = withColourBar(overlay, Colormap::Magma, {{}, "", ""});
        QCOMPARE(inkAbove(untitled, colourBarRect(overlay, {}).y), 0);
    }

    // With the system's font (Debian's fonts-dejavu-core, which test.sh
    // installs) the legend's text is antialiased TrueType at the image's
    // scale: many grey levels in the title, a line height that grows with
    // the image, and "µs" set as two glyphs, not the bitmap font's "?s".
    void colourBarTextIsARealFontAtTheImagesScale() {
        QVERIFY2(Font::system(), "no font: install fonts-dejavu-core or set MVPROF_FONT");
        auto titleInk = [](int height) {
            const RgbImage overlay{height, height, std::vector<uint8_t>(size_t(height) * height * 3,
                                                                         128)};
            const ColourBarText text{{"attention", "(measured)", "unit: µs"}, "5", "1"};
            const RgbImage out = withColourBar(overlay, Colormap::Magma, text);
            std::set<int> greys;
            int top = out.height, bottom = -1;
            for (int y = 0; y < colourBarRect(overlay, text).y; ++y)
                for (int x = overlay.width; x < out.width; ++x) {
                    const int v = out.rgb[(size_t(y) * out.width + x) * 3];
                    if (v == 255) continue;
                    greys.insert(v);
                    top = std::min(top, y), bottom = std::max(bottom, y);
                }
            return std::pair{int(greys.size()), bottom - top};
        };
        const auto [greys224, tall224] = titleInk(224);
        const auto [greys896, tall896] = titleInk(896);
        QVERIFY2(greys224 > 8, qPrintable(QString::number(greys224)));
        QVERIFY2(tall896 > 3 * tall224, qPrintable(QStringLiteral("%1 vs %2 px")
                                                       .arg(tall896)
                                                       .arg(tall224)));
        const Font& font = *Font::system();
        QVERIFY(font.width("µs", 40) != font.width("?s", 40));
        QVERIFY(font.width("mm", 40) > font.width("m", 40));
    }

    void textIsDrawnGlyphByGlyph() {
        auto ink = [](const std::string& text) {
            RgbImage img{40, 20, std::vector<uint8_t>(40 * 20 * 3, 255)};
            drawText(img, 2, 2, text, 1, {0, 0, 0});
            return int(std::count(img.rgb.begin(), img.rgb.end(), uint8_t(0)));
        };
        QVERIFY(ink("1") > 0);
        QVERIFY(ink("8") > ink("1")); // 8 has every segment 1 has, and more
        QCOMPARE(ink(" "), 0);
        // One character outside ASCII prints as one '?'.
        QCOMPARE(textWidth("\u00d7", 1), textWidth("?", 1));
        QCOMPARE(textWidth("ab", 2), 2 * textWidth("ab", 1));
    }

    // The legend's words and numbers, worked by hand: SI prefixes, times in seconds.
    void heatLegendNamesProvenanceAndRange() {
        const auto flops = heatLegend(*heatMetric("expert_flops"), HeatGrid{1, 2, {1.5e9, 3e9}});
        QCOMPARE(flops.high, std::string("3 GFLOP"));
        QCOMPARE(flops.low, std::string("1.5 GFLOP"));
        QCOMPARE(flops.title.at(1), std::string("(estimated)"));
        const auto latency =
            heatLegend(*heatMetric("latency"), HeatGrid{1, 2, {850, 32100}}, "layers 0-1");
        QCOMPARE(latency.high, std::string("32.1 us"));
        QCOMPARE(latency.low, std::string("850 ns"));
        QCOMPARE(latency.title,
                 (std::vector<std::string>{"latency", "(apportioned)", "layers 0-1", "unit: s"}));
        const auto attention = heatLegend(*heatMetric("attention"), HeatGrid{1, 2, {0.5, 0.25}});
        QCOMPARE(attention.high, std::string("0.5"));
        QCOMPARE(attention.low, std::string("0.25"));
        QCOMPARE(attention.title.back(), std::string("unit: none (score)"));
        QVERIFY(!heatMetric("no such metric"));
    }

    void csvHasOneLinePerRow() {
        HeatGrid g{2, 3, {1, 2, 3, 4, 5, 6.5}};
        QCOMPARE(QString::fromStdString(gridCsv(g)), QStringLiteral("1,2,3\n4,5,6.5\n"));
    }
};

QTEST_GUILESS_MAIN(TestImage)
#include "test_image.moc"
