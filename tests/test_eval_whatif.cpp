// `mvprof-cli whatif SESSION --eval SET.jsonl` end to end on the trained
// ref:demo over 200 fresh scenes: per-item rows stored for both runs; the
// accuracy and its Wilson interval recomputed here from the stored rows with
// the task's rule and Wilson's formula written out; each item's heatmap
// (zero where pruning hid a patch, and what a capture of the item shows, or
// absent with --no-item-heatmaps) and where the baseline's peaks on colour
// questions; pruning to 5 % of the
// visual tokens loses accuracy with a paired interval excluding 0; a killed
// run leaves the items done and the runs incomplete; a bad set writes
// nothing. One baseline capture and one set serve every test.
#include "TestSupport.h"
#include "core/session/SessionReader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace mvp;

namespace {

// Wilson's 95 % score interval, written out.
std::pair<double, double> wilson(int right, int n) {
    const double p = double(right) / n, z = 1.959963984540054;
    const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    const double half = z / (1 + z * z / n) * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::vector<nlohmann::json> setLines(const QString& path) {
    QFile f(path);
    std::vector<nlohmann::json> items;
    if (!f.open(QIODevice::ReadOnly)) return items;
    for (const auto& line : f.readAll().split('\n'))
        if (!line.isEmpty()) items.push_back(nlohmann::json::parse(line.toStdString()));
    return items;
}

// Of the set's first 40 colour questions, on how many the committed ref:demo's
// answer_attention must peak inside the asked shape (docs/training.md).
constexpr int kPeakFloor = 32; // issue #38: 80 % of 40 (measured: 37)

} // namespace

class TestEvalWhatIf : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString set, session;

    QString path(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }

    int runCount(const QString& file) {
        auto reader = SessionReader::open(file.toStdString());
        if (!reader) return -1;
        auto runs = (*reader)->runs();
        return runs ? int(runs->size()) : -1;
    }

    // A copy of the baseline session, so that each test starts from one run.
    QString freshSession(const char* name) {
        const QString copy = path(name);
        QFile::remove(copy);
        return QFile::copy(session, copy) ? copy : QString();
    }

    test::CliResult evalWhatIf(const QString& file, const QString& keep, bool heatmaps) {
        QStringList args{QStringLiteral("whatif"),         file,
                         QStringLiteral("--eval"),         set,
                         QStringLiteral("--prune-visual"), keep,
                         QStringLiteral("--format"),       QStringLiteral("json")};
        if (!heatmaps) args << QStringLiteral("--no-item-heatmaps");
        return test::runCli(args, 300000);
    }

    // An item's heatmap: the model's 8 × 8 grid over the item's image, some
    // attention somewhere, none at a patch whose token the decoder never saw.
    static void checkHeatmap(const EvalItemRow& r, const std::string& image) {
        QVERIFY(r.heatmap);
        const EvalItemHeatmap& h = *r.heatmap;
        QVERIFY(QString::fromStdString(h.image).endsWith(QString::fromStdString(image)));
        QCOMPARE(h.gridH, 8);
        QCOMPARE(h.gridW, 8);
        QCOMPARE(h.answerAttention.size(), size_t(64));
        double sum = 0;
        std::vector<bool> seen(64, r.keptPatches.empty());
        for (int p : r.keptPatches)
            seen[size_t(p)] = true;
        for (size_t p = 0; p < 64; ++p) {
            QVERIFY(h.answerAttention[p] >= 0);
            if (!seen[p]) QCOMPARE(h.answerAttention[p], 0.f);
            sum += h.answerAttention[p];
        }
        QVERIFY(sum > 0);
    }

    // The stored rows of the session's eval runs, checked against the set and
    // against each other; returns the JSON the CLI printed.
    void checkStoredRows(const QString& file, const nlohmann::json& printed, int keptTokens,
                         bool heatmaps) {
        auto reader = SessionReader::open(file.toStdString());
        QVERIFY(reader);
        auto runs = (*reader)->runs();
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(3)); // capture, eval baseline, eval what-if
        const RunInfo& base = (*runs)[1];
        const RunInfo& what = (*runs)[2];
        QCOMPARE(base.status, RunStatus::Complete);
        QCOMPARE(what.status, RunStatus::Complete);
        QCOMPARE(what.baselineRun.value_or(-1), base.id);
        QCOMPARE(base.baselineRun.value_or(-1), (*runs)[0].id);
        const auto items = setLines(set);
        QCOMPARE(items.size(), size_t(200));
        for (const RunInfo* run : {&base, &what}) {
            auto setRow = (*reader)->evalSet(run->id);
            QVERIFY(setRow && *setRow);
            QCOMPARE((*setRow)->items, 200);
            auto rows = (*reader)->evalItems(run->id);
            QVERIFY2(rows, rows ? "" : rows.error().message.c_str());
            QCOMPARE(rows->size(), size_t(200));
            int right = 0;
            for (size_t i = 0; i < rows->size(); ++i) {
                const EvalItemRow& r = (*rows)[i];
                QCOMPARE(r.item, int(i));
                QCOMPARE(r.id, items[i]["id"].get<std::string>());
                QCOMPARE(r.prompt, items[i]["prompt"].get<std::string>());
                const bool match =
                    test::firstWord(r.output) == items[i]["answer"].get<std::string>();
                QVERIFY(r.correct.has_value());
                QCOMPARE(*r.correct, match);
                right += match;
                QVERIFY(r.times.size() >= 5); // preprocess … decode, each measured
                for (const auto& t : r.times)
                    QVERIFY(t.ns > 0);
                if (heatmaps)
                    checkHeatmap(r, items[i]["image"].get<std::string>());
                else
                    QVERIFY(!r.heatmap); // --no-item-heatmaps
                if (run == &base) {
                    QCOMPARE(r.visualTokens, 64);
                    QVERIFY(r.keptPatches.empty());
                    QVERIFY(!r.klMean.has_value());
                } else {
                    QCOMPARE(r.visualTokens, keptTokens);
                    QCOMPARE(int(r.keptPatches.size()), keptTokens);
                    QVERIFY(std::is_sorted(r.keptPatches.begin(), r.keptPatches.end()));
                    QVERIFY(r.klMean && r.top1Agreement && r.tokenMatch);
                    QVERIFY(*r.klMean >= 0 && *r.tokenMatch <= *r.top1Agreement + 1e-12);
                }
            }
            // Accuracy and interval as the CLI printed them, recomputed here.
            const auto& setup = printed["setups"][run == &base ? 0 : 1];
            QCOMPARE(setup["run"].get<int64_t>(), run->id);
            const auto [low, high] = wilson(right, 200);
            QCOMPARE(setup["accuracy"]["items"].get<int>(), 200);
            QVERIFY(std::abs(setup["accuracy"]["value"].get<double>() - right / 200.0) < 1e-12);
            QVERIFY(std::abs(setup["accuracy"]["ci95"][0].get<double>() - low) < 1e-9);
            QVERIFY(std::abs(setup["accuracy"]["ci95"][1].get<double>() - high) < 1e-9);
        }
        // Identical outputs where every token matched.
        auto a = (*reader)->evalItems(base.id);
        auto b = (*reader)->evalItems(what.id);
        for (size_t i = 0; i < a->size(); ++i)
            if (*(*b)[i].tokenMatch == 1.0) QCOMPARE((*b)[i].output, (*a)[i].output);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        auto r = test::runCli({QStringLiteral("make-set"), QStringLiteral("--n"),
                               QStringLiteral("200"), QStringLiteral("--out"), path("set")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        set = path("set") + QStringLiteral("/set.jsonl");
        const QString image =
            path("set") + QStringLiteral("/images/") +
            QDir(path("set") + QStringLiteral("/images")).entryList(QDir::Files).front();
        session = path("base.mvprof");
        r = test::runCli({QStringLiteral("capture"), QStringLiteral("--model"),
                          QStringLiteral("ref:demo"), QStringLiteral("--image"), image,
                          QStringLiteral("--prompt"), QStringLiteral("What colour is the circle?"),
                          QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--out"),
                          session});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    // Keeping 3 of 64 visual tokens: the loss shows, and is no noise.
    void pruningToFivePercentLosesAccuracy() {
        const QString file = freshSession("five.mvprof");
        const auto r = evalWhatIf(file, QStringLiteral("0.05"), false);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        checkStoredRows(file, j, 3, false);
        const auto& change = j["paired_change"];
        QVERIFY2(change["ci95"][1].get<double>() < 0, r.out.constData());
        QVERIFY(!change["within_noise"].get<bool>());
        QVERIFY(j["setups"][1]["accuracy"]["value"].get<double>() <
                j["setups"][0]["accuracy"]["value"].get<double>());
        QVERIFY(change["mcnemar_p"].get<double>() < 0.05);
        // The report shows the same comparison.
        const auto rep = test::runCli(
            {QStringLiteral("report"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(rep.exitCode == 0, rep.err.constData());
        const auto rj = nlohmann::json::parse(rep.out.toStdString());
        QCOMPARE(rj["runs"][2]["eval"]["setups"][1]["accuracy"]["value"].get<double>(),
                 j["setups"][1]["accuracy"]["value"].get<double>());
    }

    void pruningToFortyPercentStoresItsRows() {
        const QString file = freshSession("forty.mvprof");
        const auto r = evalWhatIf(file, QStringLiteral("0.4"), true);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        checkStoredRows(file, nlohmann::json::parse(r.out.toStdString()), 26, true);
        itemHeatmapIsWhatACaptureOfTheItemShows(file);
        baselineHeatmapsPeakOnTheAskedShape(file);
    }

    // The eval baseline's heatmap of item 3 against a recorded capture of the
    // same image and prompt (another path through the model: the recorder's
    // run, its patch_values summed over the layers here).
    void itemHeatmapIsWhatACaptureOfTheItemShows(const QString& file) {
        const auto items = setLines(set);
        const QString image = path("set/") + QString::fromStdString(items[3]["image"]);
        const QString single = path("item3.mvprof");
        const auto c = test::runCli(
            {QStringLiteral("capture"), QStringLiteral("--model"), QStringLiteral("ref:demo"),
             QStringLiteral("--image"), image, QStringLiteral("--prompt"),
             QString::fromStdString(items[3]["prompt"]), QStringLiteral("--out"), single});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        auto captured = SessionReader::open(single.toStdString());
        QVERIFY(captured);
        const auto rows = (*captured)->patchMetrics(1, "answer_attention");
        QVERIFY(rows && !rows->empty());
        std::vector<double> grid(64, 0.0);
        for (const auto& m : *rows)
            grid[size_t(m.patch)] += m.value;
        auto reader = SessionReader::open(file.toStdString());
        QVERIFY(reader);
        const auto stored = (*reader)->evalItems((*(*reader)->runs())[1].id);
        QVERIFY(stored && stored->size() == 200 && (*stored)[3].heatmap);
        const auto& heat = (*stored)[3].heatmap->answerAttention;
        for (size_t p = 0; p < 64; ++p)
            QVERIFY2(
                std::abs(heat[p] - grid[p]) <= 1e-4 * std::max(1.0, grid[p]),
                qPrintable(QStringLiteral("patch %1: %2 vs %3").arg(p).arg(heat[p]).arg(grid[p])));
    }

    // Where ref:demo looked while answering a colour question: the eval
    // baseline's heatmap (what a capture of the item shows, checked above)
    // peaks inside the asked shape's box — the generator's, grown by one
    // patch — on at least kPeakFloor of the set's first 40 colour items.
    void baselineHeatmapsPeakOnTheAskedShape(const QString& file) {
        const auto items = setLines(set);
        auto reader = SessionReader::open(file.toStdString());
        QVERIFY(reader);
        const auto stored = (*reader)->evalItems((*(*reader)->runs())[1].id);
        QVERIFY(stored && stored->size() == items.size());
        int scenes = 0, inside = 0;
        for (size_t i = 0; i < items.size() && scenes < 40; ++i) {
            if (items[i]["kind"] != "colour") continue;
            ++scenes;
            QVERIFY((*stored)[i].heatmap);
            const auto& heat = (*stored)[i].heatmap->answerAttention;
            const int peak = int(std::max_element(heat.begin(), heat.end()) - heat.begin());
            // The peak patch's centre inside the box grown by one 28-px patch.
            const int x = peak % 8 * 28 + 14, y = peak / 8 * 28 + 14;
            const auto& box = items[i]["box"];
            inside += x >= box[0].get<int>() - 28 && x < box[2].get<int>() + 28 &&
                      y >= box[1].get<int>() - 28 && y < box[3].get<int>() + 28;
        }
        QCOMPARE(scenes, 40);
        QVERIFY2(inside >= kPeakFloor, qPrintable(QStringLiteral("%1 of 40").arg(inside)));
    }

    // Killed after a few items: the session opens, both runs are incomplete
    // and hold the items done, none beyond.
    void aKilledRunKeepsTheItemsDone() {
        const QString file = freshSession("killed.mvprof");
        QProcess p;
        p.start(test::cliPath(), {QStringLiteral("whatif"), file, QStringLiteral("--eval"), set,
                                  QStringLiteral("--prune-visual"), QStringLiteral("0.4"),
                                  QStringLiteral("--progress"), QStringLiteral("jsonl")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("\"step\":12,") && p.waitForReadyRead(60000))
            out += p.readAllStandardOutput();
        QVERIFY2(out.contains("\"step\":12,"), out.constData());
        p.kill();
        QVERIFY(p.waitForFinished());
        auto reader = SessionReader::open(file.toStdString());
        QVERIFY(reader);
        auto runs = (*reader)->runs();
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(3));
        for (size_t i : {size_t(1), size_t(2)}) {
            QCOMPARE((*runs)[i].status, RunStatus::Incomplete);
            auto rows = (*reader)->evalItems((*runs)[i].id);
            QVERIFY(rows);
            // Each item is committed before its progress line: none is lost.
            QVERIFY2(rows->size() >= 12 && rows->size() < 200,
                     qPrintable(QString::number(rows->size())));
        }
    }

    // A sweep over a set: each point an eval what-if with its own eval
    // baseline, accuracy and speed-up per point, a refusal as a row.
    void anEvalSweepReportsAccuracyPerPoint() {
        const QString file = freshSession("sweep.mvprof");
        const QString small = path("small");
        auto r = test::runCli({QStringLiteral("make-set"), QStringLiteral("--n"),
                               QStringLiteral("12"), QStringLiteral("--out"), small});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = test::runCli({QStringLiteral("whatif"), file, QStringLiteral("--eval"),
                          small + QStringLiteral("/set.jsonl"), QStringLiteral("--sweep"),
                          QStringLiteral("prune,fastv"), QStringLiteral("--budgets"),
                          QStringLiteral("16"), QStringLiteral("--format"),
                          QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["eval"].get<bool>());
        QCOMPARE(j["points"].size(), size_t(2));
        const auto& prune = j["points"][0];
        QCOMPARE(prune["visual_tokens_sent_mean_measured"].get<double>(), 16.0);
        QCOMPARE(prune["accuracy"]["items"].get<int>(), 12);
        QVERIFY(prune["speedup_per_item"]["median"].get<double>() > 0);
        QVERIFY(j["points"][1].contains("error")); // FastV cannot average 16 of 64 over 3 layers
        // Each point stored its eval baseline and what-if: 1 + 2 runs.
        QCOMPARE(runCount(file), 3);
    }

    // A missing image and a malformed line: exit 2 naming the file and line;
    // the session is left as it was.
    void aBadSetWritesNothing() {
        const QString file = freshSession("bad.mvprof");
        QDir().mkpath(path("bad"));
        QVERIFY(test::writeFile(path("bad") + QStringLiteral("/missing.jsonl"),
                                "{\"image\": \"nowhere.png\", \"prompt\": \"What?\"}\n"));
        QVERIFY(test::writeFile(path("bad") + QStringLiteral("/malformed.jsonl"),
                                "{\"image\": \"x.png\", \"prompt\": \n"));
        for (const char* name : {"missing.jsonl", "malformed.jsonl"}) {
            const QString bad = path("bad") + QLatin1Char('/') + QString::fromLatin1(name);
            const auto r =
                test::runCli({QStringLiteral("whatif"), file, QStringLiteral("--eval"), bad,
                              QStringLiteral("--prune-visual"), QStringLiteral("0.4")});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains((bad + QStringLiteral(":1")).toUtf8()), r.err.constData());
            QCOMPARE(runCount(file), 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestEvalWhatIf)
#include "test_eval_whatif.moc"
