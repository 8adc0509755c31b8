// The visual-token methods inside the model, each against a hand computation
// from the model's own tensors: ToMe's merges block by block, DART's pivots
// and picks, the downsample baseline's interpolated positions, and
// VisionZip (capture/models/transforms/VisualTokenMerge.cpp): the
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
#include <map>
#include <numeric>
#include <set>

using namespace mvp;

namespace {
// ToMe's state as this test tracks it.
struct HandTome {
    std::vector<double> size;
    std::vector<int64_t> patchOf;
};

// One ViT block with ToMe, worked here: attention with log(size) on every
// key's logit, then merge.py's matching on the head-averaged keys (A = even
// tokens, B = odd; each A's best B by cosine, the first on ties; the r A
// tokens with the best scores, stably, merge into their B by size-weighted
// mean; kept A tokens in that order, then B), then the MLP.
torch::Tensor handBlock(VitBlockImpl& block, const torch::Tensor& x, int64_t r, HandTome& h) {
    const int64_t n = x.size(0), dim = x.size(1), heads = block.heads, hd = dim / heads;
    auto t = block.qkv(block.ln1(x)).view({n, 3, heads, hd}).permute({1, 2, 0, 3});
    auto logSize = torch::tensor(h.size, torch::kDouble).log().to(torch::kFloat).view({1, 1, n});
    auto probs = torch::softmax(
        torch::matmul(t[0], t[1].transpose(1, 2)) / std::sqrt(double(hd)) + logSize, -1);
    const auto xa = (x + block.proj(torch::matmul(probs, t[2]).transpose(0, 1).reshape({n, dim})))
                        .to(torch::kDouble)
                        .contiguous();
    const auto key = t[1].mean(0).to(torch::kDouble).contiguous();
    const auto ka = key.accessor<double, 2>();
    auto cosine = [&](int64_t i, int64_t j) {
        double d = 0, ni = 0, nj = 0;
        for (int64_t c = 0; c < hd; ++c) {
            d += ka[i][c] * ka[j][c];
            ni += ka[i][c] * ka[i][c];
            nj += ka[j][c] * ka[j][c];
        }
        return d / std::sqrt(ni * nj);
    };
    std::vector<std::pair<double, int64_t>> best; // per A token: (score, its B)
    for (int64_t a = 0; a < n; a += 2) {
        std::pair<double, int64_t> top{-INFINITY, -1};
        for (int64_t b = 1; b < n; b += 2)
            if (const double c = cosine(a, b); c > top.first) top = {c, b};
        best.push_back(top);
    }
    std::vector<size_t> order(best.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t i, size_t j) { return best[i].first > best[j].first; });
    std::vector<int64_t> rows; // the tokens that stay, as rows of xa
    std::map<int64_t, std::vector<int64_t>> into;
    for (size_t i = 0; i < order.size(); ++i)
        if (int64_t(i) < r)
            into[best[order[i]].second].push_back(int64_t(2 * order[i]));
        else
            rows.push_back(int64_t(2 * order[i]));
    for (int64_t b = 1; b < n; b += 2)
        rows.push_back(b);
    HandTome next;
    auto merged = torch::zeros({int64_t(rows.size()), dim}, torch::kDouble);
    for (size_t i = 0; i < rows.size(); ++i) {
        double size = h.size[size_t(rows[i])];
        auto sum = xa[rows[i]] * size;
        if (const auto it = into.find(rows[i]); it != into.end() && rows[i] % 2)
            for (const int64_t a : it->second) {
                sum += xa[a] * h.size[size_t(a)];
                size += h.size[size_t(a)];
            }
        merged[int64_t(i)] = sum / size;
        next.size.push_back(size);
        next.patchOf.push_back(h.patchOf[size_t(rows[i])]);
    }
    h = next;
    const auto mf = merged.to(torch::kFloat);
    return (mf + block.fc2(torch::gelu(block.fc1(block.ln2(mf))))).to(torch::kDouble);
}
} // namespace

class TestVisionZip : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tomeMergesAsMergePyByHand() {
        auto cfg = presetConfig("ref:tiny");
        QVERIFY(bool(cfg));
        VlmModel model(*cfg);
        c10::InferenceMode inference;
        auto& m = model.impl();
        torch::manual_seed(5);
        const auto pixels = torch::randn({1, 3, cfg->vision.imageSize, cfg->vision.imageSize});
        const auto x0 = m.patchEmbed(pixels).flatten(2).squeeze(0).transpose(0, 1) + m.posEmbed;
        const int64_t n = x0.size(0);
        // Block 0 merges 30 of equal-size tokens, block 1 another 20 of
        // unequal sizes (size-weighted means, proportional attention).
        HandTome hand{std::vector<double>(size_t(n), 1.0), std::vector<int64_t>(size_t(n))};
        std::iota(hand.patchOf.begin(), hand.patchOf.end(), 0);
        ToMeState state{{30, 20}, torch::ones({n, 1}), torch::arange(n, torch::kLong)};
        torch::Tensor x = x0;
        for (size_t b = 0; b < 2; ++b) {
            auto& block = *m.vit[b];
            const auto want = handBlock(block, x, state.r[b], hand);
            x = block.forward(x, nullptr, nullptr, &state, b);
            QCOMPARE(x.size(0), int64_t(hand.size.size()));
            std::vector<int64_t> gotPatches(state.patchOf.data_ptr<int64_t>(),
                                            state.patchOf.data_ptr<int64_t>() +
                                                state.patchOf.numel());
            QCOMPARE(gotPatches, hand.patchOf);
            for (size_t i = 0; i < hand.size.size(); ++i)
                QCOMPARE(double(state.size[int64_t(i)][0].item<float>()), hand.size[i]);
            const double err = (x.to(torch::kDouble) - want).abs().max().item<double>();
            QVERIFY2(err < 1e-4, qPrintable(QStringLiteral("block %1: %2").arg(b).arg(err)));
        }
        QCOMPARE(x.size(0), n - 50);
    }

    void dartKeepsAHandSelection() {
        // ref:tiny's two decoder layers: DART cuts before layer 1, with layer
        // 0's keys (after RoPE) and the final norm of layer 1's input.
        auto cfg = presetConfig("ref:tiny");
        QVERIFY(bool(cfg));
        VlmModel model(*cfg);
        c10::InferenceMode inference;
        auto& m = model.impl();
        torch::manual_seed(11);
        const int64_t n = cfg->vision.patches();
        const auto visual = torch::randn({n, cfg->llm.dim});
        const std::vector<int> prompt{5, 9, 14, 3, 27, 8};
        std::vector<int64_t> ids{1};
        ids.insert(ids.end(), prompt.begin(), prompt.end());
        auto text = m.tokEmbed(torch::tensor(ids, torch::kLong));
        const auto x0 = torch::cat({text.narrow(0, 0, 1), visual, text.narrow(0, 1, 6)});
        const int64_t t = x0.size(0);
        auto& layer0 = *m.layers[0];
        auto& a = *layer0.attn;
        const auto keys = m.rope->apply(a.wk(layer0.norm1(x0)).view({t, a.kvHeads, a.headDim}), 0);
        const auto x1 = layer0.forward(x0, 0, *m.rope, 0, {});
        model.reset();
        const auto states = m.finalNorm(x1).to(torch::kDouble).contiguous();
        const auto l1 = keys.abs().sum(at::IntArrayRef{1, 2}).to(torch::kDouble).contiguous();
        auto topOf = [&](int64_t from, int64_t count, int64_t k) {
            std::vector<int64_t> rows(static_cast<size_t>(count));
            std::iota(rows.begin(), rows.end(), from);
            std::stable_sort(rows.begin(), rows.end(), [&](int64_t x, int64_t y) {
                return l1[x].item<double>() > l1[y].item<double>();
            });
            rows.resize(size_t(k));
            std::sort(rows.begin(), rows.end());
            return rows;
        };
        const auto imagePivots = topOf(1, n, 4), textPivots = topOf(1 + n, t - 1 - n, 4);
        std::set<int64_t> kept(imagePivots.begin(), imagePivots.end()), candidates;
        for (int64_t r = 1; r <= n; ++r)
            if (!kept.count(r)) candidates.insert(r);
        auto cosine = [&](int64_t x, int64_t y) {
            return torch::cosine_similarity(states[x], states[y], 0).item<double>();
        };
        std::vector<int64_t> pivots = imagePivots;
        pivots.insert(pivots.end(), textPivots.begin(), textPivots.end());
        for (const int64_t p : pivots) {
            std::vector<int64_t> pool(candidates.begin(), candidates.end());
            std::stable_sort(pool.begin(), pool.end(),
                             [&](int64_t x, int64_t y) { return cosine(p, x) < cosine(p, y); });
            for (size_t i = 0; i < 16; ++i) {
                kept.insert(pool[i]);
                candidates.erase(pool[i]);
            }
        }
        std::vector<int64_t> want;
        for (const int64_t r : kept)
            want.push_back(r - 1); // as indices into the image tokens
        QCOMPARE(want.size(), size_t(4 + 8 * 16));

        m.tokenDrop = *planDart(cfg->llm.layers, n, 1, 128);
        model.reset();
        std::vector<int> forwardIds{1};
        forwardIds.insert(forwardIds.end(), prompt.begin(), prompt.end());
        (void)model.forward(forwardIds, visual, 1, {});
        QCOMPARE(m.keptVisual.size(), size_t(1));
        QCOMPARE(m.keptVisual.front(), want);
    }

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
