// The C ABI (mvprof_capture.h) over SessionWriter and Recorder. Every entry
// point catches: an exception never crosses into the host (Python), it
// becomes an error code and a message.
#include "capture/HostRoofline.h"
#include "capture/OpProbe.h"
#include "capture/Recorder.h"
#include "capture/SystemInfo.h"
#include "capture/api/mvprof_capture.h"
#include "core/image/Image.h"
#include "core/session/ModuleRoles.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <ATen/Parallel.h>
#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>

struct mvprof_session {
    std::unique_ptr<mvp::SessionWriter> writer;
    std::optional<int64_t> run;
    std::unique_ptr<mvp::Recorder> recorder;
    mvp::Batch rows; // routing, tokens and metrics until the run ends
};

namespace {

thread_local std::string tlsError;

int fail(int code, std::string message) {
    tlsError = std::move(message);
    return code;
}

int fail(const mvp::Error& e) {
    return fail(e.code == mvp::ErrorCode::Io ? MVPROF_IO : MVPROF_BAD_INPUT, e.message);
}

std::string text(const char* s) {
    return s ? std::string(s) : std::string();
}

// Runs `f` with the session checked, turning exceptions into error codes.
template <typename F> int guarded(mvprof_session* s, bool needsRun, F f) {
    if (!s) return fail(MVPROF_BAD_INPUT, "no session (mvprof_open failed or was not called)");
    if (needsRun && !s->recorder)
        return fail(MVPROF_BAD_INPUT, "no run is open: call mvprof_begin_run first");
    try {
        return f();
    } catch (const std::exception& e) {
        return fail(MVPROF_INTERNAL, std::string("internal error: ") + e.what());
    }
}

std::optional<mvp::ImageRow> imageRow(const std::string& path) {
    auto img = mvp::loadImage(path);
    if (!img) return std::nullopt;
    const auto stored = mvp::fitWithin(*img, 4096);
    auto png = mvp::encodePng(stored);
    if (!png) return std::nullopt;
    return mvp::ImageRow{path,       stored.width, stored.height,
                         img->width, img->height,  std::move(png.value())};
}

int endRun(mvprof_session* s, mvp::RunStatus status, const std::string& error) {
    mvp::Recorder& rec = *s->recorder;
    rec.endPhase();
    rec.stopOps();
    s->rows.run = *s->run;
    rec.submit(std::move(s->rows));
    s->rows = mvp::Batch();
    rec.flush();
    mvp::RunResult r;
    r.status = status;
    r.error = error;
    r.wallNs = rec.lastPhaseEndNs();
    r.peakRssBytes = mvp::sysinfo::peakRssBytes();
    s->recorder.reset();
    const auto done = s->writer->endRun(*s->run, r);
    s->run.reset();
    return done ? MVPROF_OK : fail(done.error());
}

} // namespace

extern "C" {

int mvprof_abi_version(void) {
    return MVPROF_ABI_VERSION;
}

const char* mvprof_last_error(void) {
    return tlsError.c_str();
}

int mvprof_open(const char* path, int force, mvprof_session** out) {
    if (!path || !out) return fail(MVPROF_BAD_INPUT, "mvprof_open needs a path and an out pointer");
    *out = nullptr;
    try {
        namespace fs = std::filesystem;
        std::error_code ec;
        const bool exists = fs::exists(path, ec);
        if (exists && force) fs::remove(path, ec);
        auto w =
            mvp::SessionWriter::open(path, exists && !force ? mvp::SessionWriter::Mode::Append
                                                            : mvp::SessionWriter::Mode::CreateNew);
        if (!w) return fail(w.error());
        *out = new mvprof_session{std::move(w.value()), {}, {}, {}};
        return MVPROF_OK;
    } catch (const std::exception& e) {
        return fail(MVPROF_INTERNAL, std::string("internal error: ") + e.what());
    }
}

int mvprof_begin_run(mvprof_session* s, const char* model, const char* prompt,
                     const char* image_path, const char* config_json, int record_ops) {
    return guarded(s, false, [&]() -> int {
        if (s->run) return fail(MVPROF_BAD_INPUT, "a run is already open: end it first");
        mvp::RunInfo info;
        info.model = text(model).empty() ? std::string("python") : text(model);
        info.configJson = text(config_json).empty() ? std::string("{}") : text(config_json);
        info.prompt = text(prompt);
        info.imagePath = text(image_path);
        info.device = "cpu";
        info.dtype = "float32";
        info.blas = mvp::sysinfo::blasLibrary();
        info.threads = at::get_num_threads();
        info.probes = true;
        info.writerPid = ::getpid();
        info.writerHost = mvp::hostName();
        info.startedUtc = mvp::sysinfo::utcNow();
        auto id = s->writer->beginRun(info);
        if (!id) return fail(id.error());
        s->run = *id;
        s->recorder = std::make_unique<mvp::Recorder>(*s->writer, *id, record_ops != 0);
        if (!info.imagePath.empty())
            if (auto img = imageRow(info.imagePath)) s->rows.image = std::move(img);
        s->rows.device = mvp::hostDevice(); // the roofline's ceilings, measured once per machine
        (void)mvp::sysinfo::resetPeakRss();
        s->recorder->startOps();
        return MVPROF_OK;
    });
}

int mvprof_set_patch_grid(mvprof_session* s, int grid_h, int grid_w, int patch, int input_size,
                          int first_position) {
    return guarded(s, true, [&]() -> int {
        if (grid_h < 1 || grid_w < 1 || grid_h > 1024 || grid_w > 1024 || first_position < 0)
            return fail(MVPROF_BAD_INPUT, "the patch grid must be 1..1024 on each side");
        s->rows.patchGrid = mvp::PatchGridRow{grid_h, grid_w, patch, input_size, first_position};
        return MVPROF_OK;
    });
}

int mvprof_begin_phase(mvprof_session* s, const char* phase, int step) {
    return guarded(s, true, [&]() -> int {
        static const char* kPhases[] = {"preprocess", "h2d",     "vision",
                                        "projector",  "prefill", "decode"};
        const std::string p = text(phase);
        if (std::find(std::begin(kPhases), std::end(kPhases), p) == std::end(kPhases))
            return fail(MVPROF_BAD_INPUT, "unknown phase '" + p +
                                              "': use preprocess, h2d, vision, projector, "
                                              "prefill or decode");
        s->recorder->beginPhase(p, p == "decode" ? std::max(step, 1) : 0);
        return MVPROF_OK;
    });
}

int mvprof_begin_module(mvprof_session* s, const char* path, const char* kind, const char* role) {
    return guarded(s, true, [&]() -> int {
        s->recorder->enterModule(
            text(path), text(kind),
            mvp::moduleRoleFromString(text(role)).value_or(mvp::ModuleRole::None));
        return MVPROF_OK;
    });
}

int mvprof_end_module(mvprof_session* s) {
    return guarded(s, true, [&]() -> int {
        s->recorder->exit();
        return MVPROF_OK;
    });
}

int mvprof_pause_ops(mvprof_session* s, int pause) {
    return guarded(s, true, [&]() -> int {
        // The probe's callbacks see no recorder, at start and end alike.
        mvp::probe::setThreadRecorder(pause ? nullptr : s->recorder.get());
        return MVPROF_OK;
    });
}

int mvprof_add_routing(mvprof_session* s, int layer, int token, int rank, int expert, double weight,
                       const char* modality) {
    return guarded(s, true, [&]() -> int {
        if (token < 0 || rank < 0 || expert < 0)
            return fail(MVPROF_BAD_INPUT, "routing rows need non-negative token, rank and expert");
        const mvp::Recorder& r = *s->recorder;
        if (layer < 0) layer = r.innermostLayer().value_or(0);
        s->rows.routing.push_back(mvp::RoutingRow{layer, r.phase(), r.step(), token,
                                                  text(modality).empty() ? "text" : text(modality),
                                                  rank, expert, weight});
        return MVPROF_OK;
    });
}

int mvprof_add_token(mvprof_session* s, int position, const char* modality, int token_id,
                     int patch) {
    return guarded(s, true, [&]() -> int {
        const mvp::Recorder& r = *s->recorder;
        s->rows.tokens.push_back(
            mvp::TokenRow{position, r.phase(), r.step(), text(modality), token_id, patch});
        return MVPROF_OK;
    });
}

int mvprof_add_metric(mvprof_session* s, const char* name, double value, const char* unit,
                      const char* note) {
    return guarded(s, true, [&]() -> int {
        s->rows.runMetrics.push_back({text(name), value, text(unit), "measured", text(note)});
        return MVPROF_OK;
    });
}

int mvprof_end_run(mvprof_session* s, int status, const char* error) {
    return guarded(s, true, [&]() -> int {
        const auto st = status == MVPROF_COMPLETE     ? mvp::RunStatus::Complete
                        : status == MVPROF_INCOMPLETE ? mvp::RunStatus::Incomplete
                                                      : mvp::RunStatus::Failed;
        return endRun(s, st, text(error));
    });
}

int mvprof_close(mvprof_session* s) {
    if (!s) return MVPROF_OK;
    int rc = MVPROF_OK;
    try {
        if (s->recorder) rc = endRun(s, mvp::RunStatus::Failed, "the session was closed mid-run");
        if (auto c = s->writer->close(); !c && rc == MVPROF_OK) rc = fail(c.error());
    } catch (const std::exception& e) {
        rc = fail(MVPROF_INTERNAL, std::string("internal error: ") + e.what());
    }
    delete s;
    return rc;
}

} // extern "C"
