#pragma once
// Everything the views show about one run, loaded in one go off the GUI
// thread. The views never run SQL: they read this.

#include "core/Result.h"
#include "core/analysis/Analysis.h"
#include "core/analysis/Timeline.h"

#include <QImage>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace mvp::views {

struct SessionData {
    QString path;
    std::vector<RunInfo> runs;
    int64_t runId = 0;                     // the run shown
    RunData data;                          // the run's rows
    RunAnalysis analysis;                  // everything computed from them
    Timeline timeline;                     // gate/expert lanes, built off the GUI thread
    QImage image;                          // the stored input image (null if none)
    std::optional<PatchGridRow> grid;      // = data.grid
    std::vector<PatchMetricRow> attention; // = data.attention: metric "attention", all layers
    std::vector<int> layers;               // decoder layers with heatmap values (attention, routing)
};

// The session File → Open shows for a torch.profiler trace (.json, .json.gz):
// imported into the user's cache (one session per trace path), again only
// when the trace is newer than it. `stale` stops the import.
Result<QString> sessionForTrace(const QString& tracePath, const std::function<bool()>& stale);

// Opens `path` and loads run `runId` (0: the first). Safe to call from any thread.
Result<std::shared_ptr<const SessionData>> loadSession(const QString& path, int64_t runId = 0);

// Converts between core's RGB images and QImage.
QImage toQImage(const RgbImage& img);
RgbImage fromQImage(const QImage& img);

} // namespace mvp::views
