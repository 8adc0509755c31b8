// `mvprof-cli train` and `mvprof-cli eval` end to end: a short training run
// lowers its loss and is reproducible; its checkpoint runs under capture and
// eval; eval's outputs are the ones a capture of the same item generates,
// and its accuracy and Wilson interval are recomputed here from the outputs
// with the task's rule restated (lower case, trimmed, first word) and
// Wilson's formula written out. Bad eval sets are exit 2 naming FILE:LINE.
#include "TestSupport.h"
#include "core/session/SessionReader.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cctype>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

using namespace mvp;

namespace {

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

// A safetensors file's tensor data: what follows the 8-byte header length
// (little-endian) and the JSON header.
QByteArray tensorBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray all = f.readAll();
    if (all.size() < 8) return {};
    quint64 header = 0;
    for (int i = 7; i >= 0; --i)
        header = header << 8 | quint8(all[i]);
    return header + 8 <= quint64(all.size()) ? all.mid(int(8 + header)) : QByteArray();
}

std::vector<double> lossesOf(const QByteArray& out) {
    std::vector<double> losses;
    static const QRegularExpression line(QStringLiteral("loss ([0-9.]+)"));
    for (const auto& l : out.split('\n')) {
        const auto m = line.match(QString::fromUtf8(l));
        if (m.hasMatch() && l.startsWith("step")) losses.push_back(m.captured(1).toDouble());
    }
    return losses;
}

// What the committed checkpoint clears, with room for another CPU's rounding
// (docs/training.md; measured here: Wilson lower bounds colour, shape and
// left/right 0.929, counting 0.838 on fresh scenes; counting 0.812 and the
// others 0.929 on held-out backgrounds). Where it looks is checked by
// test_eval_whatif, from the eval's per-item heatmaps.
const std::map<std::string, double> kKindFloors = {
    {"colour", 0.85}, {"shape", 0.85}, {"count", 0.75}, {"left-right", 0.75}};

} // namespace

class TestTrainEval : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString weights, set;

    QString path(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }
    QString firstImage() const {
        const QStringList names =
            QDir(path("set") + QStringLiteral("/images")).entryList(QDir::Files);
        return names.isEmpty() ? QString() : names.front();
    }

    test::CliResult train(const QString& out) {
        return test::runCli(
            {QStringLiteral("train"), QStringLiteral("--out"), out, QStringLiteral("--steps"),
             QStringLiteral("30"), QStringLiteral("--batch"), QStringLiteral("4"),
             QStringLiteral("--warmup"), QStringLiteral("5"), QStringLiteral("--workers"),
             QStringLiteral("2"), QStringLiteral("--report"), QStringLiteral("10")});
    }

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        weights = path("smoke.safetensors");
        const auto r = test::runCli({QStringLiteral("make-set"), QStringLiteral("--n"),
                                     QStringLiteral("12"), QStringLiteral("--out"), path("set")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        set = path("set") + QStringLiteral("/set.jsonl");
    }

    void aShortTrainingLowersTheLossReproducibly() {
        const auto a = train(weights);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        const auto losses = lossesOf(a.out);
        QCOMPARE(losses.size(), size_t(3));
        QVERIFY2(losses.back() < losses.front(), a.out.constData());
        const auto b = train(path("again.safetensors"));
        QVERIFY2(b.exitCode == 0, b.err.constData());
        // The same tensors, byte for byte; the headers differ in the time
        // each run took, which they record.
        const QByteArray first = tensorBytes(weights),
                         again = tensorBytes(path("again.safetensors"));
        QVERIFY(!first.isEmpty());
        QVERIFY(first == again);
    }

    // --look-weight: continued from the smoke checkpoint, the same scenes
    // and steps with and without the grounding loss; with it, the share of
    // the answering queries' visual attention on the asked object ends
    // higher. The file records what it continued from.
    void theGroundingLossPullsTheAnswerToTheObject() {
        auto shareAtEnd = [&](const char* weight, const QString& out) {
            const auto r = test::runCli(
                {QStringLiteral("train"), QStringLiteral("--weights"), weights,
                 QStringLiteral("--out"), out, QStringLiteral("--steps"), QStringLiteral("20"),
                 QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--warmup"),
                 QStringLiteral("2"), QStringLiteral("--aux-weight"), QStringLiteral("0"),
                 QStringLiteral("--look-weight"), QString::fromLatin1(weight),
                 QStringLiteral("--report"), QStringLiteral("10")});
            static const QRegularExpression share(
                QStringLiteral("looks at the object ([0-9.]+)"));
            double last = -1;
            for (const auto& l : r.out.split('\n'))
                if (const auto m = share.match(QString::fromUtf8(l)); m.hasMatch())
                    last = m.captured(1).toDouble();
            return std::pair{r.exitCode, last};
        };
        const auto [plainExit, plain] = shareAtEnd("0", path("plain.safetensors"));
        const auto [groundedExit, grounded] = shareAtEnd("1", path("grounded.safetensors"));
        QCOMPARE(plainExit, 0);
        QCOMPARE(groundedExit, 0);
        QVERIFY2(plain > 0 && grounded > plain + 0.05,
                 qPrintable(QStringLiteral("share %1 without, %2 with").arg(plain).arg(grounded)));
        QFile f(path("grounded.safetensors"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(4096);
        QVERIFY(head.contains("\"look_weight\":\"1.000000\""));
        const QByteArray recorded =
            QByteArray("\"continued_from_sha256\":\"") + sha256(weights) + QByteArray("\"");
        QVERIFY2(head.contains(recorded), head.constData());
    }

    // The encoder stage (--vision-steps) trains the probe alone: its loss
    // falls over 40 steps, its lines say so, then the answers' stage runs.
    void theEncoderStageLearnsThePatchLabels() {
        const auto r = test::runCli(
            {QStringLiteral("train"), QStringLiteral("--out"), path("encoder.safetensors"),
             QStringLiteral("--vision-steps"), QStringLiteral("40"), QStringLiteral("--steps"),
             QStringLiteral("2"), QStringLiteral("--batch"), QStringLiteral("4"),
             QStringLiteral("--warmup"), QStringLiteral("5"), QStringLiteral("--report"),
             QStringLiteral("10")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        std::vector<double> encoder;
        static const QRegularExpression line(QStringLiteral("encoder  loss ([0-9.]+)"));
        for (const auto& l : r.out.split('\n'))
            if (const auto m = line.match(QString::fromUtf8(l)); m.hasMatch())
                encoder.push_back(m.captured(1).toDouble());
        QCOMPARE(encoder.size(), size_t(4));
        QVERIFY2(encoder.back() < encoder.front(), r.out.constData());
        QVERIFY2(r.out.contains("step    42/42  loss"), r.out.constData());
    }

    void evalRunsWhatACaptureRuns() {
        const auto r = test::runCli({QStringLiteral("eval"), QStringLiteral("--model"),
                                     QStringLiteral("ref:demo"), QStringLiteral("--weights"),
                                     weights, QStringLiteral("--set"), set,
                                     QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["items"].get<int>(), 12);
        QVERIFY(j["complete"].get<bool>());

        // Accuracy recomputed from the outputs and the set's answers.
        QFile f(set);
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::vector<nlohmann::json> items;
        for (const auto& line : f.readAll().split('\n'))
            if (!line.isEmpty()) items.push_back(nlohmann::json::parse(line.toStdString()));
        QCOMPARE(items.size(), size_t(12));
        int right = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto& out = j["outputs"][i];
            QCOMPARE(out["id"].get<std::string>(), items[i]["id"].get<std::string>());
            const bool match =
                test::firstWord(out["output"]) == items[i]["answer"].get<std::string>();
            QCOMPARE(out["correct"].get<bool>(), match);
            right += match;
        }
        const double n = 12, p = right / n, z = 1.959963984540054;
        const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
        const double half = z / (1 + z * z / n) * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
        const auto& acc = j["accuracy"];
        QCOMPARE(acc["items"].get<int>(), 12);
        QVERIFY(std::abs(acc["value"].get<double>() - p) < 1e-12);
        QVERIFY(std::abs(acc["ci95"][0].get<double>() - std::max(0.0, centre - half)) < 1e-9);
        QVERIFY(std::abs(acc["ci95"][1].get<double>() - std::min(1.0, centre + half)) < 1e-9);
        QCOMPARE(j["accuracy_by_kind"].size(), size_t(4));

        // The first and the last item, captured alone: the same output (the
        // eval swaps inputs under one loaded model; nothing of one item leaks
        // into the next).
        for (size_t i : {size_t(0), items.size() - 1}) {
            const QString session = path("item.mvprof");
            const auto c = test::runCli(
                {QStringLiteral("capture"), QStringLiteral("--model"), QStringLiteral("ref:demo"),
                 QStringLiteral("--weights"), weights, QStringLiteral("--image"),
                 path("set") + QLatin1Char('/') + QString::fromStdString(items[i]["image"]),
                 QStringLiteral("--prompt"), QString::fromStdString(items[i]["prompt"]),
                 QStringLiteral("--steps"), QStringLiteral("8"), QStringLiteral("--out"), session,
                 QStringLiteral("--force")});
            QVERIFY2(c.exitCode == 0, c.err.constData());
            const auto rep = test::runCli({QStringLiteral("report"), session,
                                           QStringLiteral("--format"), QStringLiteral("json")});
            QVERIFY2(rep.exitCode == 0, rep.err.constData());
            const auto rj = nlohmann::json::parse(rep.out.toStdString());
            QCOMPARE(rj["runs"][0]["output"].get<std::string>(),
                     j["outputs"][i]["output"].get<std::string>());
        }
    }

    // The committed checkpoint over 200 fresh scenes (seeds never trained on)
    // and 200 over held-out backgrounds: per kind, the Wilson lower bound
    // clears the floor above (chance: colour and count 1/4, shape 1/3), and
    // its record names the file (SHA-256) and this accuracy. The targets (colour, shape >=
    // 95 %, left/right >= 90 %, counting >= 80 %, held-out >= 85 %) are docs/training.md's to
    // report.
    void theCommittedCheckpointAnswers() {
        const QString models = test::sourceDir() + QStringLiteral("/resources/models/");
        QFile record(models + QStringLiteral("ref-demo.json"));
        QVERIFY(record.open(QIODevice::ReadOnly));
        const auto rec = nlohmann::json::parse(record.readAll().toStdString());
        QCOMPARE(QByteArray::fromStdString(rec["sha256"].get<std::string>()),
                 sha256(models + QStringLiteral("ref-demo.safetensors")));
        const std::map<std::string, double> floor = kKindFloors;
        for (const char* backgrounds : {"train", "held-out"}) {
            const QString set = path(backgrounds);
            auto r = test::runCli({QStringLiteral("make-set"), QStringLiteral("--n"),
                                   QStringLiteral("200"), QStringLiteral("--backgrounds"),
                                   QString::fromLatin1(backgrounds), QStringLiteral("--out"), set});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            r = test::runCli({QStringLiteral("eval"), QStringLiteral("--model"),
                              QStringLiteral("ref:demo"), QStringLiteral("--set"),
                              set + QStringLiteral("/set.jsonl"), QStringLiteral("--threads"),
                              QStringLiteral("1"), QStringLiteral("--format"),
                              QStringLiteral("json")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const auto j = nlohmann::json::parse(r.out.toStdString());
            for (const auto& [kind, low] : floor)
                QVERIFY2(j["accuracy_by_kind"][kind]["ci95"][0].get<double>() > low,
                         qPrintable(QString::fromStdString(kind + " " + backgrounds + ": " +
                                                           j["accuracy_by_kind"][kind].dump())));
            // The record's accuracy is this set's: same scenes, model, rule
            // and thread count; another CPU's kernels may round a borderline
            // item the other way, so a couple of items' slack.
            const char* which =
                std::string(backgrounds) == "train" ? "fresh_scenes" : "held_out_backgrounds";
            const int recorded = rec["accuracy_measured"][which]["accuracy"]["all"]["right"];
            QVERIFY2(std::abs(recorded - j["accuracy"]["right"].get<int>()) <= 2,
                     qPrintable(QStringLiteral("%1: recorded %2, measured %3")
                                    .arg(QString::fromLatin1(which))
                                    .arg(recorded)
                                    .arg(j["accuracy"]["right"].get<int>())));
        }
    }

    // answer_attention recomputed from the stored full attention maps
    // (--attn-layers all): per layer and patch, the mean over heads of the
    // attention from the prompt's last position and from each decode step's
    // query up to the one that generated EOS, summed.
    void answerAttentionIsTheAnswersQueries() {
        const QString session = path("answer.mvprof");
        const auto c = test::runCli(
            {QStringLiteral("capture"), QStringLiteral("--model"), QStringLiteral("ref:demo"),
             QStringLiteral("--image"), path("set") + QStringLiteral("/images/") + firstImage(),
             QStringLiteral("--prompt"), QStringLiteral("How many shapes are there?"),
             QStringLiteral("--steps"), QStringLiteral("6"), QStringLiteral("--attn-layers"),
             QStringLiteral("all"), QStringLiteral("--out"), session});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        const int64_t run = (*reader)->runs()->front().id;
        const auto tokens = *(*reader)->tokens(run);
        const auto steps = *(*reader)->stepOutputs(run);
        // The queries: prefill's last position, then decode step s's query
        // (which generates step s's token) while no earlier token was EOS.
        std::map<int, int> patchAt; // position → patch
        int prefillLast = -1;
        std::map<int, int> decodeQuery; // step → position
        for (const auto& t : tokens) {
            if (t.modality == Modality::Visual) patchAt[t.position] = t.patch;
            if (t.phase == Phase::Prefill) prefillLast = std::max(prefillLast, t.position);
            if (t.phase == Phase::Decode) decodeQuery[t.step] = t.position;
        }
        std::vector<int> queries{prefillLast};
        bool endedEarly = false;
        for (const auto& s : steps) {
            if (s.step > 0 && decodeQuery.count(s.step)) queries.push_back(decodeQuery[s.step]);
            if (s.token == 257) { // EOS: later steps are not the answer
                endedEarly = s.step < steps.back().step;
                break;
            }
        }
        // The trained model answers in a word and EOS: the later steps are left out.
        QVERIFY(endedEarly);
        const auto stored = *(*reader)->patchMetrics(run, "answer_attention");
        const auto all = *(*reader)->patchMetrics(run, "attention");
        QVERIFY(!stored.empty());
        std::map<std::pair<int, int>, double> expected, received;
        const auto layers = (*reader)->attnMapLayers(run);
        QVERIFY(layers.ok() && !layers->empty());
        for (int layer : *layers) {
            const auto heads = *(*reader)->attnMaps(run, layer);
            for (const auto& h : heads)
                for (int q : queries)
                    for (const auto& [pos, patch] : patchAt)
                        expected[{layer, patch}] +=
                            h.data[size_t(q) * size_t(h.cols) + size_t(pos)] / double(heads.size());
        }
        for (const auto& r : all)
            received[{r.layer, r.patch}] = r.value;
        QCOMPARE(stored.size(), expected.size());
        for (const auto& r : stored) {
            const double want = expected.at({r.layer, r.patch});
            QVERIFY2(std::abs(r.value - want) <= 1e-5 + 1e-4 * want,
                     qPrintable(QStringLiteral("layer %1 patch %2: %3 vs %4")
                                    .arg(r.layer)
                                    .arg(r.patch)
                                    .arg(r.value)
                                    .arg(want)));
            // A subset of the text queries' attention.
            QVERIFY(r.value <= received.at({r.layer, r.patch}) + 1e-9);
        }
        // Offered like every heatmap metric: export --metric answer_attention --csv.
        const QString csv = path("answer.csv");
        const auto e =
            test::runCli({QStringLiteral("export"), session, QStringLiteral("--heatmap"),
                          path("answer.png"), QStringLiteral("--metric"),
                          QStringLiteral("answer_attention"), QStringLiteral("--csv"), csv});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QVERIFY(QFile::exists(csv));
    }

    // More workers than scenes per step: nothing to share, refused before
    // anything is built or written.
    void moreWorkersThanScenesIsRefused() {
        const QString out = path("workers.safetensors");
        const auto r =
            test::runCli({QStringLiteral("train"), QStringLiteral("--out"), out,
                          QStringLiteral("--steps"), QStringLiteral("1"), QStringLiteral("--batch"),
                          QStringLiteral("2"), QStringLiteral("--workers"), QStringLiteral("3")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--workers must lie in [1, --batch]"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void badSetsAreRefusedNamingTheLine_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("missing image")
            << QByteArray("{\"image\": \"nowhere.png\", \"prompt\": \"What?\"}\n")
            << QStringLiteral("bad.jsonl:1: image");
        QTest::newRow("malformed line")
            << QByteArray("\n{\"image\": \"nowhere.png\", \"prompt\": \n")
            << QStringLiteral("bad.jsonl:2: not a JSON object");
        QTest::newRow("empty file") << QByteArray("") << QStringLiteral("has no items");
    }
    void badSetsAreRefusedNamingTheLine() {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        const QString bad = path("bad.jsonl");
        QVERIFY(test::writeFile(bad, text));
        const auto r = test::runCli({QStringLiteral("eval"), QStringLiteral("--model"),
                                     QStringLiteral("ref:demo"), QStringLiteral("--weights"),
                                     weights, QStringLiteral("--set"), bad});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTrainEval)
#include "test_train_eval.moc"
