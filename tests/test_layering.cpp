// Layering is law: core/ includes neither Qt nor torch, capture/ never Qt,
// views/ and app/ never torch. This test reads every source file.
#include "TestSupport.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {
const QRegularExpression
    kQt(QStringLiteral(R"(^\s*#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/|qcustomplot))"),
        QRegularExpression::MultilineOption);
const QRegularExpression
    kTorch(QStringLiteral(R"(^\s*#\s*include\s*[<"](torch/|ATen/|c10/|caffe2/))"),
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
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
