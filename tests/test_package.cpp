// The DEB package: cpack builds it, and the programs it installs run.
// (Unpacked with dpkg-deb -x rather than installed, so the test needs no root.)
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

class TestPackage : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    static QByteArray run(const QString& program, const QStringList& args, const QString& cwd,
                          int* code) {
        QProcess p;
        p.setWorkingDirectory(cwd);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        if (!p.waitForFinished(240000)) {
            p.kill();
            *code = -1;
            return "timed out";
        }
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        return p.readAll();
    }

private slots:
    void debInstallsRunnablePrograms() {
        const QString build =
            QProcessEnvironment::systemEnvironment().value(QStringLiteral("MVP_BUILD_DIR"));
        QVERIFY2(QFile::exists(build + QStringLiteral("/CPackConfig.cmake")),
                 "MVP_BUILD_DIR has no CPack config");
        int code = 0;
        const QByteArray log =
            run(QStringLiteral("cpack"),
                {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("-B"), dir.path(),
                 QStringLiteral("--config"), build + QStringLiteral("/CPackConfig.cmake")},
                build, &code);
        QVERIFY2(code == 0, log.constData());
        const QStringList debs = QDir(dir.path()).entryList({QStringLiteral("*.deb")});
        QCOMPARE(debs.size(), 1);
        const QString deb = dir.filePath(debs.first());
        const QByteArray fields =
            run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb, QStringLiteral("Depends")},
                dir.path(), &code);
        QCOMPARE(code, 0);
        QVERIFY2(fields.contains("libtorch") || fields.contains("libc10"),
                 fields.constData()); // shlibdeps found the real libraries
        const QString root = dir.filePath(QStringLiteral("root"));
        run(QStringLiteral("dpkg-deb"), {QStringLiteral("-x"), deb, root}, dir.path(), &code);
        QCOMPARE(code, 0);
        for (const char* f :
             {"/usr/bin/mvprof", "/usr/bin/mvprof-cli", "/usr/share/applications/mvprof.desktop",
              "/usr/share/mime/packages/mvprof.xml",
              "/usr/share/icons/hicolor/scalable/apps/mvprof.svg",
              "/usr/share/metainfo/io.github.mvprof.metainfo.xml",
              "/usr/share/mvprof/samples/astronaut.png",
              "/usr/share/mvprof/examples/llava_moe.py",
              "/usr/lib/python3/dist-packages/mvprof/__init__.py",
              "/usr/lib/python3/dist-packages/mvprof/README.md",
              "/usr/lib/python3/dist-packages/mvprof/libmvprof_capture.so"})
            QVERIFY2(QFile::exists(root + QString::fromLatin1(f)), f);
        const QByteArray cli = run(root + QStringLiteral("/usr/bin/mvprof-cli"),
                                   {QStringLiteral("--version")}, dir.path(), &code);
        QCOMPARE(code, 0);
        QVERIFY(cli.startsWith("mvprof-cli "));
        const QByteArray gui = run(root + QStringLiteral("/usr/bin/mvprof"),
                                   {QStringLiteral("--version")}, dir.path(), &code);
        QCOMPARE(code, 0);
        QVERIFY2(gui.contains("mvprof "), gui.constData());
        // The packaged CLI captures with the packaged sample image.
        const QByteArray cap =
            run(root + QStringLiteral("/usr/bin/mvprof-cli"),
                {QStringLiteral("capture"), QStringLiteral("--image"),
                 root + QStringLiteral("/usr/share/mvprof/samples/chelsea.png"),
                 QStringLiteral("--steps"), QStringLiteral("1"), QStringLiteral("--out"),
                 dir.filePath(QStringLiteral("p.mvprof"))},
                dir.path(), &code);
        QVERIFY2(code == 0, cap.constData());
        // The packaged launch finds the packaged Python package beside it.
        const QString script = dir.filePath(QStringLiteral("tiny.py"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import mvprof, torch\n"
                "m = torch.nn.Linear(4, 4)\n"
                "with mvprof.profile(None, m) as p:\n"
                "    with p.phase('prefill'):\n"
                "        m(torch.ones(2, 4))\n");
        f.close();
        const QByteArray launched =
            run(root + QStringLiteral("/usr/bin/mvprof-cli"),
                {QStringLiteral("launch"), QStringLiteral("--out"),
                 dir.filePath(QStringLiteral("py.mvprof")), QStringLiteral("--"),
                 QStringLiteral("/usr/bin/python3"), script},
                dir.path(), &code);
        QVERIFY2(code == 0, launched.constData());
        QVERIFY2(launched.contains("python:Linear"), launched.constData());
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "test_package.moc"
