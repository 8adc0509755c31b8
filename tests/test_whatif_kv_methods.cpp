// StreamingLLM, H2O, SnapKV and KIVI as what-ifs on ref:small (576 image
// tokens, 8 layers, 8 query heads sharing 2 KV heads). Checked against what
// this test works out itself from the what-if run's own stored attention map
// of layer 1 (each decode row's non-zero columns are exactly the positions
// that query's KV head held, since a softmax gives every held slot a
// positive weight and an evicted position none):
// - H2O: per KV head, attention received summed over its 4 query heads and
//   every query so far, heavy hitters among all but the recent, evicting
//   after every pass — simulated here, pass by pass;
// - SnapKV: the last 32 prefill queries' votes, average-pooled (kernel 5,
//   zero padding counted), the top C − 32 plus the window;
// - StreamingLLM: the 4 sinks and the most recent;
// - every method keeps exactly its budget per head: int(f·T) (H2O: twice
//   int(f/2·T)), worked by hand from the prefill length;
// - KIVI's KV bytes equal its format's size worked here (2- and 4-bit);
// - bad requests fail with their reason and write nothing.
#include "TestSupport.h"
#include "WhatIfSupport.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

using namespace mvp;
using test::args;
using test::metric;
using test::runCli;

namespace {
constexpr int kLayer = 1;

int64_t prefillPositions(const RunData& run) {
    return std::count_if(run.tokens.begin(), run.tokens.end(),
                         [](const TokenRow& t) { return t.phase == Phase::Prefill; });
}

struct Shape {
    int64_t layers = 0, heads = 0, kvHeads = 0, headDim = 0;
};
Shape shapeOf(const RunData& run) {
    const auto l = nlohmann::json::parse(run.run.configJson).at("llm");
    Shape s;
    s.layers = l.at("layers");
    s.heads = l.at("heads");
    s.kvHeads = l.at("kv_heads");
    s.headDim = l.at("dim").get<int64_t>() / s.heads;
    return s;
}

// The stored map of kLayer: per query head [positions × positions].
struct Map {
    std::vector<const AttnMapRow*> heads;
    int64_t n = 0;
    double at(int64_t h, int64_t row, int64_t col) const {
        return heads[size_t(h)]->data[size_t(row * n + col)];
    }
    // The positions query head h's row attends to (non-zero weights).
    std::set<int64_t> held(int64_t h, int64_t row) const {
        std::set<int64_t> out;
        for (int64_t c = 0; c < n; ++c)
            if (at(h, row, c) > 0) out.insert(c);
        return out;
    }
    // Rows at or after `from` that attend at all (the passes that ran).
    std::vector<int64_t> rowsFrom(int64_t from) const {
        std::vector<int64_t> out;
        for (int64_t r = from; r < n; ++r)
            if (!held(0, r).empty()) out.push_back(r);
        return out;
    }
};
Map mapOf(const RunData& run) {
    Map m;
    const auto it = run.attnMaps.find(kLayer);
    if (it == run.attnMaps.end()) return m;
    for (const auto& h : it->second)
        m.heads.push_back(&h);
    m.n = m.heads.empty() ? 0 : m.heads.front()->rows;
    return m;
}

// KV head g's score of every position from the rows [r0, r1): its query
// heads' weights summed.
std::vector<double> groupScores(const Map& m, const Shape& s, int64_t g, int64_t r0, int64_t r1) {
    const int64_t group = s.heads / s.kvHeads;
    std::vector<double> sum(size_t(m.n), 0.0);
    for (int64_t h = g * group; h < (g + 1) * group; ++h)
        for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = 0; c < m.n; ++c)
                sum[size_t(c)] += m.at(h, r, c);
    return sum;
}

// The `count` candidates with the largest scores (ties: the earlier); a
// near-tie (1e-9 relative) may go either way, so those are reported apart.
std::set<int64_t> topOf(const std::vector<std::pair<int64_t, double>>& candidates, size_t count,
                        double* cut) {
    auto order = candidates;
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::set<int64_t> out;
    for (size_t i = 0; i < count && i < order.size(); ++i)
        out.insert(order[i].first);
    *cut = count > 0 && count <= order.size() ? order[count - 1].second : 0;
    return out;
}

// `held` equals `expected` but for swaps between scores equal to 1e-9.
QString sameUpToTies(const std::set<int64_t>& held, const std::set<int64_t>& expected,
                     const std::map<int64_t, double>& score, double cut) {
    if (held.size() != expected.size())
        return QStringLiteral("%1 positions held, %2 expected")
            .arg(held.size())
            .arg(expected.size());
    for (const int64_t p : held)
        if (!expected.count(p) && std::abs(score.at(p) - cut) > 1e-9 * std::abs(cut))
            return QStringLiteral("position %1 held (score %2, cut %3)")
                .arg(p)
                .arg(score.at(p))
                .arg(cut);
    return {};
}
} // namespace

class TestWhatIfKvMethods : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session;
    RunData base;
    Shape shape;
    int64_t prefill = 0;

    RunData whatIf(const QStringList& request, int64_t id) {
        const auto r = runCli(
            QStringList{QStringLiteral("whatif")} + request + args({"--reps", "0"}) << session);
        if (r.exitCode != 0) qWarning("%s", r.err.constData());
        return test::loadRun(session, id);
    }

private slots:
    void initTestCase() {
        session = dir.filePath(QStringLiteral("small.mvprof"));
        const auto r = runCli(args({"capture", "--model", "ref:small", "--steps", "4",
                                    "--attn-layers", "1", "--prompt", "What is on the table?"}) +
                              QStringList{QStringLiteral("--image"), test::sampleImage(),
                                          QStringLiteral("--out"), session});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        base = test::loadRun(session, 1);
        shape = shapeOf(base);
        prefill = prefillPositions(base);
        QVERIFY(prefill > 576);
        QCOMPARE(shape.heads / shape.kvHeads, int64_t(4));
    }

    void h2oEvictsByAttentionReceivedEveryStep() {
        const RunData run = whatIf(args({"--kv-method", "h2o", "--kv-budget", "0.1"}), 2);
        QCOMPARE(run.run.status, RunStatus::Complete);
        const int64_t half = int64_t(0.05 * double(prefill)); // int(ratio · T), each half
        QCOMPARE(metric(run, "kv.budget_positions"), double(2 * half));
        QCOMPARE(metric(run, "kv.positions_per_head"), double(2 * half));
        const Map m = mapOf(run);
        QCOMPARE(m.heads.size(), size_t(shape.heads));
        const auto decodeRows = m.rowsFrom(prefill);
        QVERIFY(decodeRows.size() >= 3);
        for (int64_t g = 0; g < shape.kvHeads; ++g) {
            std::map<int64_t, double> score; // the held positions' sums
            int64_t r0 = 0;
            for (size_t pass = 0; pass <= decodeRows.size(); ++pass) {
                const int64_t r1 = pass == 0 ? prefill : decodeRows[pass - 1] + 1;
                for (int64_t p = r0; p < r1; ++p)
                    score[p] = 0;
                const auto add = groupScores(m, shape, g, r0, r1);
                for (auto& [p, s] : score)
                    s += add[size_t(p)];
                r0 = r1;
                // Evict: the recent `half` stay, the `half` heaviest of the rest.
                std::vector<std::pair<int64_t, double>> older;
                std::set<int64_t> expected;
                size_t i = 0;
                for (const auto& [p, s] : score)
                    if (i++ < score.size() - size_t(half))
                        older.push_back({p, s});
                    else
                        expected.insert(p);
                double cut = 0;
                const auto heavy = topOf(older, size_t(half), &cut);
                expected.insert(heavy.begin(), heavy.end());
                if (pass == decodeRows.size()) break;
                // The next pass's query sees what the cache held, and itself.
                const int64_t row = decodeRows[pass];
                std::set<int64_t> held = m.held(g * 4, row);
                QVERIFY(held.erase(row));
                const QString why = sameUpToTies(held, expected, score, cut);
                QVERIFY2(why.isEmpty(),
                         qPrintable(
                             QStringLiteral("KV head %1, pass %2: %3").arg(g).arg(pass).arg(why)));
                for (int64_t h = g * 4; h < g * 4 + 4; ++h)
                    QCOMPARE(m.held(h, row), m.held(g * 4, row)); // the group shares its KV head
                std::map<int64_t, double> kept;
                for (const int64_t p : held)
                    kept[p] = score.at(p);
                score = kept;
            }
        }
        // The two KV heads keep their own sets.
        QVERIFY(m.held(0, decodeRows.back()) != m.held(4, decodeRows.back()));
    }

    void snapKvKeepsThePooledVotesAndTheWindow() {
        const RunData run = whatIf(args({"--kv-method", "snapkv", "--kv-budget", "0.1"}), 3);
        QCOMPARE(run.run.status, RunStatus::Complete);
        const int64_t capacity = int64_t(0.1 * double(prefill)), window = 32;
        QCOMPARE(metric(run, "kv.budget_positions"), double(capacity));
        const Map m = mapOf(run);
        const auto decodeRows = m.rowsFrom(prefill);
        QVERIFY(!decodeRows.empty());
        QCOMPARE(metric(run, "kv.positions_per_head"),
                 double(capacity + int64_t(decodeRows.size())));
        const int64_t prefix = prefill - window;
        for (int64_t g = 0; g < shape.kvHeads; ++g) {
            const std::vector<double> votes = groupScores(m, shape, g, prefix, prefill);
            std::vector<std::pair<int64_t, double>> pooled;
            std::map<int64_t, double> score;
            for (int64_t p = 0; p < prefix; ++p) {
                double sum = 0; // avg_pool1d(kernel 5, padding 2): five terms, zeros outside
                for (int64_t j = p - 2; j <= p + 2; ++j)
                    if (j >= 0 && j < prefix) sum += votes[size_t(j)];
                pooled.push_back({p, sum / 5});
                score[p] = sum / 5;
            }
            double cut = 0;
            std::set<int64_t> expected = topOf(pooled, size_t(capacity - window), &cut);
            for (int64_t p = prefix; p < prefill; ++p) {
                expected.insert(p);
                score[p] = INFINITY;
            }
            for (const int64_t row : decodeRows) {
                std::set<int64_t> held = m.held(g * 4 + 3, row);
                for (int64_t p = prefill; p <= row; ++p)
                    QVERIFY(held.erase(p)); // decode steps only append
                const QString why = sameUpToTies(held, expected, score, cut);
                QVERIFY2(why.isEmpty(),
                         qPrintable(QStringLiteral("KV head %1: %2").arg(g).arg(why)));
            }
        }
    }

    void streamingLlmKeepsSinksAndTheRecent() {
        const RunData run = whatIf(args({"--kv-method", "streaming", "--kv-budget", "0.1"}), 4);
        QCOMPARE(run.run.status, RunStatus::Complete);
        const int64_t budget = int64_t(0.1 * double(prefill));
        QCOMPARE(metric(run, "kv.positions_per_head"), double(budget));
        const Map m = mapOf(run);
        const auto decodeRows = m.rowsFrom(prefill);
        QVERIFY(decodeRows.size() >= 3);
        for (const int64_t row : decodeRows) {
            std::set<int64_t> expected{0, 1, 2, 3, row};
            for (int64_t p = row - (budget - 4); p < row; ++p)
                expected.insert(p);
            for (int64_t h = 0; h < shape.heads; ++h)
                QCOMPARE(m.held(h, row), expected);
        }
        // The prefill itself attends over everything, causally.
        QCOMPARE(m.held(0, prefill - 1).size(), size_t(prefill));
    }

    void kiviHoldsExactlyItsFormat() {
        // The positions cached at the end, from the baseline's float32 bytes.
        const double perPosition = double(shape.layers * shape.kvHeads * 2 * shape.headDim * 4);
        const double positions = metric(base, "kv.bytes") / perPosition;
        QCOMPARE(positions, std::round(positions));
        const auto n = int64_t(positions);
        QVERIFY(n > prefill);
        int64_t id = 5;
        for (const int bits : {2, 4}) {
            const RunData run =
                whatIf(QStringList{QStringLiteral("--kv-method"), QStringLiteral("kivi"),
                                   QStringLiteral("--kivi-bits"), QString::number(bits)},
                       id++);
            QCOMPARE(run.run.status, RunStatus::Complete);
            // Keys: whole blocks of 32 quantised per channel (a float32 scale
            // and minimum per 32 tokens of each channel), the rest full.
            const int64_t hd = shape.headDim, fullKeys = n % 32, quantKeys = n - fullKeys;
            // Values: the last 32 full, the older per token (a scale and minimum per 32 channels).
            const int64_t fullValues = 32, quantValues = n - 32;
            const int64_t perHead = quantKeys * hd * bits / 8 + hd * (quantKeys / 32) * 2 * 4 +
                                    quantValues * hd * bits / 8 + quantValues * (hd / 32) * 2 * 4 +
                                    (fullKeys + fullValues) * hd * 4;
            QCOMPARE(metric(run, "kv.bytes"), double(perHead * shape.layers * shape.kvHeads));
            QCOMPARE(metric(run, "kv.kivi.quantised_keys"), double(quantKeys));
            QCOMPARE(metric(run, "kv.kivi.quantised_values"), double(quantValues));
        }
    }

    void sweepTabulatesEachBudget() {
        const auto r = runCli(args({"whatif", "--sweep", "h2o,snapkv", "--budgets", "0.2,0.05",
                                    "--reps", "0", "--format", "json"})
                              << session);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.constData());
        const auto& points = j.at("points");
        QCOMPARE(points.size(), size_t(4));
        const int64_t h2oAt[] = {2 * int64_t(0.1 * double(prefill)),
                                 2 * int64_t(0.025 * double(prefill))};
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(points[size_t(i)].at("method").get<std::string>(), std::string("h2o"));
            QCOMPARE(points[size_t(i)].at("kv_positions_per_head_measured").get<double>(),
                     double(h2oAt[i]));
        }
        QCOMPARE(points[2].at("kv_positions_per_head_measured").get<double>(),
                 double(int64_t(0.2 * double(prefill)) + 4)); // + the 4 decode steps, appended
        // 0.05 of the prefill is below SnapKV's window: a row saying so, not a run.
        QVERIFY(points[3].at("error").get<std::string>().find("--kv-budget") != std::string::npos);
        const auto mixed =
            runCli(args({"whatif", "--sweep", "fastv,h2o", "--reps", "0"}) << session);
        QCOMPARE(mixed.exitCode, 2);
        QVERIFY(mixed.err.contains("separately"));
    }

    void badRequestsSayWhy() {
        QString p = test::refusalProblem(session, args({"--kv-method", "h2o", "--kv", "int4"}),
                                         QStringLiteral("cannot be combined with --kv"));
        QVERIFY2(p.isEmpty(), qPrintable(p));
        p = test::refusalProblem(session, args({"--kv-method", "snapkv", "--fastv", "0.5"}),
                                 QStringLiteral("cannot be combined with --fastv"));
        QVERIFY2(p.isEmpty(), qPrintable(p));
        // 0.05 of the prefill is fewer positions than SnapKV's window of 32 plus one.
        p = test::refusalProblem(session, args({"--kv-method", "snapkv", "--kv-budget", "0.05"}),
                                 QStringLiteral("a larger --kv-budget"));
        QVERIFY2(p.isEmpty(), qPrintable(p));
        p = test::refusalProblem(session, args({"--kv-method", "h2o", "--kv-budget", "1.5"}),
                                 QStringLiteral("--kv-budget"));
        QVERIFY2(p.isEmpty(), qPrintable(p));
    }
};

QTEST_GUILESS_MAIN(TestWhatIfKvMethods)
#include "test_whatif_kv_methods.moc"
