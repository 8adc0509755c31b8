// The KV methods on the model's own caches (capture/models/transforms/KvMethods.h),
// checked inside the model against numbers worked here:
// - KIVI's store: what a pass reads back is its own tokens exact and the
//   older ones dequantised exactly as KIVI's formula gives, group by group
//   (keys per channel over 32 tokens, values per token over 32 channels),
//   and its bytes are the packed format's;
// - StreamingLLM re-indexes positions inside the cache: a decode step's
//   attention over the kept slots equals a softmax worked here from the
//   cache's stored (pre-RoPE) keys rotated at their slot indices and the
//   query rotated at the cache's length — not at the original positions.
#include "capture/models/Vlm.h"
#include "capture/models/VlmLayers.h"
#include "capture/models/transforms/KvMethods.h"

#include <QTest>
#include <cmath>

using namespace mvp;

namespace {
// KIVI's round trip of one group, in float32 as the cache holds it.
std::vector<float> kiviByHand(const std::vector<float>& x, int bits) {
    float lo = x[0], hi = x[0];
    for (const float v : x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const float top = float((1 << bits) - 1), scale = (hi - lo) / top;
    std::vector<float> out;
    for (const float v : x) {
        const float code = scale > 0 ? std::nearbyint(std::clamp((v - lo) / scale, 0.0f, top)) : 0;
        out.push_back(code * scale + lo);
    }
    return out;
}

// RoPE (rotate-half) of one head's vector at `position`, by its definition.
std::vector<double> rotated(const float* x, int64_t hd, int64_t position, double theta) {
    std::vector<double> out(static_cast<size_t>(hd));
    const int64_t half = hd / 2;
    for (int64_t i = 0; i < half; ++i) {
        const double angle = double(position) * std::pow(theta, -2.0 * double(i) / double(hd));
        const double a = x[i], b = x[i + half];
        out[size_t(i)] = a * std::cos(angle) - b * std::sin(angle);
        out[size_t(i + half)] = b * std::cos(angle) + a * std::sin(angle);
    }
    return out;
}
} // namespace

class TestKvMethods : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void kiviReadsBackItsFormat() {
        torch::manual_seed(7);
        const int64_t t = 70, heads = 2, hd = 64;
        const auto keys = torch::randn({t, heads, hd}), values = torch::randn({t, heads, hd});
        for (const int bits : {2, 4}) {
            KiviStore store;
            store.format.bits = bits;
            auto [k0, v0] = store.append(keys, values);
            QVERIFY(torch::equal(k0, keys)); // the prefill attends in full precision
            QVERIFY(torch::equal(v0, values));
            QCOMPARE(store.quantisedKeys, int64_t(64));
            QCOMPARE(store.quantisedValues, int64_t(38));
            const auto next = torch::randn({1, heads, hd});
            auto [k1, v1] = store.append(next, next);
            QCOMPARE(k1.size(0), t + 1);
            auto ka = k1.contiguous(), va = v1.contiguous();
            auto kin = keys.contiguous(), vin = values.contiguous();
            const float *kr = ka.data_ptr<float>(), *vr = va.data_ptr<float>();
            const float *kx = kin.data_ptr<float>(), *vx = vin.data_ptr<float>();
            auto idx = [&](int64_t pos, int64_t h, int64_t c) {
                return (pos * heads + h) * hd + c;
            };
            for (int64_t h = 0; h < heads; ++h) {
                for (int64_t c = 0; c < hd; ++c)
                    for (int64_t g = 0; g < 64; g += 32) { // keys: 32 tokens of one channel
                        std::vector<float> group;
                        for (int64_t p = g; p < g + 32; ++p)
                            group.push_back(kx[idx(p, h, c)]);
                        const auto want = kiviByHand(group, bits);
                        for (int64_t p = g; p < g + 32; ++p)
                            QCOMPARE(kr[idx(p, h, c)], want[size_t(p - g)]);
                    }
                for (int64_t p = 0; p < 38; ++p) // values: 32 channels of one token
                    for (int64_t c0 = 0; c0 < hd; c0 += 32) {
                        std::vector<float> group(vx + idx(p, h, c0), vx + idx(p, h, c0) + 32);
                        const auto want = kiviByHand(group, bits);
                        for (int64_t c = 0; c < 32; ++c)
                            QCOMPARE(vr[idx(p, h, c0 + c)], want[size_t(c)]);
                    }
                for (int64_t c = 0; c < hd; ++c) { // the unfinished key block, full
                    QCOMPARE(kr[idx(64, h, c)], kx[idx(64, h, c)]);
                    QCOMPARE(vr[idx(69, h, c)], vx[idx(69, h, c)]);
                }
            }
            // 71 tokens: 64 keys in codes + 2 scale/min per channel, 7 full;
            // 39 values in codes + 2 groups per token, 32 full; per head, float32.
            const int64_t perHead = 64 * hd * bits / 8 + hd * 2 * 2 * 4 + 7 * hd * 4 +
                                    39 * hd * bits / 8 + 39 * 2 * 2 * 4 + 32 * hd * 4;
            QCOMPARE(store.bytes(), perHead * heads);
        }
    }

    void streamingLlmRotatesAtSlots() {
        auto cfg = presetConfig("ref:tiny");
        QVERIFY(bool(cfg));
        VlmModel model(*cfg);
        KvMethod streaming;
        streaming.kind = KvMethodKind::StreamingLLM;
        streaming.budget = 0.25;
        model.impl().kvMethod = streaming;
        model.reset();
        c10::InferenceMode inference;
        std::vector<int> prompt(60);
        for (size_t i = 0; i < prompt.size(); ++i)
            prompt[i] = int(3 + i % 40);
        model.forward(prompt, torch::Tensor(), 0, {});
        const KvCache& cache = model.impl().layers[0]->attn->cache;
        const int64_t budget = int64_t(0.25 * 60);
        QCOMPARE(int64_t(cache.slots), budget);
        QCOMPARE(cache.positionOfSlot[4][0].item<int64_t>(), int64_t(60 - (budget - 4)));
        // The next token, seen by layer 0: its own query against the kept keys.
        torch::Tensor probs;
        ForwardHooks hooks;
        hooks.attention = [&](int layer, const torch::Tensor& p, int, const KvCache&) {
            if (layer == 0) probs = p.clone();
        };
        const std::vector<int> next{7};
        const auto storedKeys = cache.k.narrow(0, 0, budget).clone(); // before RoPE
        model.forward(next, torch::Tensor(), 0, hooks);
        QCOMPARE(probs.size(2), budget + 1);
        auto& layer = *model.impl().layers[0];
        AttentionImpl& a = *layer.attn;
        auto x = model.impl().tokEmbed(torch::tensor({int64_t(7)}, torch::kLong));
        auto h = layer.norm1(x);
        auto q = a.wq(h).view({a.heads, a.headDim}).contiguous();
        auto kNew = a.wk(h).view({a.kvHeads, a.headDim}).contiguous();
        auto keys = torch::cat({storedKeys, kNew.unsqueeze(0)}).contiguous(); // [S, kvH, hd]
        const int64_t hd = a.headDim, group = a.heads / a.kvHeads, s = budget + 1;
        const double theta = cfg->llm.ropeTheta;
        for (int64_t head = 0; head < a.heads; ++head) {
            const auto qr = rotated(q[head].data_ptr<float>(), hd, budget, theta);
            std::vector<double> scores;
            double top = -INFINITY;
            for (int64_t slot = 0; slot < s; ++slot) {
                const auto kr = rotated(keys[slot][head / group].contiguous().data_ptr<float>(), hd,
                                        slot, theta);
                double dot = 0;
                for (int64_t i = 0; i < hd; ++i)
                    dot += qr[size_t(i)] * kr[size_t(i)];
                scores.push_back(dot / std::sqrt(double(hd)));
                top = std::max(top, scores.back());
            }
            double z = 0;
            for (const double v : scores)
                z += std::exp(v - top);
            for (int64_t slot = 0; slot < s; ++slot) {
                const double want = std::exp(scores[size_t(slot)] - top) / z;
                const double got = probs[head][0][slot].item<double>();
                QVERIFY2(std::abs(got - want) < 1e-5,
                         qPrintable(QStringLiteral("head %1 slot %2: %3 vs %4")
                                        .arg(head)
                                        .arg(slot)
                                        .arg(got)
                                        .arg(want)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestKvMethods)
#include "test_kv_methods.moc"
