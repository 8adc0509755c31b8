#include "core/interop/TraceImport.h"

#include "core/interop/NsightReader.h"
#include "core/interop/TraceJson.h"
#include "core/interop/TraceModel.h"
#include "core/interop/TraceRun.h"
#include "core/interop/TraceStream.h"
#include "core/session/RowChecks.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace mvp {

namespace fs = std::filesystem;
using interop::Json;

namespace {
Result<interop::TraceModel> readTrace(const std::string& file, const TraceImportOptions& options,
                                      interop::TraceForm& form) {
    auto stream = interop::TraceStream::open(file);
    if (!stream) return stream.error();
    interop::TraceModel model(fs::path(file).filename().string());
    interop::TraceJsonSink sink;
    sink.event = [&](const interop::TraceEvent& e, int64_t index) -> Status {
        if (auto s = model.add(e, index); !s) return s;
        if (options.progress && index % 4096 == 0 &&
            !options.progress(file, (*stream)->bytesRead(), (*stream)->fileBytes()))
            return makeError(ErrorCode::Cancelled, "import cancelled");
        return Ok{};
    };
    sink.meta = [&](const std::string& key, Json&& value) { model.addMeta(key, std::move(value)); };
    auto parsed = interop::parseTraceJson(**stream, model.file(), sink);
    if (const auto err = (*stream)->readError(); !err.empty())
        return makeError(ErrorCode::BadInput, file + " could not be read: " + err);
    if (!parsed) return parsed.error();
    form = *parsed;
    return model;
}

RunInfo runInfoFor(const std::string& file, const interop::TraceModel& m, const std::string& format,
                   const interop::TraceRunCounts& counts) {
    RunInfo info;
    info.label = "imported";
    info.model = "trace: " + m.file();
    Json config = m.meta();
    config["format"] = format;
    config["source"] = fs::absolute(file).string();
    info.configJson = config.dump(-1, ' ', false, Json::error_handler_t::replace);
    info.imagePath = "";
    info.device = counts.gpu ? "cuda" : "cpu";
    info.dtype = "";
    info.probes = true;
    info.writerPid = int64_t(getpid());
    info.writerHost = hostName();
    if (const auto abs = m.absoluteOriginNs(counts.originNs)) info.startedUtc = isoUtc(*abs);
    return info;
}

std::vector<RunMetricRow> importMetrics(const interop::TraceModel& m,
                                        const interop::TraceRunCounts& c, int64_t& skipped) {
    std::vector<RunMetricRow> out;
    std::string what;
    skipped = 0;
    for (const auto& [kind, n] : m.skipped()) {
        skipped += n;
        what += (what.empty() ? "" : ", ") + kind + " " + std::to_string(n);
    }
    out.push_back(
        {"import.events", double(m.events()), "count", "measured", "events read from " + m.file()});
    out.push_back({"import.skipped", double(skipped), "count", "measured",
                   skipped ? "left out: " + what : "every event was imported"});
    out.push_back({"import.overlapping", double(c.overlapping), "count", "measured",
                   "slices that overlapped an enclosing one on their thread by more than 1 µs, "
                   "so they were nested beside it rather than inside"});
    out.push_back({"energy.available", 0, "", "measured",
                   "n/a: a trace does not record energy (an mvprof capture reads RAPL / NVML)"});
    if (c.gpu)
        out.push_back({"import.linked", double(c.linked), "count", "measured",
                       "GPU kernels, copies and fills linked to their op (External id, else the "
                       "runtime call's correlation id)"});
    if (const auto it = m.meta().find("distributedInfo"); it != m.meta().end() && it->is_object())
        for (const char* key : {"rank", "world_size"})
            if (const auto v = it->find(key); v != it->end() && v->is_number())
                out.push_back({std::string("dist.") + key, v->get<double>(), "count", "measured",
                               "from the trace's distributedInfo"});
    return out;
}

// A file's runs before they are written: a Chrome trace is one, an Nsight
// export one per profiled process.
struct ReadTrace {
    interop::TraceModel model;
    std::string format; // config_json's "format"
};

Result<std::vector<ReadTrace>> readFile(const std::string& file,
                                        const TraceImportOptions& options) {
    std::vector<ReadTrace> out;
    if (interop::isSqliteFile(file)) {
        auto models = interop::readNsight(file);
        if (!models) return models.error();
        for (auto& m : *models)
            out.push_back({std::move(m), "nsight-sqlite"});
        return out;
    }
    interop::TraceForm form{};
    auto model = readTrace(file, options, form);
    if (!model) return model.error();
    interop::addModuleHierarchySpans(*model);
    out.push_back({std::move(*model),
                   form == interop::TraceForm::Object ? "chrome-trace" : "chrome-trace-legacy"});
    return out;
}

// Times are stored from the earliest slice on, so negative timestamps are
// fine; a trace whose slices span more than a session can hold (the
// reader's limit: a damaged or mutated timestamp, as a year-2001 epoch next
// to a negative one) is refused before anything is written, never stored
// for the reader to refuse.
Status checkSpan(const std::string& file, int64_t firstNs, int64_t lastNs) {
    // last ≥ first: their difference is exact in unsigned arithmetic.
    if (uint64_t(lastNs) - uint64_t(firstNs) <= uint64_t(rowcheck::kMaxTimeNs)) return Ok{};
    const auto us = [](int64_t ns) { return std::to_string(ns / 1000); };
    return makeError(ErrorCode::BadInput,
                     file + ": its slices span from ts " + us(firstNs) + " to " + us(lastNs) +
                         " µs, beyond the " +
                         std::to_string(rowcheck::kMaxTimeNs / 86'400'000'000'000) +
                         " days a session holds: a damaged timestamp (fix or drop those events)");
}

Result<ImportedTrace> writeRun(const std::string& file, ReadTrace& t, SessionWriter& w) {
    interop::TraceModel& model = t.model;
    // The run row needs the origin; the rows need the run id: a first
    // pass finds the origin without writing.
    interop::TraceRunCounts pre;
    bool first = true;
    int64_t lastNs = 0;
    for (const auto& r : model.records()) {
        pre.originNs = first ? r.startNs : std::min(pre.originNs, r.startNs);
        lastNs = first ? r.startNs + r.durNs : std::max(lastNs, r.startNs + r.durNs);
        first = false;
        pre.gpu = pre.gpu || interop::isDeviceWork(r.kind);
    }
    if (auto ok = checkSpan(model.file(), pre.originNs, lastNs); !ok) return ok.error();
    auto run = w.beginRun(runInfoFor(file, model, t.format, pre));
    if (!run) return run.error();
    auto counts = interop::writeTraceRun(model, w, *run);
    if (!counts) return counts.error();
    ImportedTrace out{model.file(),       *run,           model.events(),
                      counts->ops,        counts->spans,  counts->modules,
                      counts->activities, counts->linked, 0};
    Batch metrics;
    metrics.run = *run;
    metrics.runMetrics = importMetrics(model, *counts, out.skipped);
    w.submit(std::move(metrics));
    RunResult result;
    result.wallNs = counts->wallNs;
    if (auto s = w.endRun(*run, result); !s) return s.error();
    return out;
}

} // namespace

bool looksLikeTraceFile(const std::string& path) {
    const auto ends = [&](const char* s) {
        const std::string suffix(s);
        return path.size() >= suffix.size() &&
               path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends(".json") || ends(".json.gz") || ends(".sqlite");
}

Result<std::vector<ImportedTrace>> importTraces(const std::vector<std::string>& files,
                                                const std::string& out,
                                                const TraceImportOptions& options) {
    if (files.empty()) return makeError(ErrorCode::BadInput, "no trace files to import");
    const auto mode =
        options.overwrite ? SessionWriter::Mode::Overwrite : SessionWriter::Mode::CreateNew;
    if (auto s = SessionWriter::checkTarget(out, mode); !s) return s.error();
    const std::string partial = out + ".partial";
    removeSessionFiles(partial);
    std::vector<ImportedTrace> done;
    auto result = [&]() -> Status {
        auto writer = SessionWriter::open(partial, SessionWriter::Mode::Overwrite);
        if (!writer) return writer.error();
        for (const auto& f : files) {
            auto read = readFile(f, options);
            if (!read) return read.error();
            for (auto& t : *read) {
                auto one = writeRun(f, t, **writer);
                if (!one) return one.error();
                done.push_back(std::move(*one));
            }
        }
        return (*writer)->close();
    }();
    if (!result) {
        removeSessionFiles(partial);
        return result.error();
    }
    std::error_code ec;
    fs::rename(partial, out, ec);
    if (ec) {
        removeSessionFiles(partial);
        return makeError(ErrorCode::Io,
                         "could not move the session into place at " + out + ": " + ec.message());
    }
    return done;
}

} // namespace mvp
