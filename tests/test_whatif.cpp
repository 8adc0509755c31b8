// What-ifs: visual-token pruning really shrinks the decoder's input, keeps the
// most salient patches in spatial order, and keep = 1.0 reproduces the
// baseline bit for bit; bad requests write nothing.
#include "TestSupport.h"
#include "core/analysis/Analysis.h"
#include "core/analysis/PatchMetrics.h"
#include "core/session/SessionReader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace mvp;
using test::runCli;

class TestWhatIf : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    const QString prompt = QStringLiteral("Where is the helmet?");

    QString baseline(const QString& name, QStringList extra = {}) {
        const QString out = dir.filePath(name);
        const auto r = runCli(QStringList{QStringLiteral("capture"), QStringLiteral("--image"),
                                          test::sampleImage(), QStringLiteral("--out"), out,
                                          QStringLiteral("--steps"), QStringLiteral("4"),
                                          QStringLiteral("--prompt"), prompt} +
                              extra);
        return r.exitCode == 0 ? out : QString();
    }
    static int runCount(const QString& path) {
        auto r = SessionReader::open(path.toStdString());
        return r ? int((*r)->runs()->size()) : -1;
    }

private slots:
    void pruningKeepsTheMostSalientPatchesInOrder() {
        const QString path = baseline(QStringLiteral("prune.mvprof"));
        QVERIFY(!path.isEmpty());
        const auto r =
            runCli({QStringLiteral("whatif"), path, QStringLiteral("--prune-visual"),
                    QStringLiteral("0.4"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--reps"), QStringLiteral("0")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject c = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(c[QStringLiteral("visual_tokens")].toObject()[QStringLiteral("whatif")].toInt(),
                 102); // round(0.4 · 256)

        auto reader = SessionReader::open(path.toStdString());
        QVERIFY(reader.ok());
        auto runs = (*reader)->runs();
        QCOMPARE(runs->size(), size_t(2));
        QCOMPARE(runs->at(1).baselineRun, std::optional<int64_t>(1));
        QVERIFY(runs->at(1).transform.find("prune-visual") != std::string::npos);
        auto base = loadRunData(**reader, 1);
        auto run = loadRunData(**reader, 2);
        QVERIFY(base.ok() && run.ok());
        // The decoder's sequence really shrank: BOS + 102 patches + prompt + decode steps.
        QCOMPARE(int(run->tokens.size()), 1 + 102 + int(prompt.size()) + 4);
        std::vector<int> kept;
        for (const auto& t : run->tokens)
            if (t.modality == Modality::Visual) kept.push_back(t.patch);
        QVERIFY(std::is_sorted(kept.begin(), kept.end())); // spatial order
        QCOMPARE(std::adjacent_find(kept.begin(), kept.end()), kept.end());
        // Exactly the top 102 by the baseline's attention.
        const auto saliency = computePatchMetrics(*base).at("attention").values;
        std::vector<int> order(saliency.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return saliency[size_t(a)] > saliency[size_t(b)]; });
        std::vector<int> top(order.begin(), order.begin() + 102);
        std::sort(top.begin(), top.end());
        QCOMPARE(kept, top);
        // Routing rows follow the shorter sequence.
        const int moeLayers = 2, k = 2;
        QCOMPARE(int(run->routing.size()), (1 + 102 + int(prompt.size()) + 4) * moeLayers * k);
        QVERIFY(run->visionFeatures && run->visionFeatures->rows == 102);
    }

    void keepingEverythingReproducesTheBaselineBitForBit() {
        const QString path = baseline(QStringLiteral("same.mvprof"));
        QVERIFY(!path.isEmpty());
        const auto r = runCli({QStringLiteral("whatif"), path, QStringLiteral("--prune-visual"),
                               QStringLiteral("1.0"), QStringLiteral("--reps"), QStringLiteral("0")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto reader = SessionReader::open(path.toStdString());
        auto base = loadRunData(**reader, 1);
        auto run = loadRunData(**reader, 2);
        QVERIFY(base.ok() && run.ok());
        QCOMPARE(run->stepOutputs.size(), base->stepOutputs.size());
        for (size_t s = 0; s < base->stepOutputs.size(); ++s) {
            const auto& a = base->stepOutputs[s].logits;
            const auto& b = run->stepOutputs[s].logits;
            QCOMPARE(a.size(), b.size());
            QVERIFY2(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0,
                     "logits differ");
        }
        QCOMPARE(run->routing.size(), base->routing.size());
        for (size_t i = 0; i < base->routing.size(); ++i) {
            QCOMPARE(run->routing[i].expert, base->routing[i].expert);
            QCOMPARE(run->routing[i].weight, base->routing[i].weight);
        }
        QVERIFY(r.out.contains("KL mean 0,"));
    }

    void whatIfRunsWithTheBaselinesCaptureSettings() {
        // Threads, warm-up and nested ops change timings: the what-if takes the baseline's.
        const QString path =
            baseline(QStringLiteral("settings.mvprof"),
                     {QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--warmup"),
                      QStringLiteral("2"), QStringLiteral("--nested-ops")});
        QVERIFY(!path.isEmpty());
        const auto r = runCli({QStringLiteral("whatif"), path, QStringLiteral("--prune-visual"),
                               QStringLiteral("0.5"), QStringLiteral("--reps"), QStringLiteral("0")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto reader = SessionReader::open(path.toStdString());
        QVERIFY(reader.ok());
        const auto runs = (*reader)->runs();
        QVERIFY(runs.ok() && runs->size() == 2);
        for (const RunInfo& run : *runs) {
            QCOMPARE(run.threads, 1);
            const auto cfg = QJsonDocument::fromJson(QByteArray::fromStdString(run.configJson))
                                 .object()[QStringLiteral("capture")]
                                 .toObject();
            QCOMPARE(cfg[QStringLiteral("warmup")].toInt(), 2);
            QVERIFY(cfg[QStringLiteral("nested_ops")].toBool());
            auto data = loadRunData(**reader, run.id);
            QVERIFY(data.ok());
            // Nested ops were recorded: more op rows than top-level ones.
            int64_t topLevel = 0;
            for (const auto& t : data->opTotals)
                topLevel += t.calls;
            QVERIFY2(data->opCount > topLevel, qPrintable(QString::number(data->opCount)));
        }
    }

    void saliencySourcesRankThePatches() {
        const QString path = baseline(QStringLiteral("sources.mvprof"),
                                      {QStringLiteral("--attn-layers"), QStringLiteral("all")});
        QVERIFY(!path.isEmpty());
        for (const char* source : {"saliency", "feature-norm"})
            QCOMPARE(runCli({QStringLiteral("whatif"), path, QStringLiteral("--prune-visual"),
                             QStringLiteral("0.25"), QStringLiteral("--saliency"),
                             QString::fromLatin1(source), QStringLiteral("--reps"), QStringLiteral("0")})
                         .exitCode,
                     0);
        auto reader = SessionReader::open(path.toStdString());
        auto base = loadRunData(**reader, 1);
        QVERIFY(base.ok());
        // The test's own ranking: the saliency map, and the visual features' norms.
        const auto saliency = computePatchMetrics(*base).at("saliency").values;
        std::vector<double> norms(256, 0.0);
        const auto& f = *base->visionFeatures;
        for (int r = 0; r < f.rows; ++r) {
            double s = 0;
            for (int c = 0; c < f.cols; ++c)
                s += double(f.data[size_t(r) * f.cols + size_t(c)]) *
                     f.data[size_t(r) * f.cols + size_t(c)];
            norms[size_t(r)] = std::sqrt(s); // an unpruned baseline: row r is patch r
        }
        auto top = [](const std::vector<double>& v, int k) {
            std::vector<int> order(v.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(),
                             [&](int a, int b) { return v[size_t(a)] > v[size_t(b)]; });
            std::vector<int> t(order.begin(), order.begin() + k);
            std::sort(t.begin(), t.end());
            return t;
        };
        for (const auto& [run, expected] :
             {std::pair{2, top(saliency, 64)}, std::pair{3, top(norms, 64)}}) {
            auto data = loadRunData(**reader, run);
            QVERIFY(data.ok());
            std::vector<int> kept;
            for (const auto& t : data->tokens)
                if (t.modality == Modality::Visual) kept.push_back(t.patch);
            QCOMPARE(kept, expected);
        }
        QVERIFY(top(saliency, 64) != top(norms, 64)); // the sources really differ
        // Saliency needs attention maps: a plain baseline says how to get them.
        const QString plain = baseline(QStringLiteral("plain.mvprof"));
        const auto r = runCli({QStringLiteral("whatif"), plain, QStringLiteral("--prune-visual"),
                               QStringLiteral("0.5"), QStringLiteral("--saliency"),
                               QStringLiteral("saliency"), QStringLiteral("--reps"), QStringLiteral("0")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--attn-layers"));
        QCOMPARE(runCount(plain), 1);
    }

    void badRequestsWriteNothing() {
        const QString path = baseline(QStringLiteral("bad.mvprof"));
        QVERIFY(!path.isEmpty());
        for (const char* keep : {"0", "1.5", "-0.2", "abc"}) {
            const auto r = runCli({QStringLiteral("whatif"), path, QStringLiteral("--prune-visual"),
                                   QString::fromLatin1(keep), QStringLiteral("--reps"), QStringLiteral("0")});
            QCOMPARE(r.exitCode, 2);
            QVERIFY(r.err.contains("(0, 1]"));
        }
        QCOMPARE(runCli({QStringLiteral("whatif"), path}).exitCode, 2); // no transform named
        QCOMPARE(runCount(path), 1);
        // A session whose only run has no probes (no attention to rank by).
        const QString bare =
            baseline(QStringLiteral("bare.mvprof"), {QStringLiteral("--no-probes")});
        const auto r = runCli({QStringLiteral("whatif"), bare, QStringLiteral("--prune-visual"),
                               QStringLiteral("0.5"), QStringLiteral("--reps"), QStringLiteral("0")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--no-probes"));
        QCOMPARE(runCount(bare), 1);
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "test_whatif.moc"
