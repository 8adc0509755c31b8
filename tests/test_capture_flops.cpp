// FLOPs and bytes of real ref:tiny captures against numbers this test works
// out itself: an analytic count of the model's matrix products from its
// config, the same capture with and without nested ops, and a KV cache of
// twice the capacity.
#include "TestSupport.h"
#include "capture/run/Capture.h"
#include "core/session/SessionReader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <set>

using namespace mvp;

namespace {
constexpr int kSteps = 3;
const std::string kPrompt = "What is in the picture?";

// The ops that do ref:tiny's matrix products (convolution counted at its innermost call).
const std::set<std::string> kMatmulKinds{"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
                                         "aten::_convolution"};

struct Captured {
    std::vector<LeafFlopsRow> leaves;
    std::vector<OpTotal> totals;
    RunInfo run;
};

Captured captureTiny(const QString& path, bool nested, std::optional<int> maxSeq = {}) {
    CaptureOptions o;
    o.imagePath = test::sampleImage().toStdString();
    o.outPath = path.toStdString();
    o.prompt = kPrompt;
    o.steps = kSteps;
    o.nestedOps = nested;
    o.overrides.maxSeq = maxSeq;
    Captured c;
    auto r = capture(o);
    if (!r) {
        qWarning("%s", r.error().message.c_str());
        return c;
    }
    auto reader = SessionReader::open(path.toStdString());
    if (!reader) return c;
    c.run = *(*reader)->run(1);
    c.leaves = *(*reader)->leafFlops(1);
    c.totals = *(*reader)->opTotals(1);
    return c;
}

int64_t matmulFlops(const std::vector<LeafFlopsRow>& leaves, const std::string& phase = {}) {
    int64_t n = 0;
    for (const auto& l : leaves)
        if (kMatmulKinds.count(l.name) && (phase.empty() || phaseName(l.phase) == phase))
            n += l.flops;
    return n;
}

// 2·M·N·K for every matrix product ref:tiny's layers do, from its config
// (docs/diagnostics.md's reference model: ViT without CLS, 2-layer projector,
// GQA decoder with top-k MoE, lm_head on the last position only).
struct Analytic {
    int64_t vision = 0, projector = 0, prefill = 0, decode = 0;
};

Analytic analyticCount(const QJsonObject& cfg, int promptBytes, int steps) {
    const auto v = cfg[QStringLiteral("vision")].toObject();
    const auto l = cfg[QStringLiteral("llm")].toObject();
    auto i = [](const QJsonObject& o, const char* k) {
        return int64_t(o[QLatin1String(k)].toInteger());
    };
    const int64_t side = i(v, "image_size") / i(v, "patch"), n = side * side;
    const int64_t dv = i(v, "dim"), mlp = i(v, "mlp"), p = i(v, "patch");
    Analytic a;
    a.vision = 2 * n * dv * 3 * p * p; // patch embedding
    for (int64_t b = 0; b < i(v, "layers"); ++b)
        a.vision +=
            2 * n * dv * 3 * dv + 2 * (2 * n * n * dv) + 2 * n * dv * dv + 2 * (2 * n * dv * mlp);
    const int64_t d = i(l, "dim"), ph = cfg[QStringLiteral("projector_hidden")].toInteger();
    a.projector = 2 * n * dv * ph + 2 * n * ph * d;
    const int64_t h = i(l, "heads"), kv = i(l, "kv_heads"), hd = d / h, vocab = i(l, "vocab");
    const int64_t experts = i(l, "experts"), k = i(l, "top_k"), fe = i(l, "expert_ffn");
    const int64_t ffn = i(l, "ffn");
    std::set<int64_t> moe;
    for (const auto& m : l[QStringLiteral("moe_layers")].toArray())
        moe.insert(m.toInteger());
    // One forward pass over t new positions that see s cached ones in total.
    auto pass = [&](int64_t t, int64_t s) {
        int64_t f = 0;
        for (int64_t layer = 0; layer < i(l, "layers"); ++layer) {
            f += 2 * t * d * h * hd + 2 * (2 * t * d * kv * hd) + 2 * t * h * hd * d;
            f += 2 * (2 * h * t * s * hd); // scores and probs · values over every head
            if (moe.count(layer))
                f += 2 * t * d * experts + t * k * 3 * (2 * d * fe); // router, k SwiGLU experts
            else
                f += 3 * (2 * t * d * ffn);
        }
        return f + 2 * d * vocab; // lm_head on the last position
    };
    const int64_t t0 = 1 + n + promptBytes;
    a.prefill = pass(t0, t0);
    for (int s = 1; s <= steps; ++s)
        a.decode += pass(1, t0 + s);
    return a;
}

double relErr(int64_t a, int64_t b) {
    return b == 0 ? (a == 0 ? 0.0 : 1.0) : std::abs(double(a - b)) / double(b);
}
} // namespace

class TestCaptureFlops : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    Captured plain, nested;

private slots:
    void initTestCase() {
        plain = captureTiny(dir.filePath(QStringLiteral("plain.mvprof")), false);
        nested = captureTiny(dir.filePath(QStringLiteral("nested.mvprof")), true);
        QVERIFY(!plain.leaves.empty() && !nested.leaves.empty());
    }

    void matrixProductsEqualAnAnalyticCount() {
        const auto cfg = QJsonDocument::fromJson(QByteArray::fromStdString(plain.run.configJson));
        const Analytic a = analyticCount(cfg.object(), int(kPrompt.size()), kSteps);
        const std::pair<const char*, int64_t> phases[] = {{"vision", a.vision},
                                                          {"projector", a.projector},
                                                          {"prefill", a.prefill},
                                                          {"decode", a.decode}};
        for (const auto& [phase, expected] : phases) {
            const int64_t measured = matmulFlops(plain.leaves, phase);
            QVERIFY2(relErr(measured, expected) <= 0.01,
                     qPrintable(QStringLiteral("%1: mvprof %2, analytic %3")
                                    .arg(QLatin1String(phase))
                                    .arg(measured)
                                    .arg(expected)));
        }
    }

    void flopsDoNotDependOnNestedOps() {
        QCOMPARE(matmulFlops(nested.leaves), matmulFlops(plain.leaves));
        // Plain captures count the ops nested in a repeated call from its
        // first call (they run unobserved); nested captures observe them all.
        std::map<std::pair<std::string, std::string>, std::pair<int64_t, int64_t>> a, b;
        for (const auto& l : plain.leaves)
            a[{phaseName(l.phase), l.name}] = {l.calls, l.flops};
        for (const auto& l : nested.leaves)
            b[{phaseName(l.phase), l.name}] = {l.calls, l.flops};
        QVERIFY(a == b);
        // The top-level ops carry the same totals per phase.
        auto perPhase = [](const std::vector<OpTotal>& totals) {
            std::map<std::string, int64_t> m;
            for (const auto& t : totals)
                m[phaseName(t.phase)] += t.flops;
            return m;
        };
        QCOMPARE(perPhase(nested.totals), perPhase(plain.totals));
    }

    void decodeBytesDoNotGrowWithTheKvCapacity() {
        // The same run with a KV buffer four times as large: views of it move
        // nothing, so each decode step moves the same bytes.
        const Captured big = captureTiny(dir.filePath(QStringLiteral("big.mvprof")), false, 2048);
        QVERIFY(!big.totals.empty());
        auto decodeBytes = [](const std::vector<OpTotal>& totals) {
            int64_t n = 0;
            for (const auto& t : totals)
                if (t.phase == Phase::Decode) n += t.bytes;
            return n;
        };
        QVERIFY(decodeBytes(plain.totals) > 0);
        QCOMPARE(decodeBytes(big.totals), decodeBytes(plain.totals));
    }

    void everyPhaseHasItsFlopCoverage() {
        std::map<std::string, std::pair<int64_t, int64_t>> known; // phase → (known ns, ns)
        for (const auto& t : plain.totals) {
            known[phaseName(t.phase)].first += t.knownNs;
            known[phaseName(t.phase)].second += t.ns;
        }
        // Times are not thresholded (this machine is noisy): the numerator
        // never exceeds the whole, and every model phase ran ops with formulas.
        for (const auto& [phase, k] : known) {
            QVERIFY(k.first <= k.second);
            if (phase != "preprocess") QVERIFY2(k.first > 0, phase.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCaptureFlops)
#include "test_capture_flops.moc"
