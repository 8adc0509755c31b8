// VlmModel::forwardBranches, the packed teacher forcing that training uses
// (capture/train/Train.cpp): each branch's rows must equal a plain forward()
// over prefix + branch — the model's own causal pass at contiguous positions,
// run alone with a fresh cache — in logits, and in the gradient they send to
// the weights; and no branch may attend to another.
#include "capture/models/Vlm.h"
#include "capture/models/VlmLayers.h"

#include <QTest>

using namespace mvp;

namespace {
constexpr int kBos = 256;

std::vector<int> bytesOf(const char* text) {
    std::vector<int> ids;
    for (const char* c = text; *c; ++c)
        ids.push_back(static_cast<unsigned char>(*c));
    return ids;
}

// ref:demo with random weights: packing must hold for any weights.
Result<VlmConfig> seededDemo() {
    PresetOverrides seeded;
    seeded.seed = 1;
    return presetConfig("ref:demo", seeded);
}

struct Fixture {
    VlmModel model;
    torch::Tensor visual;
    std::vector<std::vector<int>> branches{bytesOf("How many shapes are there?2"),
                                           bytesOf("What colour is the circle?red"),
                                           bytesOf("Is the square on the left or the right?le")};
    explicit Fixture(const VlmConfig& c) : model(c) {
        torch::manual_seed(3);
        visual = torch::randn({c.vision.patches(), c.llm.dim});
    }
    // forward() over [BOS, visual, branch]: every row's logits.
    torch::Tensor alone(size_t b) {
        model.reset();
        std::vector<int> ids{kBos};
        ids.insert(ids.end(), branches[b].begin(), branches[b].end());
        return model.forward(ids, visual, 1, {}, /*allPositions=*/true);
    }
};
} // namespace

class TestBranches : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void branchesEqualTheirOwnPasses() {
        auto cfg = seededDemo();
        QVERIFY(bool(cfg));
        Fixture f(*cfg);
        torch::NoGradGuard noGrad;
        const int64_t prefix = 1 + f.visual.size(0);
        std::vector<torch::Tensor> attention;
        ForwardHooks hooks;
        hooks.attention = [&](int, const torch::Tensor& probs, int, const KvCache&) {
            attention.push_back(probs.clone());
        };
        const auto packed = f.model.forwardBranches({kBos}, f.visual, f.branches, hooks);
        int64_t row = prefix;
        for (size_t b = 0; b < f.branches.size(); ++b) {
            const auto own = f.alone(b);
            const auto len = int64_t(f.branches[b].size());
            QCOMPARE(packed.size(1), own.size(1));
            QVERIFY(torch::allclose(packed.narrow(0, 0, prefix), own.narrow(0, 0, prefix), 1e-5,
                                    1e-5));
            const double diff =
                (packed.narrow(0, row, len) - own.narrow(0, prefix, len)).abs().max().item<double>();
            QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("branch %1 differs by %2").arg(b).arg(diff)));
            // Its rows put no attention on any other branch's slots.
            for (const auto& probs : attention) {
                const auto rows = probs.narrow(1, row, len);
                const double elsewhere = rows.narrow(2, prefix, row - prefix).sum().item<double>() +
                                         rows.narrow(2, row + len, probs.size(2) - row - len)
                                             .sum()
                                             .item<double>();
                QCOMPARE(elsewhere, 0.0);
            }
            row += len;
        }
        QCOMPARE(row, packed.size(0));
    }

    void branchesSendTheSameGradients() {
        auto cfg = seededDemo();
        QVERIFY(bool(cfg));
        Fixture f(*cfg);
        auto& m = f.model.impl();
        m.train();
        const auto gradients = [&] {
            std::vector<torch::Tensor> g;
            for (auto& p : m.parameters()) {
                g.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
                p.mutable_grad() = torch::Tensor();
            }
            return g;
        };
        // The sum of the last row's logits of each branch, both ways.
        torch::Tensor separate = torch::zeros({});
        for (size_t b = 0; b < f.branches.size(); ++b)
            separate = separate + f.alone(b)[-1].sum();
        separate.backward();
        const auto want = gradients();
        const auto packed = f.model.forwardBranches({kBos}, f.visual, f.branches, {});
        torch::Tensor together = torch::zeros({});
        int64_t row = 1 + f.visual.size(0);
        for (const auto& b : f.branches) {
            row += int64_t(b.size());
            together = together + packed[row - 1].sum();
        }
        together.backward();
        const auto got = gradients();
        QCOMPARE(got.size(), want.size());
        const auto names = m.named_parameters();
        // Float32 sums in another order: equal to a millionth of the tensor's
        // largest entry. The encoder gets none (the visual tokens are given).
        int reached = 0;
        for (size_t i = 0; i < got.size(); ++i) {
            const double diff = (got[i] - want[i]).abs().max().item<double>();
            const double scale = want[i].abs().max().item<double>();
            reached += scale > 0;
            QVERIFY2(diff <= 2e-6 * scale,
                     qPrintable(QStringLiteral("%1 differs by %2 (of %3)")
                                    .arg(QString::fromStdString(names[i].key()))
                                    .arg(diff)
                                    .arg(scale)));
        }
        QVERIFY2(reached > 30, qPrintable(QString::number(reached))); // the decoder's weights
    }
};

QTEST_GUILESS_MAIN(TestBranches)
#include "test_branches.moc"
