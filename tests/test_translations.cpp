// Every user-visible string has a Simplified Chinese translation, and the
// .ts files list exactly the strings the sources contain today.
#include "TestSupport.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {
struct Message {
    QString context, source, translation, type;
};

QList<Message> readTs(const QString& path) {
    QList<Message> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return out;
    QXmlStreamReader xml(&f);
    QString context;
    Message m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("name"))
            context = xml.readElementText();
        else if (xml.name() == QLatin1String("message"))
            m = Message{context, {}, {}, {}};
        else if (xml.name() == QLatin1String("source"))
            m.source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            m.type = xml.attributes().value(QLatin1String("type")).toString();
            m.translation = xml.readElementText();
            out << m;
        }
    }
    return out;
}

QSet<QString> placeholders(const QString& s) {
    QSet<QString> out;
    auto it = QRegularExpression(QStringLiteral("%(\\d+|p)")).globalMatch(s);
    while (it.hasNext())
        out.insert(it.next().captured());
    return out;
}

QSet<QString> keys(const QList<Message>& messages) {
    QSet<QString> out;
    for (const auto& m : messages)
        out.insert(m.context + QLatin1Char('|') + m.source);
    return out;
}
} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
    QString ts(const char* name) const {
        return mvp::test::sourceDir() + QStringLiteral("/translations/") +
               QString::fromLatin1(name);
    }

private slots:
    void everyStringHasAChineseTranslation() {
        const auto messages = readTs(ts("mvprof_zh_CN.ts"));
        QVERIFY(messages.size() > 100);
        for (const auto& m : messages) {
            QVERIFY2(m.type.isEmpty(), qPrintable(m.context + QStringLiteral(": '") + m.source +
                                                  QStringLiteral("' is ") + m.type));
            QVERIFY2(!m.translation.trimmed().isEmpty(), qPrintable(m.source));
            QCOMPARE(placeholders(m.translation), placeholders(m.source));
        }
    }

    void englishAndChineseListTheSameStrings() {
        QCOMPARE(keys(readTs(ts("mvprof_en.ts"))), keys(readTs(ts("mvprof_zh_CN.ts"))));
    }

    // lupdate over today's sources finds no string the .ts files lack.
    void tsFilesAreUpToDate() {
        // CMake writes the lupdate project description at configure time; turn it
        // into lupdate's JSON the way the update_translations target does.
        const QString build =
            QProcessEnvironment::systemEnvironment().value(QStringLiteral("MVP_BUILD_DIR"));
        const QString description =
            build + QStringLiteral("/app/gui/.lupdate/mvprof_window_project.cmake");
        if (!QFile::exists(description)) QSKIP("no lupdate project in the build folder (GUI off?)");
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("project.json"));
        QProcess gen;
        gen.start(QStringLiteral("cmake"),
                  {QStringLiteral("-DIN_FILE=") + description,
                   QStringLiteral("-DOUT_FILE=") + project, QStringLiteral("-P"),
                   QStringLiteral(MVP_LUPDATE_GENERATOR)});
        QVERIFY(gen.waitForFinished(60000));
        QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
        const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
        QProcess p;
        p.start(QStringLiteral(MVP_LUPDATE), {QStringLiteral("-silent"), QStringLiteral("-project"),
                                              project, QStringLiteral("-ts"), fresh});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const auto now = keys(readTs(fresh));
        const auto stored = keys(readTs(ts("mvprof_zh_CN.ts")));
        const auto missing = now - stored;
        QVERIFY2(
            missing.isEmpty(),
            qPrintable(QStringLiteral("run `cmake --build build --target update_translations` and "
                                      "translations/fill_zh_CN.py; missing: ") +
                       QStringList(missing.values()).join(QStringLiteral(" / "))));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "test_translations.moc"
