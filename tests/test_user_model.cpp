// User models (docs/user-models.md): a TorchScript archive and its
// manifest are captured with module spans from the interpreter's hierarchy;
// bad manifests and archives are refused before anything is written.
#include "TestSupport.h"
#include "capture/config/UserModel.h"
#include "core/session/SessionReader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <map>

using namespace mvp;

namespace {
std::string jsonEscaped(const std::string& text) {
    std::string out;
    for (char c : text)
        out += c == '\\' ? std::string("\\\\") : std::string(1, c);
    return out;
}
} // namespace

class TestUserModel : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    // answer_attention of a whole-sequence model over 3 decode steps (no
    // EOS from random weights: every step counts): per layer and patch, the
    // decode steps' new queries are exactly attention.decode's, and the rest
    // — the prefill's last query — is a part of attention.prefill.
    static void answerAttentionIsTheAnswersShare(SessionReader& session) {
        const auto answer = session.patchMetrics(1, "answer_attention");
        const auto prefill = session.patchMetrics(1, "attention.prefill");
        const auto decode = session.patchMetrics(1, "attention.decode");
        QVERIFY(answer.ok() && prefill.ok() && decode.ok());
        QCOMPARE(int(answer->size()), 2 * 256);
        QCOMPARE(answer->size(), prefill->size());
        QCOMPARE(answer->size(), decode->size());
        std::map<int, double> perLayer, lastQueryPerLayer, prefillPerLayer;
        for (size_t i = 0; i < answer->size(); ++i) {
            const auto& a = (*answer)[i];
            QCOMPARE(a.layer, (*prefill)[i].layer);
            QCOMPARE(a.patch, (*prefill)[i].patch);
            const double lastQuery = a.value - (*decode)[i].value;
            QVERIFY2(lastQuery >= -1e-9 && lastQuery <= (*prefill)[i].value + 1e-9,
                     qPrintable(QStringLiteral("layer %1 patch %2").arg(a.layer).arg(a.patch)));
            perLayer[a.layer] += a.value;
            lastQueryPerLayer[a.layer] += lastQuery;
            prefillPerLayer[a.layer] += (*prefill)[i].value;
        }
        for (const auto& [layer, sum] : perLayer) { // 4 queries' mass on the visual tokens
            QVERIFY(sum > 0 && sum <= 4 + 1e-9);
            // One query of the prompt's many: at most its whole mass, less than all of theirs.
            QVERIFY(lastQueryPerLayer[layer] > 0 && lastQueryPerLayer[layer] <= 1 + 1e-9);
            QVERIFY(lastQueryPerLayer[layer] < prefillPerLayer[layer]);
        }
    }

private slots:
    void userTorchScriptModelIsCapturedWithItsHierarchy() {
        const QString folder = dir.filePath(QStringLiteral("user-model"));
        const auto made = test::runCli({QStringLiteral("example-model"), folder});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString manifest = folder + QStringLiteral("/example-vlm.json");
        const QString out = dir.filePath(QStringLiteral("user.mvprof"));
        const auto r =
            test::runCli({QStringLiteral("capture"), QStringLiteral("--model-file"), manifest,
                          QStringLiteral("--image"), test::sampleImage(), QStringLiteral("--out"),
                          out, QStringLiteral("--steps"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto session = SessionReader::open(out.toStdString());
        QVERIFY(session.ok());
        auto info = (*session)->run(1);
        QVERIFY(info.ok());
        QVERIFY(info->model.rfind("file:", 0) == 0);
        QCOMPARE(info->status, RunStatus::Complete);
        // Module rows come from TorchScript's instance names, parents from the nesting.
        auto modules = (*session)->modules(1);
        QVERIFY(modules.ok());
        std::map<std::string, ModuleRow> byPath;
        for (const auto& m : *modules)
            byPath[m.path] = m;
        for (const char* path : {"model", "vision", "vision.block0", "vision.block0.attn",
                                 "projector", "llm", "llm.layer1.moe", "llm.layer1.moe.expert0"})
            QVERIFY2(byPath.count(path), path);
        QCOMPARE(byPath["model"].kind, std::string("ExampleVlm"));
        QCOMPARE(byPath["vision.block0.attn"].kind, std::string("Attention"));
        QCOMPARE(byPath["llm.layer1.moe.expert0"].parent,
                 std::optional<int64_t>(byPath["llm.layer1.moe"].id));
        QCOMPARE(byPath["vision"].parent, std::optional<int64_t>(byPath["model"].id));
        // The manifest's roles: experts with their layer and index, decoder attention.
        QCOMPARE(byPath["llm.layer1.moe.expert2"].role, ModuleRole::Expert);
        QCOMPARE(byPath["llm.layer1.moe.expert2"].layer, std::optional<int>(1));
        QCOMPARE(byPath["llm.layer1.moe.expert2"].expert, std::optional<int>(2));
        QCOMPARE(byPath["llm.layer0.attn"].role, ModuleRole::Attention);
        QCOMPARE(byPath["vision.block0.attn"].role, ModuleRole::None);
        // Its softmax over the sequence gives the attention heatmap; its router,
        // a parameter rather than a module, gives no routing, and the run says so.
        auto attention = (*session)->patchMetrics(1, "attention");
        QVERIFY(attention.ok());
        QCOMPARE(int(attention->size()), 2 * 256);
        answerAttentionIsTheAnswersShare(**session);
        QVERIFY((*session)->routing(1)->empty());
        // Spans nest inside their parents and the ops inside them carry their cost.
        auto spans = (*session)->spans(1);
        QVERIFY(spans.ok() && !spans->empty());
        std::map<int64_t, SpanRow> spanById;
        for (const auto& sp : *spans)
            spanById[sp.id] = sp;
        int64_t expertFlops = 0;
        for (const auto& sp : *spans) {
            if (sp.parent) {
                const auto& p = spanById.at(*sp.parent);
                QVERIFY(p.startNs <= sp.startNs && sp.endNs <= p.endNs);
            }
            if (sp.module == byPath["llm.layer1.moe.expert0"].id) expertFlops += sp.flops;
        }
        QVERIFY(expertFlops > 0);
        // Every decode step re-runs the whole sequence through the user's forward().
        auto outputs = (*session)->stepOutputs(1);
        QVERIFY(outputs.ok());
        QCOMPARE(int(outputs->size()), 4);
        auto tokens = (*session)->tokens(1);
        QCOMPARE(int(tokens->size()), 1 + 256 + int(std::string("Describe the image.").size()) +
                                          3); // the CLI's default prompt
        auto metrics = (*session)->runMetrics(1);
        QVERIFY(metrics.ok() && !metrics->empty());
        // Its LLM multiplies parameters, with no Linear module to quantise: a
        // clear refusal, nothing written; other what-ifs need the built-in model.
        const auto w = test::runCli(
            {QStringLiteral("whatif"), out, QStringLiteral("--quant"), QStringLiteral("w8")});
        QCOMPARE(w.exitCode, 2);
        QVERIFY2(w.err.contains("nothing to quantise"), w.err.constData());
        const auto kv = test::runCli(
            {QStringLiteral("whatif"), out, QStringLiteral("--kv"), QStringLiteral("int4")});
        QCOMPARE(kv.exitCode, 2);
        QVERIFY2(kv.err.contains("user model"), kv.err.constData());
        QCOMPARE((*SessionReader::open(out.toStdString()))->runs()->size(), size_t(1));
        // A user model runs on a GPU where there is one (tests/gpu checks it
        // there): here the request fails for want of the GPU, not of the model,
        // with its hardware counters too (a replay of its own pipeline).
        const QStringList capture{QStringLiteral("capture"),
                                  QStringLiteral("--model-file"),
                                  manifest,
                                  QStringLiteral("--image"),
                                  test::sampleImage(),
                                  QStringLiteral("--out"),
                                  dir.filePath(QStringLiteral("user-gpu.mvprof"))};
        const auto gpu =
            test::runCli(capture + QStringList{QStringLiteral("--device"), QStringLiteral("cuda")});
        if (gpu.exitCode != 0) { // no GPU here
            QCOMPARE(gpu.exitCode, 2);
            QVERIFY2(gpu.err.contains("no usable CUDA device"), gpu.err.constData());
        }
        const auto hw =
            test::runCli(capture + QStringList{QStringLiteral("--device"), QStringLiteral("cuda"),
                                               QStringLiteral("--hw-counters")});
        if (hw.exitCode != 0) {
            QCOMPARE(hw.exitCode, 2);
            QVERIFY2(hw.err.contains("no usable CUDA device"), hw.err.constData());
        }
    }

    // Prefix-anchored container patterns ("^llm") match every module inside
    // the container too; whatever order the manifest's keys come in, the
    // most specific role must win (a router sorted after "llm" was once
    // read as part of the LLM, and routing silently went unrecorded).
    void theMostSpecificRoleWinsWhateverTheKeyOrder() {
        const QString folder = dir.filePath(QStringLiteral("role-order"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(test::writeFile(folder + QStringLiteral("/m.pt"), QByteArray("archive")));
        std::vector<std::pair<std::string, std::string>> roles{
            {"llm", "^llm"},        {"vision", "^vision"},       {"projector", "merger$"},
            {"moe", "\\.moe$"},   {"router", "\\.moe\\.gate$"}, {"expert", "\\.experts\\.\\d+$"},
            {"attention", "\\.attn$"}};
        const std::pair<const char*, ModuleRole> expected[] = {
            {"llm.blocks.0.moe.gate", ModuleRole::Router},
            {"llm.blocks.0.moe.experts.3", ModuleRole::Expert},
            {"llm.blocks.0.attn", ModuleRole::Attention},
            {"llm.blocks.0.moe", ModuleRole::Moe},
            {"llm.blocks.0", ModuleRole::Llm},
            {"vision.merger", ModuleRole::Projector},
            {"vision.blocks.2", ModuleRole::Vision},
            {"lm_head", ModuleRole::None}};
        std::sort(roles.begin(), roles.end());
        int orders = 0;
        do { // every 7th permutation of the 5040: alphabetical, reversed and between
            if (orders++ % 7) continue;
            std::string json = R"({"format": "mvprof-model", "torchscript": "m.pt", "roles": {)";
            for (size_t i = 0; i < roles.size(); ++i)
                json += (i ? ", \"" : "\"") + roles[i].first + "\": \"" +
                        jsonEscaped(roles[i].second) + "\"";
            QVERIFY(test::writeFile(folder + QStringLiteral("/m.json"), QByteArray((json + "}}").c_str())));
            auto manifest = loadUserModelManifest(QString(folder + QStringLiteral("/m.json")).toStdString());
            QVERIFY2(manifest.ok(), manifest.ok() ? "" : manifest.error().message.c_str());
            const RolePatterns patterns(manifest->roles);
            for (const auto& [path, role] : expected)
                QVERIFY2(patterns.roleOf(path) == role, (json + ": " + path).c_str());
        } while (std::next_permutation(roles.begin(), roles.end()));
        QCOMPARE(orders, 5040);
    }

    void badUserModelsAreRefusedClearly() {
        const QString folder = dir.filePath(QStringLiteral("bad-models"));
        QVERIFY(QDir().mkpath(folder));
        auto write = [&](const char* name, const QByteArray& bytes) {
            const QString p = folder + QLatin1Char('/') + QString::fromLatin1(name);
            QVERIFY(test::writeFile(p, bytes));
        };
        write("garbage.pt", QByteArray("not a zip archive"));
        write("garbage.json", R"({"format": "mvprof-model", "torchscript": "garbage.pt"})");
        write("missing.json", R"({"format": "mvprof-model", "torchscript": "nowhere.pt"})");
        write("foreign.json", R"({"torchscript": "garbage.pt"})");
        write(
            "sizes.json",
            R"({"format": "mvprof-model", "torchscript": "garbage.pt", "image_size": 100, "patch": 14})");
        write("broken.json", "{ not json");
        const QByteArray head = "{\"format\": \"mvprof-model\", \"torchscript\": \"garbage.pt\", ";
        write("role.json", head + "\"roles\": {\"brain\": \"x\"}}");
        write("regex.json", head + "\"roles\": {\"router\": \"[a-\"}}");
        write("topk.json", head + "\"top_k\": 0}");
        const std::pair<const char*, const char*> cases[] = {
            {"garbage.json", "not a loadable TorchScript archive"},
            {"missing.json", "does not exist"},
            {"foreign.json", "mvprof-model"},
            {"sizes.json", "multiple of"},
            {"broken.json", "not a JSON model manifest"},
            {"role.json", "unknown role \"brain\""},
            {"regex.json", "\"roles.router\" is not a valid regular expression"},
            {"topk.json", "\"top_k\" must be"},
            {"absent.json", "cannot read"}};
        for (const auto& [name, message] : cases) {
            const QString out = dir.filePath(QStringLiteral("bad-user.mvprof"));
            const auto r = test::runCli({QStringLiteral("capture"), QStringLiteral("--model-file"),
                                         folder + QLatin1Char('/') + QString::fromLatin1(name),
                                         QStringLiteral("--image"), test::sampleImage(),
                                         QStringLiteral("--out"), out});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(message), r.err.constData());
            QVERIFY(!QFile::exists(out)); // nothing written
        }
    }
};

QTEST_GUILESS_MAIN(TestUserModel)
#include "test_user_model.moc"
