#pragma once
// Turning what the views show into files: any item model (table or tree) as
// CSV, the heatmap overlay at the image's full resolution, and text files.

#include <QString>

class QAbstractItemModel;
class QImage;

namespace mvp::views {

// Every row (depth-first for trees; the first column indented with the depth
// as "  " prefixes) with the header as the first line; RFC 4180 quoting.
QString modelToCsv(const QAbstractItemModel& model);

// Writes `text` as UTF-8; returns an error message, empty on success.
QString writeTextFile(const QString& path, const QString& text);
QString writeImageFile(const QString& path, const QImage& image);

} // namespace mvp::views
