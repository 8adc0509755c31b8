#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "core/analysis/Analysis.h"
#include "core/analysis/PatchMetrics.h"
#include "core/report/ChromeTrace.h"
#include "core/report/PerfettoTrace.h"
#include "core/session/SessionReader.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace mvp::cli {

namespace {
// What to export, as the options say.
struct ExportRequest {
    std::string session, png, csv, chromeTrace, perfetto, metric = "attention", layers = "all",
                                                          colormap = "viridis";
    std::optional<int64_t> run;
    double opacity = 0.6;
    bool legend = false, force = false;
};

// Declares export's options on `cli`, bound to `r`.
void addExportOptions(CommandLine& cli, ExportRequest& r) {
    auto& app = cli.app;
    app.add_option("--heatmap", r.png,
                   "the input image with the heatmap overlaid, at the stored image's resolution");
    app.add_option("--csv", r.csv,
                   "the raw patch grid (one line per patch row), summed over the "
                   "layers");
    app.add_option("--metric", r.metric,
                   "attention (default; measured), answer_attention (from the queries that "
                   "generate the answer; measured), expert_flops (estimated), latency (measured), "
                   "saliency (needs --attn-layers at capture) or waste (cost without attention)");
    app.add_option("--layers", r.layers, "decoder layers to sum (N, A-B or all; default all)");
    app.add_option("--chrome-trace", r.chromeTrace,
                   "a Chrome trace (JSON) for the Perfetto UI or chrome://tracing: phases, "
                   "module spans, ops, tokens and routing, a process per run");
    app.add_option("--perfetto", r.perfetto,
                   "the same trace as Perfetto protobuf (.pftrace): several times smaller, for "
                   "sessions too large for JSON");
    app.add_option("--run", r.run,
                   "the run (default: the first; for --chrome-trace and --perfetto, every run)");
    app.add_option("--colormap", r.colormap, "viridis (default), magma or turbo")
        ->check(oneOf({"viridis", "magma", "turbo"}));
    app.add_option("--opacity", r.opacity, "overlay opacity in [0, 1] (default 0.6)")
        ->check(inRange(0, 1));
    app.add_flag("--legend", r.legend,
                 "add a colour bar on the right (metric, provenance, unit, range); without it the "
                 "overlay has exactly the stored image's size");
    app.add_flag("--force", r.force, "replace existing output files");
}

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

// The work: the run's heat grid of the metric, written as CSV and/or a PNG overlay.
int exportHeatmap(const ExportRequest& req, LayerRange range) {
    const auto map = colormapFromName(req.colormap);
    if (!map) return fail(2, "unknown colormap: use viridis, magma or turbo");
    const std::string& metric = req.metric;
    auto reader = SessionReader::open(req.session);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto runs = (*reader)->runs();
    if (!runs) return fail(runs.error().exitCode(), runs.error().message);
    if (runs->empty()) return fail(2, req.session + " has no runs to export");
    const int64_t runId = req.run.value_or(runs->front().id);
    if (auto r = (*reader)->run(runId); !r) return fail(r.error().exitCode(), r.error().message);
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
    auto grids = computePatchMetrics(*data, range);
    if (!grids.count(metric)) {
        if (metric == "attention") {
            // Name the layers that exist.
            auto check = gridFromMetrics(data->attention, *data->grid, range);
            return fail(2,
                        check ? "no attention values in that layer range" : check.error().message);
        }
        return fail(2, "run " + std::to_string(runId) + " has no '" + metric +
                           "' values in that layer range" +
                           (metric == "saliency" ? " (capture with --attn-layers to get saliency)"
                            : metric == "answer_attention"
                                ? " (recorded by the built-in model's captures with probes; older "
                                  "sessions, TorchScript and Python runs do not have it yet)"
                                : ""));
    }
    const HeatGrid* heat = &grids[metric];

    if (!req.csv.empty())
        if (auto s = writeText(req.csv, gridCsv(*heat)); !s)
            return fail(s.error().exitCode(), s.error().message);
    if (!req.png.empty()) {
        auto image = (*reader)->image(runId);
        if (!image) return fail(image.error().exitCode(), image.error().message);
        if (!*image) return fail(2, "run " + std::to_string(runId) + " has no stored image");
        auto rgb = decodeImage((*image)->png, "the stored image");
        if (!rgb) return fail(1, rgb.error().message);
        RgbImage overlay = renderOverlay(*rgb, normalised(*heat), *map, req.opacity);
        const std::string layers = req.layers == "all" ? "all layers" : req.layers;
        if (req.legend)
            overlay =
                withColourBar(overlay, *map,
                              heatLegend(*heatMetric(metric), *heat,
                                         req.layers == "all" ? layers : "layers " + req.layers));
        if (auto s = writePng(req.png, overlay); !s)
            return fail(s.error().exitCode(), s.error().message);
        std::printf("Wrote %s (%d×%d, %s, %s of %s)\n", req.png.c_str(), overlay.width,
                    overlay.height, colormapName(*map), metric.c_str(), layers.c_str());
    }
    if (!req.csv.empty())
        std::printf("Wrote %s (%d×%d patch grid)\n", req.csv.c_str(), heat->rows, heat->cols);
    return 0;
}

// The work of --chrome-trace: the chosen run (or every run) as a trace file.
void printSummary(const std::string& path, const ChromeTraceSummary& s);

int exportChromeTrace(const ExportRequest& req) {
    auto reader = SessionReader::open(req.session);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    std::vector<int64_t> runs;
    if (req.run) runs.push_back(*req.run);
    auto sum = writeChromeTrace(**reader, runs, req.chromeTrace);
    if (!sum) return fail(sum.error().exitCode(), sum.error().message);
    printSummary(req.chromeTrace, *sum);
    return 0;
}

int exportPerfetto(const ExportRequest& req) {
    auto reader = SessionReader::open(req.session);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    std::vector<int64_t> runs;
    if (req.run) runs.push_back(*req.run);
    auto sum = writePerfettoTrace(**reader, runs, req.perfetto);
    if (!sum) return fail(sum.error().exitCode(), sum.error().message);
    printSummary(req.perfetto, *sum);
    return 0;
}

void printSummary(const std::string& path, const ChromeTraceSummary& s) {
    std::printf("Wrote %s (%lld events: %lld phases, %lld module spans, %lld ops, %lld tokens, "
                "%lld routing counters, %lld GPU/API activities)\n",
                path.c_str(), static_cast<long long>(s.events), static_cast<long long>(s.phases),
                static_cast<long long>(s.spans), static_cast<long long>(s.ops),
                static_cast<long long>(s.tokens), static_cast<long long>(s.counters),
                static_cast<long long>(s.activities));
}
} // namespace

int exportCommand(const std::vector<std::string>& argv) {
    CommandLine cli("export",
                    "mvprof-cli export FILE --heatmap OUT.png | --chrome-trace OUT.json | "
                    "--perfetto OUT.pftrace [options] — the patch heatmap, or a trace "
                    "for Perfetto");
    ExportRequest req;
    addExportOptions(cli, req);
    if (auto exit = cli.parse(argv)) return *exit;
    if (cli.positional.size() != 1)
        return fail(2, "export needs exactly one session file (see --help)");
    req.session = cli.positional[0];
    if (req.png.empty() && req.csv.empty() && req.chromeTrace.empty() && req.perfetto.empty())
        return fail(2, "nothing to export: pass --heatmap OUT.png, --csv OUT.csv, "
                       "--chrome-trace OUT.json and/or --perfetto OUT.pftrace");
    for (const auto& out : {req.png, req.csv, req.chromeTrace, req.perfetto})
        if (!out.empty() && exists(out) && !req.force)
            return fail(2, out + " already exists: choose another name or pass --force");
    if (!req.chromeTrace.empty())
        if (const int rc = exportChromeTrace(req); rc != 0) return rc;
    if (!req.perfetto.empty())
        if (const int rc = exportPerfetto(req); rc != 0) return rc;
    if (req.png.empty() && req.csv.empty()) return 0;
    auto range = parseLayerRange(req.layers);
    if (!range) return fail(2, range.error().message);
    return exportHeatmap(req, *range);
}

} // namespace mvp::cli
