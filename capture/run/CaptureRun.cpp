// Runs the reference model phase by phase under a Recorder and turns what the
// hooks see (routing, attention) into session rows.
#include "capture/machine/HostRoofline.h"
#include "capture/machine/SystemInfo.h"
#include "capture/models/Pixels.h"
#include "capture/models/Vlm.h"
#include "capture/models/VlmLayers.h"
#include "capture/models/transforms/KvMethods.h"
#include "capture/models/transforms/VisualTokenDrop.h"
#include "capture/probe/GpuTrace.h"
#include "capture/run/Capture.h"
#include "capture/run/CapturerImpl.h"
#include "capture/run/HookSink.h"
#include "capture/run/Pipeline.h"
#include "capture/run/ScriptRoles.h"
#include "core/ErrorText.h"
#include "core/session/LiveRuns.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <ATen/record_function.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace mvp {

namespace {
// The stored copy of the input image is downscaled past this (docs/format.md).
constexpr int kMaxStoredSide = 4096;

// Fractions of the run each phase roughly takes, for the progress bar only.
double progressAt(Phase phase, int step, int steps) {
    if (phase == Phase::Preprocess) return 0.0;
    if (phase == Phase::Vision) return 0.05;
    if (phase == Phase::Projector) return 0.35;
    if (phase == Phase::Prefill) return 0.4;
    if (phase == Phase::Decode) return 0.7 + 0.3 * (step - 1) / std::max(1, steps);
    return 1.0;
}

bool skipsExperts(VlmModel& model) {
    for (const auto& l : model.impl().layers)
        if (l->moe && l->moe->skipBeta >= 0) return true;
    return false;
}

// Weight and KV bytes of every run, plus what the what-if's transforms found.
std::vector<RunMetricRow> runMetrics(VlmModel& model, const RunTransform& transform) {
    std::vector<RunMetricRow> m = transform.metrics;
    m.push_back({"weights.bytes", double(model.weightBytes()), "bytes", "measured",
                 "storage of every weight tensor, quantised codes and scales included"});
    m.push_back({"kv.bytes", double(model.kvBytes()), "bytes", "measured",
                 "storage of the KV cache's used slots, all layers, at the end of the run"});
    if (!model.impl().layers.empty()) {
        const auto kv = kvMethodMetrics(model.impl().layers.front()->attn->cache,
                                        int(model.impl().layers.size()));
        m.insert(m.end(), kv.begin(), kv.end());
    }
    const KvCompressionReport& kv = model.impl().kvReport;
    if (kv.applied) {
        m.push_back({"kv.positions", double(kv.positions), "count", "measured",
                     "cached positions after the prefill, all layers"});
        m.push_back({"kv.slots", double(kv.storedSlots), "count", "measured",
                     "slots holding them after merging, all layers"});
        m.push_back({"kv.visual_tokens", double(kv.visualTokens), "count", "measured",
                     "visual tokens in the caches, all layers"});
        m.push_back({"kv.visual_clusters", double(kv.visualClusters), "count", "measured",
                     "clusters they merged into (key cosine above the threshold)"});
        m.push_back({"kv.key_error", kv.keyNorm > 0 ? std::sqrt(kv.keyError / kv.keyNorm) : 0.0,
                     "ratio", "measured",
                     "relative reconstruction error of the prefill's keys, ‖K̂ − K‖ / ‖K‖"});
        m.push_back({"kv.value_error",
                     kv.valueNorm > 0 ? std::sqrt(kv.valueError / kv.valueNorm) : 0.0, "ratio",
                     "measured",
                     "relative reconstruction error of the prefill's values, ‖V̂ − V‖ / ‖V‖"});
    }
    return m;
}

} // namespace

torch::Tensor modelPixels(const PreparedCapture& prep) {
    auto decoded = decodeImage(prep.imageBytes, prep.options.imagePath);
    if (!decoded) throw std::runtime_error(decoded.error().message);
    const int side = prep.pixelSide > 0 ? prep.pixelSide : prep.config.vision.imageSize;
    if (prep.userModel)
        return toPixels(resize(*decoded, side, side), prep.userModel->mean.data(),
                        prep.userModel->std.data());
    return toPixels(resize(*decoded, side, side)).to(modelDtype(prep.options));
}

Result<ImageRow> storedImageRow(const PreparedCapture& prep) {
    const RgbImage stored = fitWithin(prep.image, kMaxStoredSide);
    auto png = encodePng(stored);
    if (!png) return png.error();
    return ImageRow{prep.options.imagePath, stored.width,      stored.height,
                    prep.image.width,       prep.image.height, std::move(png.value())};
}

Status refreshStoredImage(Capturer::Impl& impl) {
    if (!impl.storedImageStale) return Ok{};
    auto stored = storedImageRow(impl.prep);
    if (!stored) return stored.error();
    impl.storedImage = std::move(stored.value());
    impl.storedImageStale = false;
    return Ok{};
}

torch::ScalarType modelDtype(const CaptureOptions& o) {
    return o.dtype == "bfloat16"  ? torch::kBFloat16
           : o.dtype == "float16" ? torch::kHalf
                                  : torch::kFloat;
}

namespace {
// The run's device: "cpu", "cuda" (device 0) or "cuda:N", checked against
// this libtorch and this machine.
Result<torch::Device> runDevice(const std::string& name) {
    if (name == "cpu") return torch::Device(torch::kCPU);
    if (!torch::cuda::is_available())
        return makeError(ErrorCode::BadInput,
                         "device " + name +
                             " requested but this libtorch has no usable CUDA device: use "
                             "--device cpu");
    std::optional<torch::Device> device;
    try {
        device = torch::Device(name);
    } catch (const std::exception&) {
    }
    if (!device || !device->is_cuda())
        return makeError(ErrorCode::BadInput, "unknown device '" + name + "': use cpu or cuda[:N]");
    const int index = device->has_index() ? device->index() : 0;
    const int count = int(torch::cuda::device_count());
    if (index >= count)
        return makeError(ErrorCode::BadInput, "device cuda:" + std::to_string(index) +
                                                  " does not exist: this machine has " +
                                                  std::to_string(count) + " CUDA device(s)");
    return torch::Device(torch::kCUDA, c10::DeviceIndex(index));
}

} // namespace

Capturer::Capturer(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}
Capturer::~Capturer() = default;

const PreparedCapture& Capturer::prepared() const {
    return d->prep;
}
void Capturer::setGpuObservation(bool traceGpu, cuda::DeviceTiming timing) {
    d->prep.options.traceGpu = traceGpu;
    d->prep.options.deviceTiming = timing;
}
int64_t Capturer::parameterCount() const {
    return d->scripted ? d->scripted->parameterCount() : d->model->parameterCount();
}

Result<std::unique_ptr<Capturer>> Capturer::create(PreparedCapture prep) {
    const auto device = runDevice(prep.options.device);
    if (!device) return device.error();
    if (prep.options.threads > 0) {
        // --threads N caps OpenBLAS's own pool too: libtorch leaves it alone,
        // and its idle threads spin on the cores the measured run needs.
        at::set_num_threads(prep.options.threads);
        sysinfo::setBlasThreads(prep.options.threads);
    }
    auto impl = std::make_unique<Impl>();
    if (prep.userModel) {
        auto scripted = ScriptedModel::load(*prep.userModel, *device);
        if (!scripted) return scripted.error();
        if (auto s = checkRolePatterns(*prep.userModel, (*scripted)->modulePaths()); !s)
            return s.error();
        impl->scripted = std::move(scripted.value());
    } else {
        try {
            impl->model = std::make_unique<VlmModel>(prep.config);
            if (!prep.config.weights.path.empty()) {
                auto sha = impl->model->loadWeights(prep.config.weights);
                if (!sha) return sha.error();
                prep.config.weights.sha256 = *sha; // recorded with each run
            }
            if (modelDtype(prep.options) != torch::kFloat)
                impl->model->setDtype(modelDtype(prep.options));
            if (device->is_cuda()) impl->model->setDevice(*device);
        } catch (const std::exception& e) {
            return makeError(ErrorCode::Internal,
                             std::string("building the model failed: ") + e.what());
        }
    }
    auto stored = storedImageRow(prep);
    if (!stored) return stored.error();
    impl->storedImage = std::move(stored.value());
    impl->device =
        device->is_cuda() ? gpuDevice(device->index(), prep.options.dtype) : hostDevice();
    impl->prep = std::move(prep);
    return std::unique_ptr<Capturer>(new Capturer(std::move(impl)));
}

Status writeModelWeights(const VlmConfig& config, const std::string& path) {
    try {
        VlmModel model(config);
        if (!config.weights.path.empty())
            if (auto sha = model.loadWeights(config.weights); !sha) return sha.error();
        return model.saveWeights(
            path,
            {{"model", config.preset}, {"seed", std::to_string(config.seed)}, {"format", "pt"}});
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal,
                         std::string("building the model failed: ") + e.what());
    }
}

Result<CaptureResult> Capturer::run(SessionWriter& writer, bool probes, const ProgressFn& progress,
                                    const RunTransform& transform) {
    if (auto s = refreshStoredImage(*d); !s) return s.error();
    if (d->scripted) {
        if (!transform.keepPatches.empty())
            return makeError(ErrorCode::BadInput,
                             "visual-token pruning needs the built-in reference model: a user "
                             "model's forward takes every visual token");
        return runScripted(writer, probes, progress, transform);
    }
    const auto& o = d->prep.options;
    const auto& cfg = d->prep.config;
    const RunInfo info = runInfo(probes, transform);
    auto runId = writer.beginRun(info);
    if (!runId) return runId.error();
    // While it runs, a GUI can find and attach to it (File → Attach…).
    const LiveRunAnnouncement announcement(writer.path(), o.model, *runId, info.startedUtc);

    // The patches whose tokens reach the decoder (all, unless pruned), in spatial order.
    const std::vector<int> seen = visiblePatches(cfg, transform.keepPatches);
    for (int p : seen)
        if (p < 0 || p >= cfg.vision.patches())
            return makeError(ErrorCode::BadInput, "patch " + std::to_string(p) + " does not exist");
    writer.submit(setupRows(*runId, d->prep, d->storedImage, d->device, d->model->modules(), 1));

    Recorder rec(writer, *runId, probes, o.nestedOps);
    HookSink sink(&rec, cfg);
    sizeSink(sink, d->prep, seen);
    const ForwardHooks hooks = probeHooks(rec, sink, probes);
    for (int i = 0; i < o.warmup && !(o.cancel && o.cancel->load()); ++i)
        (void)timedReferencePass(*d->model, d->prep, seen);
    d->model->impl().kvReport = KvCompressionReport();
    const RunMetricRow startMemory = sysinfo::startRunMemory();

    CaptureResult result;
    result.run = *runId;
    Batch outputs; // tokens, per-step logits and the visual features, for what-if fidelity
    ReferencePipeline pipeline(*d->model, d->prep, seen, hooks, &outputs);
    if (probes) pipeline.afterPrefill = [&] { rec.submit(sink.metricRows()); }; // a live heatmap
    const PhaseMarks recorded = recordedPhases(rec, progress, o.steps);
    const PhaseMarks marks = [&](Phase phase, int step) {
        recorded(phase, step);
        sink.enterPhase(phase, d->model->cachedPositions());
    };
    const bool onGpu = d->model->device().is_cuda();
    // Energy, kernels and copies attributed to modules, span device times.
    std::optional<GpuObservation> gpu;
    if (onGpu) gpu.emplace(rec, d->model->device().index(), o.traceGpu, o.deviceTiming);
    const RunResult outcome = runRecorded(rec, d->prep, pipeline, marks, result.outputTokens);
    const int positions = int(outputs.tokens.size());
    Batch rows = std::move(outputs);
    rows.runMetrics = runMetrics(*d->model, transform);
    addRecorderMetrics(rows, rec, startMemory);
    if (gpu) gpu->finish(rec, rows); // tracing off before any counter replay
    if (onGpu && o.hwCounters && probes && outcome.status == RunStatus::Complete) {
        const CounterReplay replay = [&](SessionWriter& scratch, int64_t run,
                                         cuda::RangeSink& ranges) {
            replayWithRanges(*d->model, d->prep, seen, scratch, run, ranges);
        };
        for (auto& m : countHardware(d->model->device().index(), replay, rec))
            rows.runMetrics.push_back(std::move(m));
    }
    if (probes) {
        Batch metrics = sink.metricRows(HookSink::answerSteps(result.outputTokens));
        rows.patchMetrics = std::move(metrics.patchMetrics);
        rows.attnMaps = std::move(sink.mapRows(positions).attnMaps);
    }
    if (skipsExperts(*d->model))
        rows.runMetrics.push_back({"skip.slots", double(sink.skippedSlots), "count", "measured",
                                   "(token, expert) choices skipping left unrun, all MoE layers "
                                   "and phases (the recorded run)"});
    Batch dropped = tokenDropRows(d->model->impl(), seen, sink.totalPositions - int64_t(o.steps));
    rows.runMetrics.insert(rows.runMetrics.end(), dropped.runMetrics.begin(),
                           dropped.runMetrics.end());
    rows.patchMetrics.insert(rows.patchMetrics.end(), dropped.patchMetrics.begin(),
                             dropped.patchMetrics.end());
    return finishRun(rec, writer, *runId, outcome, std::move(rows), std::move(result), progress,
                     o.steps, "the model run failed: ", ErrorCode::Internal);
}

RunResult runRecorded(Recorder& rec, const PreparedCapture& prep, PipelineModel& model,
                      const PhaseMarks& marks, std::vector<int>& chosen) {
    RunResult outcome;
    try {
        rec.startOps();
        chosen = runPipeline(prep, model, marks);
        const bool stopped = prep.options.cancel && prep.options.cancel->load();
        outcome.status = stopped ? RunStatus::Incomplete : RunStatus::Complete;
        if (stopped) outcome.error = "cancelled by the user";
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        outcome.error = firstLine(e);
    }
    rec.endPhase();
    rec.stopOps();
    // Wall time: first phase start (the origin) to last phase end.
    outcome.wallNs = rec.lastPhaseEndNs();
    outcome.peakRssBytes = sysinfo::peakRssBytes();
    outcome.outputText = tokens::decode(chosen);
    return outcome;
}

void addRecorderMetrics(Batch& rows, const Recorder& rec, const RunMetricRow& startMemory) {
    rows.runMetrics.push_back(startMemory);
    for (auto& m : rec.runMetrics())
        rows.runMetrics.push_back(std::move(m));
}

Batch setupRows(int64_t run, const PreparedCapture& prep, const ImageRow& image,
                const DeviceRow& device, std::vector<ModuleRow> modules, int firstPatch) {
    const auto& v = prep.config.vision;
    const PatchGridSize grid = patchGridOf(prep);
    Batch setup;
    setup.run = run;
    setup.modules = std::move(modules);
    setup.image = image;
    setup.device = device;
    setup.patchGrid = PatchGridRow{grid.rows, grid.cols, v.patch, v.imageSize, firstPatch};
    return setup;
}

PhaseMarks recordedPhases(Recorder& rec, const ProgressFn& progress, int steps) {
    return [&rec, progress, steps](Phase phase, int step) {
        rec.beginPhase(phase, step);
        if (progress)
            progress({CaptureProgress::Stage::Phase, phase, step, steps,
                      progressAt(phase, step, steps)});
    };
}

RunInfo newRunInfo(const CaptureOptions& o, bool probes) {
    RunInfo info;
    info.label = "baseline";
    recordOptions(o, info);
    info.blas = sysinfo::blasLibrary();
    info.threads = at::get_num_threads();
    info.probes = probes;
    info.writerPid = ::getpid();
    info.writerHost = hostName();
    info.startedUtc = sysinfo::utcNow();
    return info;
}

Result<CaptureResult> finishRun(Recorder& rec, SessionWriter& writer, int64_t runId,
                                const RunResult& outcome, Batch rows, CaptureResult result,
                                const ProgressFn& progress, int steps,
                                const std::string& failurePrefix, ErrorCode failureCode) {
    rec.submit(std::move(rows));
    rec.flush();
    if (auto s = writer.endRun(runId, outcome); !s) return s.error();
    if (outcome.status == RunStatus::Failed)
        return makeError(failureCode, failurePrefix + outcome.error);
    result.status = outcome.status;
    result.outputText = outcome.outputText;
    result.wallNs = outcome.wallNs;
    result.opsRecorded = rec.opsRecorded();
    result.peakRssBytes = outcome.peakRssBytes;
    if (progress) progress({CaptureProgress::Stage::Done, Phase::Decode, steps, steps, 1.0});
    return result;
}

} // namespace mvp
