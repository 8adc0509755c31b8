#pragma once
// Language and palette, chosen in View → Language / Theme and kept in QSettings.

#include <QString>

class QApplication;

namespace mvp {

// "en", "zh_CN", or "" for the system's language.
QString savedLanguage();
void saveLanguage(const QString& language);
// Installs the translator for `language` ("" = system); false if none matches.
bool installTranslations(QApplication& app, const QString& language);

enum class Theme { System, Light, Dark };
Theme savedTheme();
void saveTheme(Theme theme);
void applyTheme(Theme theme);

} // namespace mvp
