// W8 on libtorch's int8 matmul (capture/models/transforms/Int8Kernel.h), the path a
// model off the CPU takes: the codes and scales against values worked by
// hand; the _int_mm path's arithmetic around the integer product (per-row
// activation codes, rows padded past the CUDA kernel's minimum, rescaling)
// against libtorch's float matmul, with an exact integer product standing in
// for _int_mm where this libtorch has none; the shapes refused by name; and
// where this libtorch has an int8 matmul on the CPU (2.x) its product, where
// it has none (Debian's 1.13) the reason.
#include "capture/models/VlmLayers.h"
#include "capture/models/transforms/Int8Kernel.h"

#include <QTest>
#include <torch/version.h>

using namespace mvp;

namespace {
torch::Tensor weight(int64_t out, int64_t in) {
    return torch::arange(out * in, torch::kFloat).mul(0.731).sin().view({out, in}) *
           torch::linspace(0.1, 2.0, out).unsqueeze(1);
}

// int8 × int8 → int32 exactly (int64 arithmetic), as _int_mm defines it,
// checking what the caller hands it.
struct ExactIntMatmul {
    mutable int64_t rowsSeen = 0;
    mutable bool int8 = true; // every call's operands were int8
    mutable std::vector<int64_t> weightShape;
    torch::Tensor operator()(const torch::Tensor& xq, const torch::Tensor& wt) const {
        int8 = int8 && xq.scalar_type() == torch::kChar && wt.scalar_type() == torch::kChar;
        rowsSeen = xq.size(0);
        weightShape = wt.sizes().vec();
        return xq.to(torch::kLong).matmul(wt.to(torch::kLong)).to(torch::kInt);
    }
};

double relativeError(const torch::Tensor& got, const torch::Tensor& want) {
    return (got.to(torch::kFloat) - want).norm().item<double>() / want.norm().item<double>();
}
} // namespace

class TestInt8Kernel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void codesAndScalesByHand() {
        // Row 0: |w|max 4 → scale 4/127; 1 → 31.75 → 32, −2.2 → −69.85 → −70,
        // 0.5 → 15.875 → 16, 4 → 127. Row 1: scale 0.3/127; 0.1 → 42.33 → 42,
        // 0.2 → 84.67 → 85, −0.3 → −127, 0 → 0.
        const auto w =
            torch::tensor({1.0f, -2.2f, 0.5f, 4.0f, 0.1f, 0.2f, -0.3f, 0.0f}).view({2, 4});
        const Int8Weight q = quantiseInt8Symmetric(w);
        QCOMPARE(q.codes.scalar_type(), torch::kChar);
        const std::vector<int> want{32, -70, 16, 127, 42, 85, -127, 0};
        const auto codes = q.codes.to(torch::kInt).contiguous();
        QCOMPARE(std::vector<int>(codes.data_ptr<int>(), codes.data_ptr<int>() + 8), want);
        QCOMPARE(q.scale.scalar_type(), torch::kFloat);
        QVERIFY(std::abs(q.scale[0].item<double>() - 4.0 / 127) < 1e-7);
        QVERIFY(std::abs(q.scale[1].item<double>() - 0.3 / 127) < 1e-7);
        QCOMPARE(q.bytes(), int64_t(8 * 1 + 2 * 4));
        // Every weight within half a step of its row.
        const auto big = weight(16, 64);
        const Int8Weight b = quantiseInt8Symmetric(big);
        const auto off = (dequantiseInt8(b) - big).abs();
        QVERIFY((off <= b.scale.unsqueeze(1) * 0.5 + 1e-7).all().item<bool>());
    }

    void rowQuantisedProductMatchesTheFloatProduct() {
        const auto w = weight(24, 64);
        const Int8Weight q = quantiseInt8Symmetric(w);
        const auto reference = [&](const torch::Tensor& x) {
            return torch::matmul(x, dequantiseInt8(q).t());
        };
        ExactIntMatmul exact;
        const auto call = [&](const torch::Tensor& a, const torch::Tensor& b) {
            return exact(a, b);
        };
        // Three rows: padded to 32 for the kernel, three rows back.
        const auto x = torch::arange(3 * 64, torch::kFloat).mul(0.29).cos().view({3, 64});
        const auto y = rowQuantisedLinear(x, q, call, 32);
        QVERIFY(exact.int8);
        QCOMPARE(exact.rowsSeen, int64_t(32));
        QCOMPARE(exact.weightShape, (std::vector<int64_t>{64, 24}));
        QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{3, 24}));
        // Activation codes round by ≤ half a step of |x|max/127 per row.
        QVERIFY2(relativeError(y, reference(x)) < 0.01,
                 qPrintable(QString::number(relativeError(y, reference(x)))));
        // Rows that are whole multiples of their step are coded exactly: the
        // product is then the float product up to float rounding.
        auto whole = torch::arange(2 * 64, torch::kFloat).remainder(127).sub(63).view({2, 64});
        whole.select(1, 0).fill_(127); // each row's step: exactly 1
        QVERIFY(relativeError(rowQuantisedLinear(whole, q, call, 32), reference(whole)) < 1e-5);
        // Enough rows: none added; leading dims and dtype kept.
        const auto many =
            torch::arange(2 * 20 * 64, torch::kFloat).mul(0.11).sin().view({2, 20, 64});
        const auto ym = rowQuantisedLinear(many.to(torch::kBFloat16), q, call, 32);
        QCOMPARE(exact.rowsSeen, int64_t(40));
        QCOMPARE(ym.scalar_type(), torch::kBFloat16);
        QCOMPARE(ym.sizes().vec(), (std::vector<int64_t>{2, 20, 24}));
        QVERIFY(relativeError(ym, reference(many.to(torch::kBFloat16).to(torch::kFloat))) < 0.02);
        // A zero row stays zero (no division by a zero scale).
        const auto zero = rowQuantisedLinear(torch::zeros({1, 64}), q, call, 32);
        QVERIFY(zero.abs().max().item<double>() == 0.0);
    }

    void shapesTheKernelCannotTakeAreNamed() {
        QVERIFY(int8ShapeProblem(quantiseInt8Symmetric(weight(16, 64))).empty());
        QVERIFY(int8ShapeProblem(quantiseInt8Symmetric(weight(16, 60))).find("input width 60") !=
                std::string::npos);
        QVERIFY(int8ShapeProblem(quantiseInt8Symmetric(weight(12, 64))).find("output width 12") !=
                std::string::npos);
    }

    // A decoder linear holding int8 codes for the matmul computes with them
    // (on the dequantised weights where no kernel took them) and adds its bias.
    void aLayerRunsItsInt8Weights() {
        Lin lin(64, 24, true);
        torch::NoGradGuard noGrad;
        lin->weight.copy_(weight(24, 64));
        lin->bias.copy_(torch::linspace(-1, 1, 24));
        auto q = std::make_shared<QuantisedWeight>();
        q->int8Matmul = quantiseInt8Symmetric(lin->weight);
        const auto deq = dequantiseInt8(*q->int8Matmul);
        lin->quant = q;
        const auto x = torch::arange(5 * 64, torch::kFloat).mul(0.21).sin().view({5, 64});
        const auto want = torch::matmul(x, deq.t()) + lin->bias;
        QVERIFY(relativeError(lin->forward(x), want) < 1e-6);
        QCOMPARE(q->bytes(), int64_t(24 * 64 + 24 * 4));
    }

    void theMatmulAgreesOrSaysWhyNot() {
        Int8Weight q = quantiseInt8Symmetric(weight(32, 256));
        const auto x = torch::arange(3 * 256, torch::kFloat).mul(0.13).cos().view({3, 256});
        const auto want = torch::matmul(x, dequantiseInt8(q).t());
        std::string why;
        const auto name = int8MatmulName(torch::kCPU, torch::kFloat, why);
        if (!attachInt8Matmul(q, torch::kFloat, why)) {
            QVERIFY(!why.empty());
            QVERIFY(q.ops == nullptr);
            if (TORCH_VERSION_MAJOR < 2) {
                QVERIFY(!name);
                QVERIFY2(why.find("has neither") != std::string::npos, why.c_str());
            }
            // Without a kernel the layer still computes, on the dequantised weights.
            QVERIFY(relativeError(int8Linear(x, q), want) < 1e-6);
            QSKIP(qPrintable(QString::fromStdString("no int8 matmul here: " + why)));
        }
        QVERIFY(name.has_value());
        QVERIFY(q.ops != nullptr);
        QVERIFY(relativeError(int8Linear(x, q), want) < 0.03);
    }
};

QTEST_GUILESS_MAIN(TestInt8Kernel)
#include "test_int8_kernel.moc"
