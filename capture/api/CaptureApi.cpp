// The C ABI (mvprof_capture.h) over SessionWriter and Recorder. Every entry
// point catches: an exception never crosses into the host (Python), it
// becomes an error code and a message.
#include "capture/api/ApiSession.h"
#include "capture/machine/HostRoofline.h"
#include "capture/machine/SystemInfo.h"
#include "core/ErrorText.h"
#include "core/image/Image.h"
#include "core/session/ModuleRoles.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <ATen/Parallel.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <torch/cuda.h>
#include <unistd.h>

namespace mvp::api {

namespace {
thread_local std::string tlsError;
}

int fail(int code, std::string message) {
    tlsError = std::move(message);
    return code;
}

const char* lastError() {
    return tlsError.c_str();
}

void finishRecording(mvprof_session& s) {
    if (s.recordingFinished) return;
    s.recordingFinished = true;
    Recorder& rec = *s.recorder;
    rec.endPhase();
    rec.stopOps();
    rec.setObserver(nullptr);
    if (s.gpu) s.gpu->finish(rec, s.rows); // the caller's phases waited for the GPU
}

int fail(const Error& e) {
    return fail(e.code == ErrorCode::Io ? MVPROF_IO : MVPROF_BAD_INPUT, e.message);
}

RunInfo runInfo(const mvprof_run_info& in) {
    RunInfo info;
    info.model = text(in.model).empty() ? std::string("python") : text(in.model);
    info.label = text(in.transform).empty() ? "baseline" : text(in.transform);
    info.transform = text(in.transform);
    if (in.baseline_run > 0) info.baselineRun = in.baseline_run;
    info.configJson = text(in.config_json).empty() ? std::string("{}") : text(in.config_json);
    info.prompt = text(in.prompt);
    info.imagePath = text(in.image_path);
    info.device = text(in.device).empty() ? std::string("cpu") : text(in.device);
    info.dtype = text(in.dtype).empty() ? std::string("float32") : text(in.dtype);
    info.blas = sysinfo::blasLibrary();
    info.threads = at::get_num_threads();
    info.probes = true;
    info.writerPid = ::getpid();
    info.writerHost = hostName();
    info.startedUtc = sysinfo::utcNow();
    return info;
}

} // namespace mvp::api

using mvp::api::fail;
using mvp::api::guarded;
using mvp::api::text;

namespace {

// The image as the session stores it; a file that cannot be read is refused
// before the run begins, never silently dropped.
mvp::Result<mvp::ImageRow> imageRow(const std::string& path, const unsigned char* data,
                                    long long size) {
    auto img = data ? mvp::decodeImage(std::vector<uint8_t>(data, data + size), path)
                    : mvp::loadImage(path);
    if (!img) return img.error();
    const auto stored = mvp::fitWithin(*img, 4096);
    auto png = mvp::encodePng(stored);
    if (!png) return png.error();
    return mvp::ImageRow{path,       stored.width, stored.height,
                         img->width, img->height,  std::move(png.value())};
}

// The attention heatmap's rows, and whether it could be read.
void addAttentionRows(mvprof_session& s) {
    if (!s.attention) return;
    auto attention = s.attention->metrics();
    s.rows.patchMetrics.insert(s.rows.patchMetrics.end(), attention.begin(), attention.end());
    const bool saw = s.attention->sawAttention();
    s.rows.runMetrics.push_back(
        {"roles.attention_observed", saw ? 1.0 : 0.0, "", "measured",
         saw ? "softmax probabilities inside the attention role's modules"
             : "no softmax over the sequence ran inside a module of the attention role (a fused "
               "attention kernel shows none, and the visual tokens must be declared)"});
}

// The CUDA device index of a run's device ("cuda", "cuda:1"); nullopt off CUDA.
std::optional<int> cudaIndex(const std::string& device) {
    if (device.rfind("cuda", 0) != 0) return std::nullopt;
    if (device.size() > 5 && device[4] == ':') return std::atoi(device.c_str() + 5);
    return 0;
}

// How a CUDA run's spans are timed: CUDA events where the caller names nothing.
std::optional<mvp::cuda::DeviceTiming> deviceTiming(const char* name) {
    return name ? mvp::cuda::parseDeviceTiming(name) : mvp::cuda::DeviceTiming::Events;
}

// The roofline's ceilings: the CPU's, measured once per machine, or the run's
// GPU's in its dtype (where libtorch sees it; a failed micro-benchmark — the
// user's model may leave no room for it — keeps the name and says why).
mvp::DeviceRow runDevice(std::optional<int> gpu, const std::string& dtype) {
    if (!gpu || *gpu >= int(torch::cuda::device_count())) return mvp::hostDevice();
    try {
        return mvp::gpuDevice(*gpu, dtype);
    } catch (const std::exception& e) {
        mvp::DeviceRow d;
        d.name = "GPU: cuda:" + std::to_string(*gpu);
        d.source = "not measured: " + mvp::firstLine(e);
        return d;
    }
}

int endRun(mvprof_session* s, mvp::RunStatus status, const std::string& error) {
    mvp::Recorder& rec = *s->recorder;
    s->counters.reset(); // replays the caller never ended are not counted
    mvp::api::finishRecording(*s);
    addAttentionRows(*s);
    for (auto& m : rec.runMetrics())
        s->rows.runMetrics.push_back(std::move(m));
    s->attention.reset();
    s->rows.run = *s->run;
    rec.submit(std::move(s->rows));
    s->rows = mvp::Batch();
    rec.flush();
    mvp::RunResult r;
    r.status = status;
    r.error = error;
    r.wallNs = rec.lastPhaseEndNs();
    r.peakRssBytes = mvp::sysinfo::peakRssBytes();
    r.steps = s->decodeSteps;
    s->recorder.reset();
    s->gpu.reset(); // after the recorder, which reads its timer and energy meter
    s->announcement.reset();
    const int64_t run = *s->run;
    s->run.reset();
    if (const auto done = s->writer->endRun(run, r); !done) return fail(done.error());
    if (s->quantised.empty() || !s->baselineRun || status != mvp::RunStatus::Complete)
        return MVPROF_OK;
    const auto predicted = mvp::api::storeLatencyPrediction(*s, run);
    s->quantised.clear();
    return predicted ? MVPROF_OK : fail(predicted.error());
}

} // namespace

extern "C" {

int mvprof_abi_version(void) {
    return MVPROF_ABI_VERSION;
}

const char* mvprof_last_error(void) {
    return mvp::api::lastError();
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
        auto* session = new mvprof_session();
        session->writer = std::move(w.value());
        *out = session;
        return MVPROF_OK;
    } catch (const std::exception& e) {
        return fail(MVPROF_INTERNAL, std::string("internal error: ") + e.what());
    }
}

int mvprof_begin_run(mvprof_session* s, const mvprof_run_info* in, long long* run_id) {
    return guarded(s, false, [&]() -> int {
        if (!in) return fail(MVPROF_BAD_INPUT, "mvprof_begin_run needs the run's description");
        if (s->run) return fail(MVPROF_BAD_INPUT, "a run is already open: end it first");
        if (s->eval) return fail(MVPROF_BAD_INPUT, "an eval is open: end it first");
        mvp::RunInfo info = mvp::api::runInfo(*in);
        const auto timing = deviceTiming(in->device_timing);
        if (!timing)
            return fail(MVPROF_BAD_INPUT,
                        "device_timing must be \"events\", \"exact\" or \"off\", not \"" +
                            std::string(in->device_timing) + "\"");
        if (info.baselineRun)
            if (auto ok = mvp::api::checkBaseline(*s, *info.baselineRun); !ok)
                return fail(ok.error());
        if (in->image_data && (in->image_size < 1 || in->image_size > int64_t(1) << 30))
            return fail(MVPROF_BAD_INPUT, "the image's bytes must be 1 byte .. 1 GiB");
        if (in->image_data && info.imagePath.empty()) info.imagePath = "(image bytes)";
        mvp::Batch rows;
        if (!info.imagePath.empty()) {
            auto img = imageRow(info.imagePath, in->image_data, in->image_size);
            if (!img) return fail(MVPROF_BAD_INPUT, img.error().message); // names file and fix
            rows.image = std::move(img.value());
        }
        auto id = s->writer->beginRun(info);
        if (!id) return fail(id.error());
        s->run = *id;
        s->baselineRun = info.baselineRun;
        s->quantised.clear();
        s->modules.clear();
        s->decodeSteps = 0;
        s->recorder = std::make_unique<mvp::Recorder>(*s->writer, *id, in->record_ops != 0);
        if (in->record_attention) {
            s->attention = std::make_unique<mvp::AttentionObserver>();
            s->recorder->setObserver(s->attention.get());
        }
        s->announcement = std::make_unique<mvp::LiveRunAnnouncement>(s->writer->path(), info.model,
                                                                     *id, info.startedUtc);
        s->rows = std::move(rows);
        const std::optional<int> gpu = cudaIndex(info.device);
        s->gpuIndex = gpu;
        s->recordingFinished = false;
        s->rows.device = runDevice(gpu, info.dtype);
        s->rows.runMetrics.push_back(mvp::sysinfo::startRunMemory());
        if (gpu)
            s->gpu = std::make_unique<mvp::GpuObservation>(*s->recorder, *gpu,
                                                           in->no_gpu_trace == 0, *timing);
        s->recorder->startOps();
        if (run_id) *run_id = *id;
        return MVPROF_OK;
    });
}

int mvprof_begin_phase(mvprof_session* s, const char* phase, int step) {
    return guarded(s, true, [&]() -> int {
        if (s->recordingFinished)
            return fail(MVPROF_BAD_INPUT, "this run's recording has ended (its hardware "
                                          "counters are being read): end the run");
        const auto known = mvp::phaseFromString(text(phase));
        if (!known || *known == mvp::Phase::None)
            return fail(MVPROF_BAD_INPUT, "unknown phase '" + text(phase) +
                                              "': use preprocess, h2d, vision, projector, "
                                              "prefill or decode");
        const mvp::Phase p = *known;
        const bool decode = p == mvp::Phase::Decode;
        s->recorder->beginPhase(p, decode ? std::max(step, 1) : 0);
        if (decode) s->decodeSteps = std::max(s->decodeSteps, std::max(step, 1));
        if (s->attention) {
            s->attention->beginPass(p);
            s->recorder->observerChanged();
        }
        return MVPROF_OK;
    });
}

namespace {
// Opens a span of a module call; attention modules are also told to the observer.
int enterModule(mvprof_session* s, const std::string& path, const std::string& kind,
                mvp::ModuleRole role) {
    s->recorder->enterModule(path, kind, role);
    if (s->attention && role == mvp::ModuleRole::Attention)
        s->attention->noteModule(*s->recorder->innermostModule(), role,
                                 s->recorder->innermostLayer());
    return MVPROF_OK;
}
} // namespace

int mvprof_begin_module(mvprof_session* s, const char* path, const char* kind, const char* role) {
    return guarded(s, true, [&]() -> int {
        const auto r = mvp::moduleRoleFromString(text(role)).value_or(mvp::ModuleRole::None);
        return enterModule(s, text(path), text(kind), r);
    });
}

int mvprof_declare_module(mvprof_session* s, const char* path, const char* kind, const char* role,
                          int* handle) {
    return guarded(s, true, [&]() -> int {
        if (!handle) return fail(MVPROF_BAD_INPUT, "mvprof_declare_module needs an out pointer");
        const auto r = mvp::moduleRoleFromString(text(role)).value_or(mvp::ModuleRole::None);
        *handle = int(s->modules.size());
        s->modules.push_back({text(path), text(kind), r});
        return MVPROF_OK;
    });
}

int mvprof_enter_module(mvprof_session* s, int handle) {
    return guarded(s, true, [&]() -> int {
        if (handle < 0 || size_t(handle) >= s->modules.size())
            return fail(MVPROF_BAD_INPUT, "module handle " + std::to_string(handle) +
                                              " was not declared in this run "
                                              "(mvprof_declare_module)");
        const auto& m = s->modules[size_t(handle)];
        return enterModule(s, m.path, m.kind, m.role);
    });
}

int mvprof_end_module(mvprof_session* s) {
    return guarded(s, true, [&]() -> int {
        s->recorder->exit();
        return MVPROF_OK;
    });
}

int mvprof_current_layer(mvprof_session* s, int* layer) {
    return guarded(s, true, [&]() -> int {
        if (!layer) return fail(MVPROF_BAD_INPUT, "mvprof_current_layer needs an out pointer");
        *layer = s->recorder->innermostLayer().value_or(0);
        return MVPROF_OK;
    });
}

int mvprof_pause_ops(mvprof_session* s, int pause) {
    return guarded(s, true, [&]() -> int {
        // The hook's ops are hidden and its time taken off the run's clock.
        if (pause)
            s->recorder->beginProbeWork();
        else
            s->recorder->endProbeWork();
        return MVPROF_OK;
    });
}

int mvprof_end_run(mvprof_session* s, int status, const char* error) {
    return guarded(s, true, [&]() -> int {
        if (!s->run)
            return fail(MVPROF_BAD_INPUT, "an eval's observation pass is open, not a run: end "
                                          "it with mvprof_end_eval_observation");
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
        // An eval's observation pass holds a recorder but no run: the eval ends it.
        if (s->eval)
            rc = mvp::api::endEval(*s, mvp::RunStatus::Failed, "the session was closed mid-eval");
        if (s->recorder) rc = endRun(s, mvp::RunStatus::Failed, "the session was closed mid-run");
        if (auto c = s->writer->close(); !c && rc == MVPROF_OK) rc = fail(c.error());
    } catch (const std::exception& e) {
        rc = fail(MVPROF_INTERNAL, std::string("internal error: ") + e.what());
    }
    delete s;
    return rc;
}

} // extern "C"
