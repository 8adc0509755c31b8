#include "views/SessionData.h"

#include "core/interop/TraceImport.h"
#include "core/session/SessionReader.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <set>

namespace mvp::views {

Result<QString> sessionForTrace(const QString& tracePath, const std::function<bool()>& stale) {
    const QFileInfo trace(tracePath);
    if (!trace.isFile())
        return makeError(ErrorCode::NotFound, tracePath.toStdString() + ": no such file");
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                        QStringLiteral("/imported");
    if (!QDir().mkpath(dir))
        return makeError(ErrorCode::Io, "cannot create " + dir.toStdString() +
                                            " for the imported trace's session");
    // One session per trace path, imported again when the trace is newer.
    const QByteArray id =
        QCryptographicHash::hash(trace.absoluteFilePath().toUtf8(), QCryptographicHash::Sha1)
            .toHex()
            .left(12);
    const QString session = dir + QLatin1Char('/') + trace.completeBaseName() + QLatin1Char('-') +
                            QString::fromLatin1(id) + QStringLiteral(".mvprof");
    if (const QFileInfo cached(session);
        cached.exists() && cached.lastModified() >= trace.lastModified())
        return session;
    TraceImportOptions options;
    options.overwrite = true;
    options.progress = [stale](const std::string&, int64_t, int64_t) { return !stale(); };
    auto imported = importTraces({tracePath.toStdString()}, session.toStdString(), options);
    if (!imported) return imported.error();
    return session;
}

Result<std::shared_ptr<const SessionData>> loadSession(const QString& path, int64_t runId) {
    auto reader = SessionReader::open(path.toStdString());
    if (!reader) return reader.error();
    auto data = std::make_shared<SessionData>();
    data->path = path;
    auto runs = (*reader)->runs();
    if (!runs) return runs.error();
    data->runs = std::move(runs.value());
    if (data->runs.empty())
        return makeError(ErrorCode::NotASession,
                         path.toStdString() +
                             " holds no runs yet: the capture stopped before it began");
    const RunInfo* run = &data->runs.front();
    if (runId != 0) {
        run = nullptr;
        for (const auto& r : data->runs)
            if (r.id == runId) run = &r;
        if (!run)
            return makeError(ErrorCode::NotFound,
                             "run " + std::to_string(runId) + " is not in the session");
    }
    data->runId = run->id;

    auto rows = loadRunData(**reader, data->runId);
    if (!rows) return rows.error();
    data->data = std::move(rows.value());
    data->analysis = analyseRun(data->data);
    data->timeline = buildTimeline(data->data.modules, data->data.spans, data->data.phases);

    auto image = (*reader)->image(data->runId);
    if (!image) return image.error();
    if (*image) {
        const auto& png = (*image)->png;
        data->image.loadFromData(png.data(), int(png.size()), "PNG");
    }
    data->grid = data->data.grid;
    data->attention = data->data.attention;
    // Every decoder layer a heatmap metric has values for: a run may observe
    // the answer's attention, or route experts, in layers without others.
    std::set<int> layers;
    for (const auto* rows : {&data->data.attention, &data->data.answerAttention})
        for (const auto& m : *rows)
            layers.insert(m.layer);
    for (const auto& r : data->data.routing)
        layers.insert(r.layer);
    data->layers.assign(layers.begin(), layers.end());
    return std::shared_ptr<const SessionData>(std::move(data));
}

QImage toQImage(const RgbImage& img) {
    QImage q(img.width, img.height, QImage::Format_RGB888);
    for (int y = 0; y < img.height; ++y)
        std::memcpy(q.scanLine(y), img.rgb.data() + size_t(y) * img.width * 3,
                    size_t(img.width) * 3);
    return q;
}

RgbImage fromQImage(const QImage& source) {
    const QImage q = source.convertToFormat(QImage::Format_RGB888);
    RgbImage img;
    img.width = q.width();
    img.height = q.height();
    img.rgb.resize(size_t(img.width) * img.height * 3);
    for (int y = 0; y < img.height; ++y)
        std::memcpy(img.rgb.data() + size_t(y) * img.width * 3, q.constScanLine(y),
                    size_t(img.width) * 3);
    return img;
}

} // namespace mvp::views
