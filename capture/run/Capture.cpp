#include "capture/run/Capture.h"

#include "capture/machine/SystemInfo.h"
#include "core/session/SessionWriter.h"

#include <filesystem>

namespace mvp {

namespace {
constexpr int kMaxSteps = 100000;

Status checkDevice(const std::string& device) {
    if (device == "cpu" || device.rfind("cuda", 0) == 0) return Ok{};
    return makeError(ErrorCode::BadInput, "unknown device '" + device + "': use cpu or cuda[:N]");
}
} // namespace

std::string CaptureProgress::name() const {
    switch (stage) {
    case Stage::Phase:
        return phaseName(phase);
    case Stage::Transforming:
        return "transforming";
    case Stage::Repetitions:
        return "repetitions";
    case Stage::Done:
        return "done";
    }
    return {};
}

PatchGridSize patchGridOf(const PreparedCapture& p) {
    const int side = p.config.vision.gridSide();
    const auto& m = p.userModel;
    return {m && m->gridH ? *m->gridH : side, m && m->gridW ? *m->gridW : side};
}

Status setInput(PreparedCapture& p, const std::string& imagePath, const std::string& prompt,
                const std::vector<uint8_t>* imageData) {
    const auto& o = p.options;
    auto ids = tokens::encode(prompt);
    const int patches = p.config.vision.patches();
    const int length = 1 + patches + int(ids.size()) + o.steps;
    if (length > p.config.llm.maxSeq)
        return makeError(ErrorCode::BadInput,
                         "the prompt (" + std::to_string(ids.size()) + " bytes) with " +
                             std::to_string(patches) + " image tokens and " +
                             std::to_string(o.steps) + " decode steps needs " +
                             std::to_string(length) + " positions, but " + o.model +
                             " has a context of " + std::to_string(p.config.llm.maxSeq) +
                             ": shorten the prompt or lower --steps");
    if (imagePath.empty())
        return makeError(ErrorCode::BadInput,
                         "no image given: pass --image FILE (PNG, JPEG or BMP)");
    auto bytes = imageData ? Result<std::vector<uint8_t>>(*imageData) : readImageFile(imagePath);
    if (!bytes) return bytes.error();
    // Decoding now gives precise errors for empty, corrupt and foreign files
    // before anything is written; `preprocess` decodes again, timed.
    auto img = decodeImage(*bytes, imagePath);
    if (!img) return img.error();
    p.promptIds = std::move(ids);
    p.sequenceLength = length;
    p.image = std::move(img.value());
    p.imageBytes = std::move(bytes.value());
    p.options.imagePath = imagePath;
    p.options.prompt = prompt;
    if (!imageData) p.options.imageData.reset();
    return Ok{};
}

Result<PreparedCapture> prepareCapture(const CaptureOptions& o) {
    PreparedCapture p;
    p.options = o;
    if (!o.modelFile.empty()) {
        // A user model: the manifest gives what the config would.
        auto manifest = loadUserModelManifest(o.modelFile);
        if (!manifest) return manifest.error();
        if (!o.attnLayers.empty())
            return makeError(ErrorCode::BadInput,
                             "--attn-layers needs the built-in model: a user model's attention is "
                             "not visible to the profiler");
        if (o.dtype != "float32")
            return makeError(
                ErrorCode::BadInput,
                "user models run in the dtype they were saved in: leave --dtype at float32");
        if (o.overrides.weights)
            return makeError(ErrorCode::BadInput,
                             "--weights loads the built-in model's parameters: a user model's "
                             "weights are in its TorchScript archive");
        p.config.preset = "file:" + manifest->path;
        p.config.vision.imageSize = manifest->imageSize;
        p.config.vision.patch = manifest->patch;
        p.config.llm.vocab = manifest->vocab;
        p.config.llm.maxSeq = manifest->maxSeq;
        p.config.llm.layers = 0;
        p.config.llm.moeLayers.clear();
        p.options.model = "file:" + manifest->path;
        p.userModel = std::move(manifest.value());
    } else {
        auto cfg = presetConfig(o.model, o.overrides);
        if (!cfg) return cfg.error();
        p.config = std::move(cfg.value());
        std::error_code ec;
        if (const auto& w = p.config.weights.path;
            !w.empty() && !std::filesystem::is_regular_file(w, ec))
            return makeError(ErrorCode::NotFound, "--weights " + w + ": no such file");
    }
    if (o.steps < 0 || o.steps > kMaxSteps)
        return makeError(ErrorCode::BadInput,
                         "--steps must lie in [0, " + std::to_string(kMaxSteps) + "]");
    if (auto s = checkDevice(o.device); !s) return s.error();
    const bool cuda = o.device != "cpu";
    if (o.dtype != "float32" && o.dtype != "bfloat16" && !(cuda && o.dtype == "float16"))
        return makeError(ErrorCode::BadInput,
                         o.dtype == "float16"
                             ? "float16 needs a GPU (--device cuda): libtorch has no CPU kernels "
                               "for half-precision matmuls; use bfloat16 or float32"
                             : "--dtype must be float32, bfloat16 or (on a GPU) float16");
    if (o.hwCounters && (!cuda || !o.probes))
        return makeError(ErrorCode::BadInput,
                         !cuda ? "--hw-counters reads a GPU's counters: it needs --device cuda"
                               : "--hw-counters counts per module span: it needs the probes "
                                 "(drop --no-probes)");
    for (int l : o.attnLayers)
        if (l < 0 || l >= p.config.llm.layers)
            return makeError(ErrorCode::BadInput, "--attn-layers: layer " + std::to_string(l) +
                                                      " does not exist; " + o.model +
                                                      " has decoder layers 0-" +
                                                      std::to_string(p.config.llm.layers - 1));
    if (o.threads < 0)
        return makeError(ErrorCode::BadInput, "--threads must be 0 (default) or more");

    const auto* data = o.imageData ? &*o.imageData : nullptr;
    if (auto s = setInput(p, o.imagePath, o.prompt, data); !s) return s.error();

    if (p.userModel) return p; // its size is known once loaded
    const int64_t weights = p.config.parameterCount() * 4;
    const int64_t avail = sysinfo::availableMemoryBytes();
    if (avail > 0 && weights > avail * 9 / 10)
        return makeError(ErrorCode::BadInput,
                         o.model + " needs about " + std::to_string(weights >> 30) +
                             " GiB for its float32 weights but only " +
                             std::to_string(avail >> 30) +
                             " GiB is available: pass --layers N to truncate its depth");
    return p;
}

Result<CaptureResult> capture(const CaptureOptions& o, const ProgressFn& progress) {
    auto prepared = prepareCapture(o);
    if (!prepared) return prepared.error();
    if (o.outPath.empty())
        return makeError(ErrorCode::BadInput, "no output given: pass --out FILE.mvprof");

    // Check the output first, build the model (slow, may fail), and only then
    // replace an existing file: a failed start never costs the user a session.
    const auto mode = o.force ? SessionWriter::Mode::Overwrite : SessionWriter::Mode::CreateNew;
    if (auto s = SessionWriter::checkTarget(o.outPath, mode); !s) return s.error();
    auto capturer = Capturer::create(std::move(prepared.value()));
    if (!capturer) return capturer.error();
    auto writer = SessionWriter::open(o.outPath, mode);
    if (!writer) return writer.error();
    auto result = (*capturer)->run(**writer, o.probes, progress);
    auto closed = (*writer)->close();
    if (!result) return result.error();
    if (!closed) return closed.error();
    return result;
}

} // namespace mvp
