// Layering is law: core/ includes neither Qt nor torch, capture/ never Qt,
// views/ and app/ never torch, capture's what-if plans and configuration
// never torch; and each folder includes the project's own headers only from
// the folders below it (docs/ARCHITECTURE.md). This test reads every source
// file.
#include "TestSupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <initializer_list>

namespace {
const QRegularExpression
    kQt(QStringLiteral(R"(^\s*#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/|qcustomplot))"),
        QRegularExpression::MultilineOption);
const QRegularExpression
    kTorch(QStringLiteral(R"(^\s*#\s*include\s*[<"](torch/|ATen/|c10/|caffe2/))"),
           QRegularExpression::MultilineOption);

// A project header: "core/...", "capture/...", "views/...", "app/...".
const QRegularExpression kProject(
    QStringLiteral(R"re(^\s*#\s*include\s*"((core|capture|views|app/cli|app/gui)/[^"]+)")re"),
    QRegularExpression::MultilineOption);

// "file:line: the include" for every include in `folder` matching `re`.
QStringList offenders(const QString& folder, const QRegularExpression& re) {
    QStringList hits;
    QDirIterator it(mvp::test::sourceDir() + QLatin1Char('/') + folder,
                    {QStringLiteral("*.h"), QStringLiteral("*.hpp"), QStringLiteral("*.cpp"),
                     QStringLiteral("*.cc")},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            hits << path + QStringLiteral(": unreadable");
            continue;
        }
        const QString text = QString::fromUtf8(f.readAll());
        auto m = re.globalMatch(text);
        while (m.hasNext()) {
            const auto match = m.next();
            const int line = int(text.left(match.capturedStart()).count(QLatin1Char('\n'))) + 1;
            hits << QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(match.captured().trimmed());
        }
    }
    return hits;
}

// `folder`'s project includes from folders other than `allowed` (exact
// folders, e.g. "core/session"; a header's folder is the path before its name).
QStringList outsideOf(const QString& folder, const QStringList& allowed) {
    QStringList out;
    static const QRegularExpression path(QStringLiteral(R"re("([^"]+)")re"));
    for (const auto& hit : offenders(folder, kProject)) {
        const QString header = path.match(hit).captured(1);
        const QString from = header.left(header.lastIndexOf(QLatin1Char('/')));
        if (!allowed.contains(from)) out << hit;
    }
    return out;
}

// The source files directly in `folder` (not in its subfolders).
QStringList looseSources(const QString& folder) {
    return QDir(mvp::test::sourceDir() + QLatin1Char('/') + folder)
        .entryList({QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files);
}

QStringList folders(std::initializer_list<const char*> names) {
    QStringList out;
    for (const char* n : names)
        out << QString::fromLatin1(n);
    return out;
}
} // namespace

class TestLayering : public QObject {
    Q_OBJECT
private slots:
    void patternsRecogniseIncludes() {
        // The scan is only as good as its patterns: prove they match what they must.
        QVERIFY(kQt.match(QStringLiteral("#include <QWidget>")).hasMatch());
        QVERIFY(kQt.match(QStringLiteral("  #  include \"QtCore/qglobal.h\"")).hasMatch());
        QVERIFY(kQt.match(QStringLiteral("#include <qcustomplot.h>")).hasMatch());
        QVERIFY(kTorch.match(QStringLiteral("#include <torch/torch.h>")).hasMatch());
        QVERIFY(kTorch.match(QStringLiteral("#include <ATen/record_function.h>")).hasMatch());
        QVERIFY(!kQt.match(QStringLiteral("#include <vector>")).hasMatch());
        QVERIFY(!kTorch.match(QStringLiteral("#include \"capture/run/Capture.h\"")).hasMatch());
        QVERIFY(kProject.match(QStringLiteral("#include \"capture/run/Capture.h\"")).hasMatch());
        QVERIFY(kProject.match(QStringLiteral(" # include \"views/HeatmapView.h\"")).hasMatch());
        QVERIFY(!kProject.match(QStringLiteral("#include <core/Result.h>")).hasMatch());
    }
    void sourcesArePresent() {
        QVERIFY2(
            QFile::exists(mvp::test::sourceDir() + QStringLiteral("/core/session/SessionWriter.h")),
            "MVP_SOURCE_DIR does not point at the sources");
    }
    void coreHasNoQt() { QCOMPARE(offenders(QStringLiteral("core"), kQt), QStringList()); }
    void coreHasNoTorch() { QCOMPARE(offenders(QStringLiteral("core"), kTorch), QStringList()); }
    void captureHasNoQt() { QCOMPARE(offenders(QStringLiteral("capture"), kQt), QStringList()); }
    void viewsHaveNoTorch() { QCOMPARE(offenders(QStringLiteral("views"), kTorch), QStringList()); }
    void appHasNoTorch() { QCOMPARE(offenders(QStringLiteral("app"), kTorch), QStringList()); }

    // The capture's what-if plans and its configuration are plain C++: the
    // CLI, the C ABI and the tests plan without a model.
    void whatIfPlansAndConfigHaveNoTorch() {
        QCOMPARE(offenders(QStringLiteral("capture/whatif"), kTorch), QStringList());
        QCOMPARE(offenders(QStringLiteral("capture/config"), kTorch), QStringList());
        QCOMPARE(offenders(QStringLiteral("capture/cuda"), kTorch), QStringList());
    }
    // Every source file sits in a folder named for what it is.
    void captureHasNoLooseFiles() {
        QCOMPARE(looseSources(QStringLiteral("capture")), QStringList());
    }

    // Folder by folder, which project folders each may include, lowest first.
    void foldersIncludeOnlyTheLayersBelow_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("allowed");
        const QStringList session = folders({"core", "core/session"});
        const QStringList analysis = session + folders({"core/ops", "core/image", "core/analysis"});
        const QStringList catalogue = session + folders({"core/whatif"});
        // Eval sets and generated scenes: images and plain data, under the comparisons.
        const QStringList eval = folders({"core", "core/image", "core/eval"});
        const QStringList compare =
            analysis + folders({"core/whatif", "core/eval", "core/compare"});
        // Expert placement: plain data over routing rows.
        const QStringList placement = session + folders({"core/placement"});
        const QStringList core =
            compare + folders({"core/report", "core/interop", "core/placement"});
        auto row = [](const char* folder, const QStringList& allowed) {
            QTest::newRow(folder) << QString::fromLatin1(folder) << allowed;
        };
        row("core/session", session);
        row("core/ops", folders({"core", "core/ops"}));
        row("core/image", folders({"core", "core/image"}));
        row("core/eval", eval);
        row("core/interop", session + folders({"core/ops", "core/interop"}));
        row("core/analysis", analysis);
        row("core/whatif", catalogue);
        row("core/compare", compare);
        row("core/report", compare + folders({"core/report"}));
        row("core/placement", placement);
        const QStringList cuda = core + folders({"capture/cuda"});
        const QStringList config = cuda + folders({"capture/config"});
        const QStringList machine = cuda + folders({"capture/machine"});
        const QStringList probe = machine + folders({"capture/probe"});
        const QStringList whatIf = config + folders({"capture/whatif"});
        // A model and the transforms that rewrite its layers are one floor.
        const QStringList models =
            whatIf + folders({"capture/probe", "capture/machine", "capture/models",
                              "capture/models/transforms"});
        const QStringList train = models + folders({"capture/train"});
        const QStringList run = train + folders({"capture/run"});
        row("capture/cuda", cuda);
        row("capture/config", config);
        row("capture/machine", machine);
        row("capture/probe", probe);
        row("capture/whatif", whatIf);
        row("capture/models", models);
        row("capture/train", train);
        row("capture/run", run);
        row("capture/api", run + folders({"capture/api"}));
        row("views", core + folders({"views"}));
        row("app/cli", run + folders({"app/cli"}));
        // The GUI never links capture: it runs captures through mvprof-cli.
        row("app/gui", core + folders({"views", "app/gui"}));
    }
    void foldersIncludeOnlyTheLayersBelow() {
        QFETCH(QString, folder);
        QFETCH(QStringList, allowed);
        QCOMPARE(outsideOf(folder, allowed), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
