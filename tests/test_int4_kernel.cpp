// W4 on libtorch's int4 matmul (capture/models/transforms/Int4Kernel.h): what mvp hands
// the kernel is the weights its own codes stand for, written out here with the
// kernel's definition (tinygemm: w = (q − 8)·scale + zero per group); the
// shapes the kernel cannot take are named; and where this libtorch has the
// kernel (2.x) its product agrees with the dequantised weights', where it has
// none (Debian's 1.13) the reason says so.
#include "capture/models/transforms/Int4Kernel.h"

#include <QTest>
#include <torch/version.h>

using namespace mvp;

namespace {
// A deterministic weight with a spread of magnitudes per row.
torch::Tensor weight(int64_t out, int64_t in) {
    return torch::arange(out * in, torch::kFloat).mul(0.731).sin().view({out, in}) *
           torch::linspace(0.1, 2.0, out).unsqueeze(1);
}
} // namespace

class TestInt4Kernel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void kernelInputsAreTheCodesWeights() {
        const auto w = weight(16, 256);
        const GroupCodes codes = quantiseGroups(w, 4, 128);
        const Int4KernelInputs in = int4KernelInputs(codes);
        QCOMPARE(in.codes.scalar_type(), torch::kInt);
        QCOMPARE(in.codes.sizes().vec(), (std::vector<int64_t>{16, 256}));
        QVERIFY(in.codes.min().item<int>() >= 0 && in.codes.max().item<int>() <= 15);
        QCOMPARE(in.scaleAndZeros.scalar_type(), torch::kBFloat16);
        QCOMPARE(in.scaleAndZeros.sizes().vec(), (std::vector<int64_t>{2, 16, 2}));
        // The kernel's weights, by its definition, element by element.
        const auto sz = in.scaleAndZeros.to(torch::kFloat);
        auto kernel = torch::empty({16, 256});
        for (int64_t r = 0; r < 16; ++r)
            for (int64_t c = 0; c < 256; ++c) {
                const int64_t g = c / 128;
                kernel[r][c] = (in.codes[r][c].item<int>() - 8) * sz[g][r][0].item<float>() +
                               sz[g][r][1].item<float>();
            }
        const auto mine = dequantiseGroups(codes);
        // bfloat16 scales and zeros: each off by ≤ 2⁻⁸ relative, so a weight
        // by ≤ 2⁻⁸ · (8·scale + |zero|) — far below one step (scale).
        const auto bound = (8 * codes.scale.to(torch::kFloat).abs() +
                            (codes.low.to(torch::kFloat) + 8 * codes.scale.to(torch::kFloat)).abs())
                               .mul(std::ldexp(1.0, -8))
                               .repeat_interleave(128, 1);
        const auto off = (kernel - mine).abs();
        QVERIFY2((off <= bound + 1e-6).all().item<bool>(),
                 qPrintable(QString::number(off.max().item<double>())));
        // And the codes' weights are the weight's to within half a step.
        QVERIFY((mine - w).abs().max().item<double>() <=
                0.5 * codes.scale.to(torch::kFloat).max().item<double>() + 1e-6);
    }

    void shapesTheKernelCannotTakeAreNamed() {
        QVERIFY(int4ShapeProblem(quantiseGroups(weight(16, 256), 4, 128)).empty());
        QVERIFY(int4ShapeProblem(quantiseGroups(weight(16, 256), 8, 128)).find("4-bit") !=
                std::string::npos);
        QVERIFY(int4ShapeProblem(quantiseGroups(weight(16, 192), 4, 96)).find("group of 96") !=
                std::string::npos);
        // ref:small's experts' w2: 704 inputs, no multiple of the 128 group.
        QVERIFY(int4ShapeProblem(quantiseGroups(weight(16, 704), 4, 128)).find("704") !=
                std::string::npos);
        QVERIFY(int4ShapeProblem(quantiseGroups(weight(12, 256), 4, 128)).find("output width 12") !=
                std::string::npos);
    }

    void theKernelAgreesOrSaysWhyNot() {
        const auto w = weight(32, 256);
        const GroupCodes codes = quantiseGroups(w, 4, 128);
        std::string why;
        const auto packed = packInt4(codes, why);
        if (!packed) {
            QVERIFY(!why.empty());
            if (TORCH_VERSION_MAJOR < 2)
                QVERIFY2(why.find("has no") != std::string::npos, why.c_str());
            QSKIP(qPrintable(QString::fromStdString("no int4 kernel here: " + why)));
        }
        const auto x = torch::arange(3 * 256, torch::kFloat).mul(0.13).cos().view({3, 256});
        const auto want = torch::matmul(x, dequantiseGroups(codes).t());
        const auto got = int4Linear(x, *packed);
        QCOMPARE(got.scalar_type(), torch::kFloat);
        QVERIFY((got - want).norm().item<double>() <= 0.03 * want.norm().item<double>());
        QVERIFY(packed->bytes() > 0);
    }
};

QTEST_GUILESS_MAIN(TestInt4Kernel)
#include "test_int4_kernel.moc"
