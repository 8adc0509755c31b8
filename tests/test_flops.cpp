// FLOPs and bytes from shapes, against hand-computed values.
#include "TestSupport.h"
#include "capture/probe/OpCostMemo.h"
#include "core/ops/Flops.h"

#include <QTest>

using namespace mvp;

namespace {
OpArg t(std::vector<int64_t> shape, int elem = 4) {
    return OpArg{OpArg::Tensor, std::move(shape), elem};
}
OpArg ints(std::vector<int64_t> v) {
    return OpArg{OpArg::IntList, std::move(v), 0};
}
OpArg one(int64_t v) {
    return OpArg{OpArg::Int, {v}, 0};
}
OpArg none() {
    return OpArg{};
}
OpArg strided(std::vector<int64_t> shape) {
    OpArg a = t(std::move(shape));
    a.contiguous = false;
    return a;
}
OpArg list(std::vector<OpArg> items) {
    OpArg a;
    a.kind = OpArg::TensorList;
    a.items = std::move(items);
    return a;
}
} // namespace

class TestFlops : public QObject {
    Q_OBJECT
private slots:
    void matmulFamilyIsExactly2MNK() {
        QCOMPARE(*estimateOpCost("aten::mm", {t({64, 128}), t({128, 32})}).flops,
                 int64_t(2 * 64 * 32 * 128));
        QCOMPARE(*estimateOpCost("aten::bmm", {t({4, 8, 16}), t({4, 16, 2})}).flops,
                 int64_t(2 * 4 * 8 * 2 * 16));
        // addmm(bias, a, b): the bias add is not counted.
        QCOMPARE(*estimateOpCost("aten::addmm", {t({32}), t({10, 20}), t({20, 32})}).flops,
                 int64_t(2 * 10 * 32 * 20));
        // linear(input [..., K], weight [N, K]) over every leading dimension.
        QCOMPARE(*estimateOpCost("aten::linear", {t({3, 5, 16}), t({8, 16}), none()}).flops,
                 int64_t(2 * 15 * 8 * 16));
        // matmul broadcasts batch dimensions: [4,1,8,16] × [3,16,2] → [4,3,8,2].
        QCOMPARE(*estimateOpCost("aten::matmul", {t({4, 1, 8, 16}), t({3, 16, 2})}).flops,
                 int64_t(2 * 12 * 8 * 2 * 16));
        // vector · matrix and matrix · vector.
        QCOMPARE(*estimateOpCost("aten::matmul", {t({16}), t({16, 4})}).flops, int64_t(2 * 4 * 16));
        QCOMPARE(*estimateOpCost("aten::matmul", {t({4, 16}), t({16})}).flops, int64_t(2 * 4 * 16));
    }

    void mismatchedShapesAreNotGuessed() {
        QVERIFY(!estimateOpCost("aten::mm", {t({4, 5}), t({6, 7})}).flops.has_value());
        QVERIFY(!estimateOpCost("aten::frobnicate", {t({4, 5})}).flops.has_value());
    }

    void convolution() {
        // 224 px, patch 14, stride 14, 3 → 64 channels: 16×16 outputs.
        const int64_t expected = 2LL * 1 * 64 * 16 * 16 * 3 * 14 * 14;
        QCOMPARE(
            *estimateOpCost("aten::conv2d", {t({1, 3, 224, 224}), t({64, 3, 14, 14}), t({64}),
                                             ints({14, 14}), ints({0, 0}), ints({1, 1}), one(1)})
                 .flops,
            expected);
        // Padding 1, stride 2, groups 2 on 8 channels: out = (9 + 2 - 3)/2 + 1 = 5.
        QCOMPARE(*estimateOpCost("aten::conv2d", {t({2, 8, 9, 9}), t({6, 4, 3, 3}), none(),
                                                  ints({2, 2}), ints({1, 1}), ints({1, 1}), one(2)})
                      .flops,
                 int64_t(2 * 2 * 6 * 5 * 5 * 4 * 3 * 3));
    }

    void elementwiseAndNormalisation() {
        QCOMPARE(*estimateOpCost("aten::add", {t({4, 1, 8}), t({3, 8})}).flops, int64_t(4 * 3 * 8));
        QCOMPARE(*estimateOpCost("aten::softmax", {t({4, 10, 10}), one(-1), none()}).flops,
                 int64_t(5 * 400));
        QCOMPARE(*estimateOpCost("aten::silu", {t({7, 9})}).flops, int64_t(4 * 63));
        QCOMPARE(*estimateOpCost("aten::gelu", {t({7, 9})}).flops, int64_t(8 * 63));
    }

    void viewsMoveNothingAndCopiesReadAndWrite() {
        // A chain of views of a 64×128 float tensor: no data moves.
        for (const char* view : {"aten::view", "aten::narrow", "aten::select", "aten::slice",
                                 "aten::transpose", "aten::permute", "aten::unsqueeze",
                                 "aten::expand", "aten::reshape", "aten::t", "aten::detach"}) {
            const OpCost c = estimateOpCost(view, {t({64, 128}), ints({128, 64})});
            QCOMPARE(c.bytes, int64_t(0));
            QCOMPARE(c.flops, std::optional<int64_t>(0)); // known: no arithmetic
            QCOMPARE(classifyOp(view), OpClass::View);
        }
        // A copy of 8192 floats reads 32 KiB and writes 32 KiB.
        const int64_t size = 64 * 128 * 4;
        QCOMPARE(estimateOpCost("aten::copy_", {t({64, 128}), t({64, 128}), one(0)}).bytes,
                 2 * size);
        QCOMPARE(estimateOpCost("aten::clone", {t({64, 128}), none()}).bytes, 2 * size);
        // reshape and contiguous copy only a strided input.
        QCOMPARE(estimateOpCost("aten::reshape", {strided({64, 128}), ints({8192})}).bytes,
                 2 * size);
        QCOMPARE(estimateOpCost("aten::contiguous", {t({64, 128}), one(0)}).bytes, int64_t(0));
        // cat reads its list and writes as much.
        QCOMPARE(estimateOpCost("aten::cat", {list({t({2, 8}), t({3, 8})}), one(0)}).bytes,
                 int64_t(2 * 5 * 8 * 4));
        // An embedding reads the rows it gathers, not the whole table.
        QCOMPARE(estimateOpCost("aten::embedding", {t({32000, 64}), t({5}, 8)}).bytes,
                 int64_t(5 * 8 + 2 * 5 * 64 * 4));
        // index_select(self [4, 10, 6], dim 1 (or −2), 3 indices): 4·3·6 values gathered.
        for (int64_t dim : {1, -2})
            QCOMPARE(
                estimateOpCost("aten::index_select", {t({4, 10, 6}), one(dim), t({3}, 8)}).bytes,
                int64_t(3 * 8 + 2 * 4 * 3 * 6 * 4));
        QCOMPARE(estimateOpCost("aten::zero_", {t({10, 10})}).bytes, int64_t(400));
        QCOMPARE(classifyOp("aten::frobnicate"), OpClass::Other);
    }

    void attentionKernelsAndPooling() {
        // SDPA [B=2, H=4, L=10, E=16] over S=12 keys: QKᵀ and PV.
        QCOMPARE(*estimateOpCost("aten::scaled_dot_product_attention",
                                 {t({2, 4, 10, 16}), t({2, 4, 12, 16}), t({2, 4, 12, 16}), none()})
                      .flops,
                 int64_t(2 * (2 * 8 * 10 * 12 * 16)));
        // Native MHA, B=1, L=S=197, E=768: 4 projections + QKᵀ + PV.
        const int64_t b = 1, l = 197, e = 768;
        QCOMPARE(*estimateOpCost("aten::_native_multi_head_attention",
                                 {t({1, 197, 768}), t({1, 197, 768}), t({1, 197, 768}), one(768),
                                  one(12), t({2304, 768}), t({2304}), t({768, 768}), t({768})})
                      .flops,
                 int64_t(4 * 2 * b * l * e * e + 2 * 2 * b * l * l * e));
        // 3×3 max pool, stride 2, padding 1 on 112² → 56²: 9 compares per output.
        QCOMPARE(*estimateOpCost("aten::max_pool2d", {t({1, 64, 112, 112}), ints({3, 3}),
                                                      ints({2, 2}), ints({1, 1}), ints({1, 1})})
                      .flops,
                 int64_t(64 * 56 * 56 * 9));
        QCOMPARE(
            *estimateOpCost("aten::adaptive_avg_pool2d", {t({1, 512, 7, 7}), ints({1, 1})}).flops,
            int64_t(512 * 49));
        // conv2d(padding="same") passes a string: its inner convolution counts.
        OpArg same;
        QVERIFY(!estimateOpCost("aten::conv2d", {t({1, 3, 8, 8}), t({4, 3, 3, 3}), none(),
                                                 ints({1, 1}), same, ints({1, 1}), one(1)})
                     .flops);
    }

    // libtorch 2.x's int4 matmul: x [M, K] times a weight whose N only the
    // scales and zeros [K / group, N, 2] show (its codes are tiled).
    void int4MatmulCountsTwoMNK() {
        const OpArg packed = t({2, 1, 32, 4}, 4); // [N/8, K/(tiles·16), 32, tiles/2] int32
        for (const char* op : {"aten::_weight_int4pack_mm", "aten::_weight_int4pack_mm_for_cpu"}) {
            const auto c = estimateOpCost(op, {t({3, 64}, 2), packed, one(32), t({2, 16, 2}, 2)});
            QVERIFY2(c.flops.has_value(), op);
            QCOMPARE(*c.flops, int64_t(2 * 3 * 64 * 16));
        }
        QVERIFY(!estimateOpCost("aten::_weight_int4pack_mm", {t({3, 64}, 2), packed}).flops);
    }

    void bytesCountInputsAndOutput() {
        // 64×128 and 128×32 floats in, 64×32 out.
        QCOMPARE(estimateOpCost("aten::mm", {t({64, 128}), t({128, 32})}).bytes,
                 int64_t(4 * (64 * 128 + 128 * 32 + 64 * 32)));
        QCOMPARE(estimateOpCost("aten::mm", {t({2, 2}, 2), t({2, 2}, 2)}).bytes, int64_t(2 * 12));
    }
    // The probe's memo answers only for a call whose every argument matches.
    void costMemoHitsOnlyForTheSameArguments() {
        OpCostMemo memo;
        const int opA = 0, opB = 0;
        const std::vector<OpArg> call{t({16, 64}), t({64, 32})};
        QVERIFY(memo.find(&opA, call) == nullptr);
        memo.store(OpCost{int64_t(123), 456});
        const OpCostMemo::Entry* hit = memo.find(&opA, call);
        QVERIFY(hit != nullptr);
        QCOMPARE(*hit->cost.flops, int64_t(123));
        QCOMPARE(hit->cost.bytes, int64_t(456));
        QVERIFY(!hit->nested);
        QVERIFY(memo.find(&opB, call) == nullptr); // another op
        QVERIFY(memo.find(&opA, {t({16, 64}), t({64, 33})}) == nullptr);      // a shape
        QVERIFY(memo.find(&opA, {t({16, 64}, 2), t({64, 32})}) == nullptr);   // a dtype size
        QVERIFY(memo.find(&opA, {strided({16, 64}), t({64, 32})}) == nullptr); // a layout
        QVERIFY(memo.find(&opA, {ints({16, 64}), t({64, 32})}) == nullptr);   // a kind
        QVERIFY(memo.find(&opA, {t({16, 64})}) == nullptr);                   // an argument fewer
        QVERIFY(memo.find(&opA, {list({t({16, 64}), t({64, 32})})}) == nullptr);
        OpArg int32 = t({16, 64}); // as wide as float32, another scalar type
        int32.typeCode = 3;
        QVERIFY(memo.find(&opA, {int32, t({64, 32})}) == nullptr);
        // "No formula" is remembered as such, not as 0 FLOPs.
        memo.find(&opB, call);
        memo.store(OpCost{std::nullopt, 8});
        QVERIFY(!memo.find(&opB, call)->cost.flops.has_value());
        QVERIFY(memo.find(&opA, call) != nullptr); // both kept
    }

    // The probe builds a call's signature piece by piece, without OpArgs: the
    // same arguments give the same signature both ways, and another value not.
    void costMemoSignaturesAgreeBothWays() {
        OpCostMemo memo;
        const int op = 0;
        const OpArg plain;
        const std::vector<OpArg> call{t({16, 64}), ints({1, 2}), list({t({3}), none()})};
        QVERIFY(memo.find(&op, call) == nullptr);
        memo.store(OpCost{int64_t(77), 9});
        // Each argument's header from its OpArg's fields, its values one by one.
        auto header = [&](const OpArg& a) {
            memo.addArg(a.kind, a.values.size(), a.items.size(), a.elemSize, a.contiguous,
                        a.typeCode);
        };
        auto build = [&](int64_t last) {
            memo.beginCall(&op);
            header(call[0]);
            memo.addValue(16), memo.addValue(64);
            header(call[1]);
            memo.addValue(1), memo.addValue(last);
            header(call[2]);
            header(call[2].items[0]);
            memo.addValue(3);
            header(call[2].items[1]);
            return memo.findCall();
        };
        const OpCostMemo::Entry* hit = build(2);
        QVERIFY(hit != nullptr);
        QCOMPARE(*hit->cost.flops, int64_t(77));
        QVERIFY(build(3) == nullptr);
        // Too many words to compare cheaply: never a hit, never stored.
        memo.beginCall(&op);
        memo.addArg(OpArg::IntList, 64, 0, plain.elemSize, plain.contiguous, plain.typeCode);
        for (int i = 0; i < 64; ++i)
            memo.addValue(i);
        QVERIFY(memo.findCall() == nullptr);
        memo.store(OpCost{int64_t(1), 1});
        QVERIFY(memo.findCall() == nullptr);
    }

    // Scalars, strings and None are told apart by their words (setArg), so a
    // call with another rounding mode or alpha is another call.
    void costMemoTellsOtherValuesApart() {
        OpCostMemo memo;
        const int op = 0;
        auto other = [](std::vector<int64_t> words) {
            return OpArg{OpArg::Other, std::move(words), 0};
        };
        memo.find(&op, {t({4}), other({7})});
        memo.store(OpCost{int64_t(4), 16});
        QVERIFY(memo.find(&op, {t({4}), other({7})}) != nullptr);
        QVERIFY(memo.find(&op, {t({4}), other({8})}) == nullptr);
        QVERIFY(memo.find(&op, {t({4}), other({})}) == nullptr); // None
    }

    // A top-level call keeps what its nested calls added up to, beside its own
    // cost, even when nested calls used the memo in between.
    void costMemoKeepsANestedSummaryForTheOuterCall() {
        OpCostMemo memo;
        const int linear = 0, addmm = 0;
        const std::string leaf = "aten::addmm";
        const std::vector<OpArg> outer{t({8, 64}), t({32, 64})}, inner{t({8, 64}), t({64, 32})};
        QVERIFY(memo.find(&linear, outer) == nullptr);
        memo.store(OpCost{std::nullopt, 100});
        memo.holdOuter(OpCost{std::nullopt, 100});
        QVERIFY(memo.find(&addmm, inner) == nullptr); // the nested call, in between
        memo.store(OpCost{int64_t(2 * 8 * 64 * 32), 200});
        NestedCalls nested;
        nested.children = {2 * 8 * 64 * 32, true, 2, 0};
        nested.leafCount = 1;
        nested.leaves[0] = {&leaf, nested.children.flops};
        memo.storeOuter(nested);
        const OpCostMemo::Entry* hit = memo.find(&linear, outer);
        QVERIFY(hit && hit->nested);
        QCOMPARE(hit->cost.bytes, int64_t(100));
        QCOMPARE(hit->nested->children.flops, int64_t(2 * 8 * 64 * 32));
        QCOMPARE(hit->nested->children.count, 2);
        QVERIFY(hit->nested->leaves[0].first == &leaf);
        QVERIFY(memo.find(&addmm, inner) != nullptr); // the nested call's own entry stays
        // A plain store() for the same call forgets the summary.
        memo.find(&linear, outer);
        memo.store(OpCost{std::nullopt, 100});
        QVERIFY(!memo.find(&linear, outer)->nested);
    }

    void costMemoSkipsArgumentsTooLongToCompare() {
        OpCostMemo memo;
        const int op = 0;
        std::vector<OpArg> many;
        for (int i = 0; i < 20; ++i)
            many.push_back(t({2, 3, 4}));
        QVERIFY(memo.find(&op, many) == nullptr);
        memo.store(OpCost{int64_t(1), 1});
        QVERIFY(memo.find(&op, many) == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestFlops)
#include "test_flops.moc"
