// MainWindow's menus: File (with Open Recent and Export), View (language,
// theme) and Help; the What-if menu is set up with its toolbar.
#include "app/gui/Appearance.h"
#include "app/gui/MainWindow.h"
#include "app/gui/WelcomePage.h"
#include "core/Resources.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDesktopServices>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QUrl>

namespace mvp {

namespace {
constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentSessions");
} // namespace

// File: capture, attach, open, recent, export, quit.
void MainWindow::setUpFileMenu() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* capture = file->addAction(tr("&New Capture…"), this, &MainWindow::newCapture);
    capture->setShortcut(QKeySequence::New);
    file->addAction(tr("&Attach…"), this, &MainWindow::attach);
    auto* open = file->addAction(tr("&Open Session…"), this, &MainWindow::chooseSession);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    auto* exportMenu = file->addMenu(tr("&Export"));
    const std::pair<Export, QString> exports[] = {
        {Export::HeatmapPng, tr("Heatmap Overlay as PNG…")},
        {Export::HeatmapLegendPng, tr("Heatmap with Colour Bar as PNG…")},
        {Export::HeatmapCsv, tr("Heatmap Grid as CSV…")},
        {Export::ModulesCsv, tr("Module Table as CSV…")},
        {Export::FindingsCsv, tr("Findings as CSV…")},
        {Export::FindingsMarkdown, tr("Report as Markdown…")},
        {Export::ExpertPlotPng, tr("Expert Load Plot as PNG…")},
        {Export::ExpertPlotPdf, tr("Expert Load Plot as PDF…")},
        {Export::TimelinePng, tr("Timeline as PNG…")},
        {Export::TimelinePdf, tr("Timeline as PDF…")}};
    for (const auto& [kind, label] : exports)
        exportMenu->addAction(label, this, [this, k = kind] { chooseExport(k); });
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);
}

// View: language and theme (the docks add themselves below them).
void MainWindow::setUpViewMenu() {
    viewMenu_ = menuBar()->addMenu(tr("&View"));
    auto* language = viewMenu_->addMenu(tr("&Language"));
    const std::pair<QString, QString> languages[] = {
        {QString(), tr("System")},
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto& [code, name] : languages) {
        auto* a = language->addAction(name, this, [this, c = code] {
            saveLanguage(c);
            statusBar()->showMessage(tr("The language changes when mvprof starts again"), 6000);
        });
        a->setCheckable(true);
        a->setChecked(savedLanguage() == code);
    }
    auto* theme = viewMenu_->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    auto* chosen = new QActionGroup(theme); // exclusive: the active theme is the checked one
    const std::pair<Theme, QString> themes[] = {
        {Theme::System, tr("System")}, {Theme::Light, tr("Light")}, {Theme::Dark, tr("Dark")}};
    for (const auto& [t, name] : themes) {
        auto* a = theme->addAction(name, this, [t = t] {
            saveTheme(t);
            applyTheme(t);
        });
        a->setCheckable(true);
        a->setChecked(savedTheme() == t);
        chosen->addAction(a);
    }
    viewMenu_->addSeparator();
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        recentMenu_
            ->addAction(QFileInfo(path).fileName(), this, [this, path] { openSession(path); })
            ->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
    welcome_->setRecent(recent);
}

// Help: about, where the documentation is, the keyboard shortcuts.
void MainWindow::setUpHelpMenu() {
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(tr("&Documentation"), this, [this] {
        const auto readme = resourcePath("../docs/gui.md");
        if (readme && QDesktopServices::openUrl(
                          QUrl::fromLocalFile(QFileInfo(QString::fromStdString(*readme)).path())))
            return;
        QMessageBox::information(this, tr("Documentation"),
                                 tr("The documentation is in the docs/ folder of mvprof's "
                                    "sources: README.md first, then docs/gui.md for this window."));
    });
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
        QMessageBox::information(
            this, tr("Keyboard Shortcuts"),
            tr("Ctrl+N  New Capture\nCtrl+O  Open a session or trace\nCtrl+Q  Quit\n"
               "Timeline and flame chart: + and − zoom, Home shows the whole run, the wheel "
               "zooms, drag pans\nFlame chart search: Enter finds the next match\n"
               "Compare Methods: Escape closes it"));
    });
    help->addSeparator();
    help->addAction(tr("&About mvprof"), this, [this] {
        QMessageBox::about(this, tr("About mvprof"),
                           tr("<b>mvprof %1</b> — the MoE-Visual Profiler: where every "
                              "millisecond, byte and FLOP of one image and prompt goes in a "
                              "vision-language model, and what a what-if changes.")
                               .arg(QStringLiteral(MVP_VERSION)));
    });
}

} // namespace mvp
