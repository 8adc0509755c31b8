// VisionZip inside the model (capture/whatif/VisualTokenMerge.cpp): the
// tokens the encoder sends equal what this test works out by hand from the
// encoder's own last-block attention and keys (seen through the model's
// hook on an unchanged run) and its unchanged output features: scores
// summed over heads and averaged over queries, the top dominant kept as
// they are, every step-th remaining token a target, each other token
// joining its most key-similar target (cosine of the head-averaged keys),
// a contextual token being its target plus the mean of its members.
#include "capture/models/Vlm.h"
#include "capture/models/VlmLayers.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mvp;

class TestVisionZip : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void downsampledPositionsAreInterpolated() {
        // ref:tiny's 16 × 16 table to 8 × 8, bilinear with align_corners
        // false: output cell i samples source (i + ½)·2 − ½ = 2i + ½, midway
        // between rows 2i and 2i + 1 (and columns likewise): the mean of a 2 × 2 block.
        auto cfg = presetConfig("ref:tiny");
        QVERIFY(bool(cfg));
        VlmModel model(*cfg);
        c10::InferenceMode inference;
        const auto& impl = model.impl();
        QCOMPARE(cfg->vision.gridSide(), 16);
        const auto table = impl.positionTable(8).contiguous();
        const auto full = impl.posEmbed.contiguous();
        QCOMPARE(table.size(0), int64_t(64));
        torch::manual_seed(1);
        const auto fa = full.accessor<float, 2>();
        const auto ta = table.accessor<float, 2>();
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c)
                for (int64_t ch = 0; ch < full.size(1); ch += 7) {
                    const double want =
                        (double(fa[(2 * r) * 16 + 2 * c][ch]) + fa[(2 * r) * 16 + 2 * c + 1][ch] +
                         fa[(2 * r + 1) * 16 + 2 * c][ch] + fa[(2 * r + 1) * 16 + 2 * c + 1][ch]) /
                        4;
                    QVERIFY(std::abs(ta[r * 8 + c][ch] - want) < 1e-6);
                }
        QVERIFY(torch::equal(impl.positionTable(16), impl.posEmbed)); // the own grid: unchanged
        // A 112-px image gives 64 tokens.
        const auto x = model.encodeImage(torch::randn({1, 3, 112, 112}), {});
        QCOMPARE(x.size(0), int64_t(64));
    }

    void sentTokensMatchAHandMerge() {
        auto cfg = presetConfig("ref:tiny");
        QVERIFY(bool(cfg));
        VlmModel model(*cfg);
        c10::InferenceMode inference;
        torch::manual_seed(3);
        const auto pixels = torch::randn({1, 3, cfg->vision.imageSize, cfg->vision.imageSize});
        torch::Tensor probs, keys;
        ForwardHooks hooks;
        hooks.lastVisionAttention = [&](const torch::Tensor& p, const torch::Tensor& k) {
            probs = p.to(torch::kDouble).contiguous();
            keys = k.to(torch::kDouble).contiguous();
        };
        const auto x = model.encodeImage(pixels, hooks).to(torch::kDouble).contiguous();
        const int64_t n = x.size(0), dim = x.size(1), heads = probs.size(0), hd = keys.size(2);
        const int64_t dominant = 17, contextual = 3; // 20 sent: round(20 · 10 / 64) = 3
        model.impl().visionZip = VisionZipSplit{dominant, contextual};
        const auto sent = model.encodeImage(pixels, {}).to(torch::kDouble).contiguous();
        QCOMPARE(sent.size(0), dominant + contextual);

        // Scores and the dominant tokens (ties to the earlier).
        const auto pa = probs.accessor<double, 3>();
        std::vector<double> score(static_cast<size_t>(n), 0.0);
        for (int64_t h = 0; h < heads; ++h)
            for (int64_t q = 0; q < n; ++q)
                for (int64_t j = 0; j < n; ++j)
                    score[size_t(j)] += pa[h][q][j] / double(n);
        std::vector<int64_t> order(static_cast<size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return score[size_t(a)] > score[size_t(b)]; });
        std::vector<int64_t> dom(order.begin(), order.begin() + dominant);
        std::sort(dom.begin(), dom.end());
        std::vector<int64_t> rest;
        for (int64_t i = 0; i < n; ++i)
            if (!std::binary_search(dom.begin(), dom.end(), i)) rest.push_back(i);
        const int64_t step = std::max<int64_t>(1, int64_t(rest.size()) / contextual);
        std::vector<int64_t> targets;
        for (int64_t i = 0; i < int64_t(rest.size()) && int64_t(targets.size()) < contextual;
             i += step)
            targets.push_back(rest[size_t(i)]);
        // Head-averaged keys, unit length.
        const auto ka = keys.accessor<double, 3>();
        auto unitKey = [&](int64_t t) {
            std::vector<double> k(static_cast<size_t>(hd), 0.0);
            double norm = 0;
            for (int64_t c = 0; c < hd; ++c) {
                for (int64_t h = 0; h < heads; ++h)
                    k[size_t(c)] += ka[h][t][c] / double(heads);
                norm += k[size_t(c)] * k[size_t(c)];
            }
            for (double& v : k)
                v /= std::sqrt(norm);
            return k;
        };
        const auto xa = x.accessor<double, 2>();
        std::vector<std::vector<double>> sums(targets.size(),
                                              std::vector<double>(size_t(dim), 0.0));
        std::vector<int> members(targets.size(), 0);
        for (const int64_t t : rest) {
            if (std::find(targets.begin(), targets.end(), t) != targets.end()) continue;
            const auto k = unitKey(t);
            size_t best = 0;
            double bestSim = -INFINITY;
            for (size_t g = 0; g < targets.size(); ++g) {
                const auto tk = unitKey(targets[g]);
                const double sim = std::inner_product(k.begin(), k.end(), tk.begin(), 0.0);
                if (sim > bestSim) {
                    bestSim = sim;
                    best = g;
                }
            }
            ++members[best];
            for (int64_t c = 0; c < dim; ++c)
                sums[best][size_t(c)] += xa[t][c];
        }
        QCOMPARE(std::accumulate(members.begin(), members.end(), 0),
                 int(n - dominant - contextual));
        const auto sa = sent.accessor<double, 2>();
        for (int64_t i = 0; i < dominant + contextual; ++i)
            for (int64_t c = 0; c < dim; ++c) {
                double want = 0;
                if (i < dominant) {
                    want = xa[dom[size_t(i)]][c];
                } else {
                    const size_t g = size_t(i - dominant);
                    want = xa[targets[g]][c] + (members[g] ? sums[g][size_t(c)] / members[g] : 0.0);
                }
                QVERIFY2(std::abs(sa[i][c] - want) < 1e-4,
                         qPrintable(QStringLiteral("token %1 channel %2: %3 vs %4")
                                        .arg(i)
                                        .arg(c)
                                        .arg(sa[i][c])
                                        .arg(want)));
            }
        const auto chosen = model.impl().lastZip.sent();
        std::vector<int64_t> expected = dom;
        expected.insert(expected.end(), targets.begin(), targets.end());
        QCOMPARE(chosen, expected);
    }
};

QTEST_GUILESS_MAIN(TestVisionZip)
#include "test_vision_zip.moc"
