#include "views/Export.h"

#include <QAbstractItemModel>
#include <QFile>
#include <QImage>
#include <QSaveFile>

namespace mvp::views {

namespace {
QString quote(QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
        s.contains(QLatin1Char('\n'))) {
        s.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    return s;
}

void rows(const QAbstractItemModel& m, const QModelIndex& parent, int depth, QString& out) {
    for (int r = 0; r < m.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(parent); ++c) {
            QString text = m.index(r, c, parent).data().toString();
            if (c == 0) text = QString(depth * 2, QLatin1Char(' ')) + text;
            cells << quote(text);
        }
        out += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
        const QModelIndex child = m.index(r, 0, parent);
        if (m.hasChildren(child)) rows(m, child, depth + 1, out);
    }
}
} // namespace

QString modelToCsv(const QAbstractItemModel& model) {
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << quote(model.headerData(c, Qt::Horizontal).toString());
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    rows(model, {}, 0, out);
    return out;
}

QString writeTextFile(const QString& path, const QString& text) {
    // QSaveFile: a failed write (full disk) never leaves a half file behind.
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
    f.write(text.toUtf8());
    if (!f.commit()) return QObject::tr("Writing %1 failed: %2").arg(path, f.errorString());
    return {};
}

QString writeImageFile(const QString& path, const QImage& image) {
    if (image.isNull()) return QObject::tr("There is no image to export.");
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
    if (!image.save(&f, path.endsWith(QLatin1String(".jpg"), Qt::CaseInsensitive) ? "JPEG" : "PNG"))
        return QObject::tr("Encoding %1 failed").arg(path);
    if (!f.commit()) return QObject::tr("Writing %1 failed: %2").arg(path, f.errorString());
    return {};
}

} // namespace mvp::views
