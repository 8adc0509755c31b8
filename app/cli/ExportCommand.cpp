#include "app/cli/Args.h"
#include "app/cli/Commands.h"
#include "core/analysis/Analysis.h"
#include "core/analysis/PatchMetrics.h"
#include "core/session/SessionReader.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace mvp::cli {

namespace {
constexpr const char* kHelp =
    R"(mvprof-cli export FILE --heatmap OUT.png [options] — the patch heatmap

  --heatmap OUT.png   the input image with the heatmap overlaid, at the stored image's resolution
  --csv OUT.csv       the raw patch grid (one line per patch row), summed over the layers
  --metric NAME       attention (default; measured), expert_flops (estimated), latency (measured),
                      saliency (needs --attn-layers at capture) or waste (cost without attention)
  --layers A-B        decoder layers to sum (N, A-B or all; default all)
  --run ID            the run (default: the first)
  --colormap NAME     viridis (default), magma or turbo
  --opacity X         overlay opacity in [0, 1] (default 0.6)
  --legend            add a colour bar on the right (metric, provenance, unit, range); without it
                      the overlay has exactly the stored image's size
  --force             replace existing output files
)";

Status writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return makeError(ErrorCode::Io,
                         "cannot write " + path + ": check the folder exists and is writable");
    out << text;
    out.close();
    if (!out) return makeError(ErrorCode::Io, "writing " + path + " failed (disk full?)");
    return Ok{};
}

bool exists(const std::string& path) {
    return std::ifstream(path).good();
}
} // namespace

int exportCommand(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(
        argv, {"--heatmap", "--csv", "--metric", "--layers", "--run", "--colormap", "--opacity"},
        {"--force", "--legend", "--help", "-h"});
    if (!parsed) return fail(2, parsed.error().message);
    const Args& a = *parsed;
    if (a.has("--help") || a.has("-h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (a.positional.size() != 1)
        return fail(2, "export needs exactly one session file (see --help)");
    const auto png = a.value("--heatmap"), csv = a.value("--csv");
    if (!png && !csv)
        return fail(2, "nothing to export: pass --heatmap OUT.png and/or --csv OUT.csv");
    for (const auto& out : {png, csv})
        if (out && exists(*out) && !a.has("--force"))
            return fail(2, *out + " already exists: choose another name or pass --force");
    const std::string metric = a.value("--metric").value_or("attention");
    auto range = parseLayerRange(a.value("--layers").value_or("all"));
    if (!range) return fail(2, range.error().message);
    const auto map = colormapFromName(a.value("--colormap").value_or("viridis"));
    if (!map) return fail(2, "unknown colormap: use viridis, magma or turbo");
    auto opacity = a.doubleValue("--opacity", 0.6);
    if (!opacity || *opacity < 0 || *opacity > 1)
        return fail(2, "--opacity must be a number in [0, 1]");

    auto reader = SessionReader::open(a.positional[0]);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto runs = (*reader)->runs();
    if (!runs) return fail(runs.error().exitCode(), runs.error().message);
    if (runs->empty()) return fail(2, a.positional[0] + " has no runs to export");
    int64_t runId = runs->front().id;
    if (a.has("--run")) {
        auto id = a.intValue("--run", 0);
        if (!id) return fail(2, id.error().message);
        runId = *id;
        if (auto r = (*reader)->run(runId); !r)
            return fail(r.error().exitCode(), r.error().message);
    }
    auto data = loadRunData(**reader, runId);
    if (!data) return fail(data.error().exitCode(), data.error().message);
    if (!data->grid)
        return fail(2, "run " + std::to_string(runId) +
                           " has no patch grid (it stopped before the image was processed)");
    if (data->attention.empty())
        return fail(2, "run " + std::to_string(runId) +
                           " has no patch values (was it captured with --no-probes?)");
    const auto metrics = heatmapMetrics();
    if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end())
        return fail(2, "unknown metric '" + metric +
                           "': use attention, expert_flops, latency, saliency or waste");
    auto grids = computePatchMetrics(*data, *range);
    if (!grids.count(metric)) {
        if (metric == "attention") {
            // Name the layers that exist.
            auto check = gridFromMetrics(data->attention, *data->grid, *range);
            return fail(2,
                        check ? "no attention values in that layer range" : check.error().message);
        }
        return fail(
            2, "run " + std::to_string(runId) + " has no '" + metric +
                   "' values in that layer range" +
                   (metric == "saliency" ? " (capture with --attn-layers to get saliency)" : ""));
    }
    const HeatGrid* heat = &grids[metric];

    if (csv)
        if (auto s = writeText(*csv, gridCsv(*heat)); !s)
            return fail(s.error().exitCode(), s.error().message);
    if (png) {
        auto image = (*reader)->image(runId);
        if (!image) return fail(image.error().exitCode(), image.error().message);
        if (!*image) return fail(2, "run " + std::to_string(runId) + " has no stored image");
        auto rgb = decodeImage((*image)->png, "the stored image");
        if (!rgb) return fail(1, rgb.error().message);
        RgbImage overlay = renderOverlay(*rgb, normalised(*heat), *map, *opacity);
        if (a.has("--legend"))
            overlay = withColourBar(
                overlay, *map,
                heatLegend(*heatMetric(metric), *heat,
                           a.has("--layers") ? "layers " + *a.value("--layers") : "all layers"));
        if (auto s = writePng(*png, overlay); !s)
            return fail(s.error().exitCode(), s.error().message);
        std::printf("Wrote %s (%d×%d, %s, %s of %s)\n", png->c_str(), overlay.width, overlay.height,
                    colormapName(*map), metric.c_str(),
                    a.value("--layers").value_or("all layers").c_str());
    }
    if (csv) std::printf("Wrote %s (%d×%d patch grid)\n", csv->c_str(), heat->rows, heat->cols);
    return 0;
}

} // namespace mvp::cli
