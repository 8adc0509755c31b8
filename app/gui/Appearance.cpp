#include "app/gui/Appearance.h"

#include <QApplication>
#include <QLocale>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QTranslator>

namespace mvp {

QString savedLanguage() {
    return QSettings().value(QStringLiteral("language")).toString();
}
void saveLanguage(const QString& language) {
    QSettings().setValue(QStringLiteral("language"), language);
}

bool installTranslations(QApplication& app, const QString& language) {
    static QTranslator* translator = nullptr;
    if (translator) {
        app.removeTranslator(translator);
        delete translator;
        translator = nullptr;
    }
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    auto* t = new QTranslator(&app);
    if (!t->load(locale, QStringLiteral("mvprof"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        delete t;
        return false;
    }
    app.installTranslator(t);
    translator = t;
    return true;
}

Theme savedTheme() {
    return Theme(QSettings().value(QStringLiteral("theme"), int(Theme::System)).toInt());
}
void saveTheme(Theme theme) {
    QSettings().setValue(QStringLiteral("theme"), int(theme));
}

void applyTheme(Theme theme) {
    static const QPalette systemPalette = QApplication::palette();
    if (theme == Theme::System) {
        QApplication::setPalette(systemPalette);
        return;
    }
    // Fusion draws every widget from the palette, so light and dark look alike on every desktop.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (theme == Theme::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette p;
    const QColor window(45, 47, 52), base(32, 34, 38), text(225, 225, 225), accent(42, 130, 218);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, accent);
    // Filter boxes say what they filter in placeholder text: Qt's default
    // (half-transparent black) vanishes on a dark base.
    p.setColor(QPalette::PlaceholderText, QColor(160, 160, 160));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(130, 130, 130));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(130, 130, 130));
    QApplication::setPalette(p);
}

} // namespace mvp
