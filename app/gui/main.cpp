// mvprof: the desktop GUI. Opens the session named on the command line.
#include "app/gui/Appearance.h"
#include "app/gui/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("mvprof"));
    QApplication::setApplicationName(QStringLiteral("mvprof"));
    QApplication::setApplicationVersion(QStringLiteral(MVP_VERSION));

    mvp::installTranslations(app, mvp::savedLanguage());
    mvp::applyTheme(mvp::savedTheme());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "MoE-Visual Profiler"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("session"),
        QApplication::translate(
            "main", "A session (.mvprof) or a trace (.json, .json.gz, .sqlite) to open"));
    parser.process(app);

    mvp::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openSession(parser.positionalArguments().constFirst());
    return app.exec();
}
