// Layering is law: core/ includes neither Qt nor torch, capture/ never Qt,
// views/ and app/ never torch; and each folder includes the project's own
// headers only from the folders below it. This test reads every source file.
#include "TestSupport.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <algorithm>

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

// `folder`'s project includes outside `allowed` (folders, e.g. "core/").
QStringList outsideOf(const QString& folder, const QStringList& allowed);

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

QStringList outsideOf(const QString& folder, const QStringList& allowed) {
    QStringList out;
    static const QRegularExpression path(QStringLiteral(R"re("([^"]+)")re"));
    for (const auto& hit : offenders(folder, kProject)) {
        const QString header = path.match(hit).captured(1);
        if (std::none_of(allowed.begin(), allowed.end(),
                         [&](const QString& a) { return header.startsWith(a); }))
            out << hit;
    }
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
        QVERIFY(!kTorch.match(QStringLiteral("#include \"capture/Capture.h\"")).hasMatch());
        QVERIFY(kProject.match(QStringLiteral("#include \"capture/Capture.h\"")).hasMatch());
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

    // Folder by folder, which project headers each may include.
    void foldersIncludeOnlyTheLayersBelow_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("allowed");
        const QString core = QStringLiteral("core/"), capture = QStringLiteral("capture/"),
                      views = QStringLiteral("views/");
        QTest::newRow("core") << core << QStringList{core};
        QTest::newRow("capture") << capture << QStringList{core, capture};
        QTest::newRow("views") << views << QStringList{core, views};
        QTest::newRow("app/cli") << QStringLiteral("app/cli")
                                 << QStringList{core, capture, QStringLiteral("app/cli/")};
        // The GUI never links capture: it runs captures through mvprof-cli.
        QTest::newRow("app/gui") << QStringLiteral("app/gui")
                                 << QStringList{core, views, QStringLiteral("app/gui/")};
    }
    void foldersIncludeOnlyTheLayersBelow() {
        QFETCH(QString, folder);
        QFETCH(QStringList, allowed);
        QCOMPARE(outsideOf(folder, allowed), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
