// Generated scenes (core/eval/Scenes.h), eval sets (core/eval/EvalSet.h) and
// `mvprof-cli make-set`. The scenes are checked from their pixels and
// objects with rules restated here (which questions a scene may be asked,
// the answers), not with the generator's own helpers.
#include "TestSupport.h"
#include "core/eval/EvalSet.h"
#include "core/eval/Scenes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>

using namespace mvp;
using namespace mvp::scenes;

namespace {

// The colours as the task names them, nominal RGB.
const std::map<std::string, std::array<int, 3>> kNominal = {{"red", {215, 30, 30}},
                                                            {"green", {30, 170, 40}},
                                                            {"blue", {30, 60, 220}},
                                                            {"yellow", {235, 210, 30}}};

// A point certainly inside the shape: the box centre, or for a triangle
// (apex up) a point three quarters of the way down.
std::pair<int, int> innerPoint(const Object& o) {
    const int cx = (o.box.x0 + o.box.x1) / 2;
    if (o.shape == Shape::Triangle) return {cx, o.box.y0 + 3 * (o.box.y1 - o.box.y0) / 4};
    return {cx, (o.box.y0 + o.box.y1) / 2};
}

std::string colourAt(const RgbImage& img, int x, int y) {
    const uint8_t* p = &img.rgb[size_t((y * img.width + x) * 3)];
    for (const auto& [name, c] : kNominal)
        if (std::abs(p[0] - c[0]) <= 15 && std::abs(p[1] - c[1]) <= 15 &&
            std::abs(p[2] - c[2]) <= 15)
            return name;
    return "none";
}

bool overlaps(const Box& a, const Box& b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

} // namespace

class TestEvalSet : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void aSceneIsAFunctionOfItsSeed() {
        const Scene a = makeScene(42), b = makeScene(42), c = makeScene(43);
        QCOMPARE(a.image.rgb, b.image.rgb);
        QCOMPARE(a.questions.size(), b.questions.size());
        QVERIFY(a.image.rgb != c.image.rgb);
        QCOMPARE(a.image.width, 224);
        QCOMPARE(a.image.height, 224);
    }

    void objectsAreDrawnWhereAndAsTheySay() {
        std::map<size_t, int> counts;
        for (uint64_t seed = 0; seed < 300; ++seed) {
            const Scene s = makeScene(seed);
            QVERIFY(!s.objects.empty() && s.objects.size() <= 4);
            ++counts[s.objects.size()];
            for (size_t i = 0; i < s.objects.size(); ++i) {
                const auto& o = s.objects[i];
                const int side = o.box.x1 - o.box.x0;
                QVERIFY(side >= 28 && side <= 70);
                QCOMPARE(o.box.y1 - o.box.y0, side);
                QVERIFY(o.box.x0 >= 0 && o.box.y0 >= 0 && o.box.x1 <= 224 && o.box.y1 <= 224);
                for (size_t j = 0; j < i; ++j)
                    QVERIFY(!overlaps(o.box, s.objects[j].box));
                const auto [x, y] = innerPoint(o);
                QCOMPARE(colourAt(s.image, x, y), std::string(toString(o.colour)));
            }
        }
        for (size_t n = 1; n <= 4; ++n)
            QVERIFY2(counts[n] >= 30, qPrintable(QString::number(counts[n])));
    }

    // The training probe's labels (cellLabels) against the pixels: a cell
    // given an object shows that object's colour on at least a fifth of its
    // area; every object's centre is in exactly one cell, the one its box
    // says; an 8 × 8 grid of 28-px cells.
    void cellLabelsMatchThePixels() {
        int labelled = 0;
        for (uint64_t seed = 0; seed < 60; ++seed) {
            const Scene s = makeScene(seed);
            const auto cells = cellLabels(s, 8);
            QCOMPARE(cells.size(), size_t(64));
            int centres = 0;
            for (int cell = 0; cell < 64; ++cell) {
                const int x0 = (cell % 8) * 28, y0 = (cell / 8) * 28;
                centres += cells[size_t(cell)].holdsCentre;
                if (!cells[size_t(cell)].object) continue;
                ++labelled;
                const Object& o = s.objects[size_t(*cells[size_t(cell)].object)];
                int shown = 0;
                for (int y = y0; y < y0 + 28; ++y)
                    for (int x = x0; x < x0 + 28; ++x)
                        shown += colourAt(s.image, x, y) == toString(o.colour);
                QVERIFY2(shown * 5 >= 28 * 28, qPrintable(QString::number(shown)));
            }
            QCOMPARE(centres, int(s.objects.size()));
            for (const Object& o : s.objects) {
                const int col = int(0.5 * (o.box.x0 + o.box.x1)) / 28;
                const int row = int(0.5 * (o.box.y0 + o.box.y1)) / 28;
                QVERIFY(cells[size_t(row * 8 + col)].holdsCentre);
            }
        }
        QVERIFY(labelled > 60);
    }

    void questionsHaveExactlyOneRightAnswer() {
        std::map<QuestionKind, int> kinds;
        for (uint64_t seed = 0; seed < 300; ++seed) {
            const Scene s = makeScene(seed);
            std::map<std::string, int> shapes, colours;
            for (const auto& o : s.objects) {
                ++shapes[toString(o.shape)];
                ++colours[toString(o.colour)];
            }
            for (const auto& q : s.questions) {
                ++kinds[q.kind];
                switch (q.kind) {
                case QuestionKind::Count:
                    QCOMPARE(q.prompt, std::string("How many shapes are there?"));
                    QCOMPARE(q.answer, std::to_string(s.objects.size()));
                    break;
                case QuestionKind::Colour: {
                    const auto& o = s.objects[size_t(*q.object)];
                    QCOMPARE(q.prompt,
                             "What colour is the " + std::string(toString(o.shape)) + "?");
                    QCOMPARE(shapes[toString(o.shape)], 1);
                    const auto [x, y] = innerPoint(o);
                    QCOMPARE(q.answer, colourAt(s.image, x, y)); // read off the pixels
                    break;
                }
                case QuestionKind::ShapeOfColour: {
                    const auto& o = s.objects[size_t(*q.object)];
                    QCOMPARE(q.prompt, "What shape is " + std::string(toString(o.colour)) + "?");
                    QCOMPARE(colours[toString(o.colour)], 1);
                    QCOMPARE(q.answer, std::string(toString(o.shape)));
                    break;
                }
                case QuestionKind::LeftRight: {
                    const auto& o = s.objects[size_t(*q.object)];
                    QCOMPARE(shapes[toString(o.shape)], 1);
                    const double cx = 0.5 * (o.box.x0 + o.box.x1);
                    QVERIFY(std::abs(cx - 112) >= 8); // never asked of a shape on the midline
                    QCOMPARE(q.answer, std::string(cx < 112 ? "left" : "right"));
                    break;
                }
                }
            }
            // Every shape present once is asked its colour.
            for (const auto& [shape, n] : shapes)
                if (n == 1)
                    QVERIFY(std::any_of(s.questions.begin(), s.questions.end(), [&](auto& q) {
                        return q.prompt == "What colour is the " + shape + "?";
                    }));
        }
        QCOMPARE(kinds[QuestionKind::Count], 300);
        QVERIFY(kinds[QuestionKind::Colour] > 300);
        QVERIFY(kinds[QuestionKind::ShapeOfColour] > 300);
        QVERIFY(kinds[QuestionKind::LeftRight] > 200);
    }

    void backdropsVaryAndHeldOutTexturesDiffer() {
        std::map<Backdrop, int> backdrops;
        RgbImage photo;
        photo.width = 64;
        photo.height = 48;
        photo.rgb.assign(size_t(64 * 48 * 3), 0);
        for (size_t i = 0; i < photo.rgb.size(); ++i)
            photo.rgb[i] = uint8_t(i * 7);
        const std::vector<RgbImage> photos{photo};
        int noiseCompared = 0;
        for (uint64_t seed = 0; seed < 60; ++seed) {
            const Scene train = makeScene(seed, {Split::Train, &photos});
            const Scene held = makeScene(seed, {Split::HeldOut, &photos});
            ++backdrops[train.backdrop];
            if (train.backdrop == Backdrop::Noise) {
                ++noiseCompared;
                QVERIFY(train.image.rgb != held.image.rgb);
            }
        }
        QVERIFY(backdrops[Backdrop::Flat] > 5 && backdrops[Backdrop::Noise] > 5 &&
                backdrops[Backdrop::Photo] > 5);
        QVERIFY(noiseCompared > 0);
        // Without photographs there are no photo backdrops.
        for (uint64_t seed = 0; seed < 30; ++seed)
            QVERIFY(makeScene(seed).backdrop != Backdrop::Photo);
    }

    void answersAreNormalisedBeforeMatching_data() {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<bool>("matches");
        QTest::newRow("exact") << "red"
                               << "red" << true;
        QTest::newRow("case and punctuation") << "  Red. "
                                              << "red" << true;
        QTest::newRow("first word") << "red circle"
                                    << "red" << true;
        QTest::newRow("then punctuation") << "left, then"
                                          << "left" << true;
        QTest::newRow("newline") << "blue\nthe rest"
                                 << "blue" << true;
        QTest::newRow("longer word") << "12"
                                     << "1" << false;
        QTest::newRow("prefix of a word") << "reddish"
                                          << "red" << false;
        QTest::newRow("other word") << "green"
                                    << "red" << false;
        QTest::newRow("empty output") << ""
                                      << "red" << false;
        QTest::newRow("answer with spaces") << "New  York!"
                                            << "new york" << true;
    }
    void answersAreNormalisedBeforeMatching() {
        QFETCH(QString, output);
        QFETCH(QString, answer);
        QFETCH(bool, matches);
        QCOMPARE(answerMatches(output.toStdString(), {answer.toStdString()}), matches);
    }

    void anyListedAnswerCounts() {
        QVERIFY(answerMatches("two", {"2", "two"}));
        QVERIFY(!answerMatches("three", {"2", "two"}));
        QVERIFY(!answerMatches("red", {}));
    }

    void readsASetAndRefusesBadLines() {
        const QString folder = dir.filePath(QStringLiteral("set"));
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/img")));
        QVERIFY(QFile::copy(test::sampleImage(), folder + QStringLiteral("/img/a.png")));
        auto write = [&](const char* name, const std::string& text) {
            const QString p = folder + QLatin1Char('/') + QString::fromLatin1(name);
            test::writeFile(p, QByteArray::fromStdString(text));
            return p.toStdString();
        };
        const auto good = write(
            "good.jsonl", R"({"image":"img/a.png","prompt":"What colour?","answer":"red","id":"a"})"
                          "\n\n"
                          R"({"image":"img/a.png","prompt":"Count?","answer":["2","two"]})"
                          "\n"
                          R"({"image":"img/a.png","prompt":"Describe."})"
                          "\n");
        auto set = readEvalSet(good);
        QVERIFY2(set.ok(), set ? "" : set.error().message.c_str());
        QCOMPARE(set->items.size(), size_t(3));
        QCOMPARE(set->items[0].id, std::string("a"));
        QCOMPARE(set->items[1].id, std::string("3")); // no id: its line number
        QCOMPARE(set->items[1].answers, (std::vector<std::string>{"2", "two"}));
        QCOMPARE(set->unanswered(), 1);
        QVERIFY(QFileInfo(QString::fromStdString(set->items[0].image)).isAbsolute());

        auto expectError = [&](const char* name, const std::string& text, const char* says) {
            auto r = readEvalSet(write(name, text));
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find(says) != std::string::npos, r.error().message.c_str());
            QCOMPARE(r.error().exitCode(), 2);
        };
        const std::string line = R"({"image":"img/a.png","prompt":"p"})";
        expectError("malformed.jsonl", line + "\n{\"image\": \n",
                    "malformed.jsonl:2: not a JSON object");
        expectError("noimage.jsonl", R"({"image":"img/none.png","prompt":"p"})",
                    "noimage.jsonl:1: image");
        expectError("noprompt.jsonl", R"({"image":"img/a.png"})", ":1: no \"prompt\"");
        expectError("empty.jsonl", "\n  \n", "has no items");
        expectError("twice-id.jsonl",
                    R"({"image":"img/a.png","prompt":"p","id":"x"})"
                    "\n"
                    R"({"image":"img/a.png","prompt":"q","id":"x"})",
                    ":2: id \"x\" is used twice");
        expectError("answer.jsonl", R"({"image":"img/a.png","prompt":"p","answer":3})",
                    "\"answer\"");
        auto missing = readEvalSet(folder.toStdString() + "/absent.jsonl");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
    }

    void makeSetWritesABalancedReproducibleSet() {
        const QString a = dir.filePath(QStringLiteral("made-a")),
                      b = dir.filePath(QStringLiteral("made-b"));
        for (const QString& out : {a, b}) {
            const auto r = test::runCli({QStringLiteral("make-set"), QStringLiteral("--n"),
                                         QStringLiteral("40"), QStringLiteral("--out"), out});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        QFile fa(a + QStringLiteral("/set.jsonl")), fb(b + QStringLiteral("/set.jsonl"));
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        const QByteArray text = fa.readAll();
        QCOMPARE(text, fb.readAll());
        auto set = readEvalSet(QString(a + QStringLiteral("/set.jsonl")).toStdString());
        QVERIFY2(set.ok(), set ? "" : set.error().message.c_str());
        QCOMPARE(set->items.size(), size_t(40));
        std::map<std::string, int> kinds;
        int seedsBelowTraining = 0;
        for (const auto& line : text.split('\n')) {
            if (line.isEmpty()) continue;
            const auto j = nlohmann::json::parse(line.toStdString());
            ++kinds[j["kind"].get<std::string>()];
            seedsBelowTraining += j["seed"].get<uint64_t>() < 1'000'000'000ull;
            if (j["kind"] == "colour") {
                // The asked box's pixels hold the answer's colour.
                auto img =
                    loadImage(QString(a + QLatin1Char('/') + QString::fromStdString(j["image"]))
                                  .toStdString());
                QVERIFY(img.ok());
                const auto box = j["box"].get<std::vector<int>>();
                QCOMPARE(colourAt(*img, (box[0] + box[2]) / 2, box[1] + 3 * (box[3] - box[1]) / 4),
                         j["answer"].get<std::string>());
            }
        }
        for (const char* k : {"colour", "shape", "count", "left-right"})
            QCOMPARE(kinds[k], 10);
        QCOMPARE(seedsBelowTraining, 0);
        // Bad options: exit 2, nothing written.
        const auto r =
            test::runCli({QStringLiteral("make-set"), QStringLiteral("--out"),
                          dir.filePath(QStringLiteral("bad")), QStringLiteral("--photos"),
                          dir.filePath(QStringLiteral("none.png"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("bad/set.jsonl"))));
    }
};

QTEST_GUILESS_MAIN(TestEvalSet)
#include "test_eval_set.moc"
