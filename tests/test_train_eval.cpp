// `mvprof-cli train` and `mvprof-cli eval` end to end: a short training run
// lowers its loss and is reproducible; its checkpoint runs under capture and
// eval; eval's outputs are the ones a capture of the same item generates,
// and its accuracy and Wilson interval are recomputed here from the outputs
// with the task's rule restated (lower case, trimmed, first word) and
// Wilson's formula written out. Bad eval sets are exit 2 naming FILE:LINE.
#include "TestSupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace mvp;

namespace {

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
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

// The task's scoring rule, restated: the first word of the output, lower
// case, without surrounding punctuation, equals the answer.
std::string firstWord(const std::string& output) {
    std::string w;
    for (char c : output) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!w.empty()) break;
            continue;
        }
        w += char(std::tolower(static_cast<unsigned char>(c)));
    }
    while (!w.empty() && std::ispunct(static_cast<unsigned char>(w.back())))
        w.pop_back();
    return w;
}

} // namespace

class TestTrainEval : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString weights, set;

    QString path(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }

    test::CliResult train(const QString& out) {
        return test::runCli({QStringLiteral("train"), QStringLiteral("--out"), out,
                             QStringLiteral("--steps"), QStringLiteral("30"),
                             QStringLiteral("--batch"), QStringLiteral("4"),
                             QStringLiteral("--warmup"), QStringLiteral("5"),
                             QStringLiteral("--report"), QStringLiteral("10")});
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
        QCOMPARE(sha256(path("again.safetensors")), sha256(weights));
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
            const bool match = firstWord(out["output"]) == items[i]["answer"].get<std::string>();
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
