// `mvprof-cli capture`: the only CLI translation unit that reaches libtorch
// (through capture/'s plain-C++ API).
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/ModelOptions.h"
#include "app/cli/Parser.h"
#include "app/cli/Progress.h"
#include "capture/machine/Devices.h"
#include "capture/run/Capture.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp::cli {

namespace {
// What the options set beyond CaptureOptions itself.
struct CaptureFlags {
    std::string attnLayers, progress;
    std::string deviceTiming = "events";
    bool noProbes = false;
    bool noGpuTrace = false;
};

void addRunOptions(CLI::App& app, CaptureOptions& o, CaptureFlags& f) {
    app.add_option("--image", o.imagePath,
                   "PNG, JPEG or BMP (grey, 16-bit and huge images are converted) [required]");
    app.add_option("--out", o.outPath, "the session file to write [required]");
    app.add_option("--prompt", o.prompt, "default \"Describe the image.\"");
    app.add_option("--steps", o.steps, "decode steps after prefill (default 8)")->check(atLeast(0));
    app.add_option("--attn-layers", f.attnLayers,
                   "store per-head attention maps of decoder layers L (e.g. 0,1 or 0-3 or all)");
    app.add_option("--threads", o.threads, "libtorch intra-op threads (default: libtorch's choice)")
        ->check(atLeast(0));
    app.add_option("--warmup", o.warmup,
                   "unrecorded passes before the measured run (default 1; what-ifs do the same)")
        ->check(atLeast(0));
    app.add_flag("--no-probes", f.noProbes,
                 "the uninstrumented path: phases only, for overhead comparisons");
    app.add_flag("--no-gpu-trace", f.noGpuTrace,
                 "on a GPU: do not trace its kernels and copies with CUPTI (for overhead "
                 "comparisons)");
    app.add_option("--device-timing", f.deviceTiming,
                   "on a GPU: events (default: module spans timed by CUDA events, read once per "
                   "step), exact (also wait for the GPU at every span and op, so host times "
                   "include device work; slower) or off")
        ->check(oneOf({"events", "exact", "off"}));
    app.add_flag("--hw-counters", o.hwCounters,
                 "on a GPU: replay the run under CUPTI's range profiler for each module's DRAM "
                 "bytes, FLOPs and kernel time (hw.* metrics; the roofline then plots them)");
    app.add_flag("--nested-ops", o.nestedOps,
                 "also record the ops nested inside a counted op (views, the mm under a matmul)");
    app.add_option("--progress", f.progress,
                   "jsonl: print one JSON object per phase / decode step on stdout")
        ->check(oneOf({"jsonl"}));
    app.add_flag("--force", o.force, "replace FILE.mvprof if it exists");
}
} // namespace

void addModelOptions(CLI::App& app, CaptureOptions& o) {
    app.add_option("--model", o.model,
                   "ref:tiny (default), ref:small, ref:llava-moe-7b, or ref:demo (trained on "
                   "generated scenes: docs/training.md)");
    app.add_option("--model-file", o.modelFile,
                   "a user's TorchScript model, described by a manifest (docs/user-models.md; "
                   "`mvprof-cli example-model DIR` writes an example)")
        ->excludes("--model");
    app.add_option("--layers", o.overrides.layers,
                   "truncate the model to N vision and N decoder layers")
        ->check(atLeast(1));
    app.add_option("--max-seq", o.overrides.maxSeq,
                   "the KV cache's capacity in positions (default: the preset's)")
        ->check(atLeast(1));
    app.add_option("--routing-skew", o.overrides.routingSkew,
                   "expert popularity ∝ (rank+1)^-S (default 1; 0 = router only)");
    app.add_option("--seed", o.overrides.seed, "weight seed (default 0)")->check(atLeast(0));
    app.add_option("--weights", o.overrides.weights,
                   "a safetensors file with every parameter of the preset, by the names "
                   "`mvprof-cli weights` lists (docs/weights.md)")
        ->excludes("--model-file")
        ->excludes("--seed");
    app.add_option(
        "--dtype", o.dtype,
        "float32 (default), bfloat16, or float16 on a GPU: weights, activations and KV cache");
    app.add_option("--device", o.device,
                   "cpu (default), cuda or cuda:N: where the model runs, and its what-ifs "
                   "(phases wait for the GPU's queue)");
}

int captureCommand(const std::vector<std::string>& argv) {
    CommandLine cli(
        "capture",
        "mvprof-cli capture — run the reference model on an image + prompt and record it",
        "SIGINT or SIGTERM stops the run between steps; the session keeps it, marked "
        "incomplete.");
    CaptureOptions o;
    CaptureFlags flags;
    addModelOptions(cli.app, o);
    addRunOptions(cli.app, o, flags);
    if (auto exit = cli.parse(argv)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] + "' (see --help)");
    o.probes = !flags.noProbes;
    o.traceGpu = !flags.noGpuTrace;
    o.deviceTiming = *cuda::parseDeviceTiming(flags.deviceTiming); // checked by the parser
    if (!flags.attnLayers.empty()) {
        // "all" needs the layer count: resolve it from the preset first.
        auto cfg = presetConfig(o.model, o.overrides);
        if (!cfg) return fail(cfg.error().exitCode(), cfg.error().message);
        auto list = parseIndexList(flags.attnLayers, cfg->llm.layers, "--attn-layers");
        if (!list) return fail(2, list.error().message);
        o.attnLayers = *list;
    }
    const std::string& progressMode = flags.progress;
    if (o.imagePath.empty()) return fail(2, "no image given: pass --image FILE (PNG, JPEG or BMP)");
    if (o.outPath.empty()) return fail(2, "no output given: pass --out FILE.mvprof");

    o.cancel = installCancelHandlers();

    ProgressFn progress;
    if (progressMode == "jsonl") progress = jsonlProgress();

    auto result = capture(o, progress);
    if (!result) return fail(result.error().exitCode(), result.error().message);
    const auto& r = *result;
    if (progressMode == "jsonl") {
        const nlohmann::json j{{"event", "done"},
                               {"run", r.run},
                               {"status", toString(r.status)},
                               {"out", o.outPath},
                               {"wall_ms", double(r.wallNs) / 1e6}};
        std::printf("%s\n", j.dump().c_str());
    } else {
        std::printf(
            "Captured run %lld (%s) of %s into %s: %.1f ms wall (measured), %lld ops recorded\n",
            static_cast<long long>(r.run), toString(r.status),
            o.modelFile.empty() ? o.model.c_str() : o.modelFile.c_str(), o.outPath.c_str(),
            double(r.wallNs) / 1e6, static_cast<long long>(r.opsRecorded));
    }
    if (r.status != RunStatus::Complete)
        return fail(1, "the run was stopped before it finished; " + o.outPath +
                           " keeps it, marked incomplete");
    return 0;
}

int devicesCommand(const std::vector<std::string>& argv) {
    CommandLine cli("devices",
                    "mvprof-cli devices [--format text|json] — where `capture --device` can run",
                    "");
    std::string format = "text";
    cli.app.add_option("--format", format, "text (default) or json")
        ->check(oneOf({"text", "json"}));
    if (auto exit = cli.parse(argv)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] + "' (see --help)");
    const DeviceList list = captureDevices();
    if (format == "json") {
        nlohmann::json devices = nlohmann::json::array();
        for (const auto& d : list.devices)
            devices.push_back({{"id", d.id},
                               {"name", d.name},
                               {"memory_bytes", d.memoryBytes},
                               {"dtypes", d.dtypes}});
        nlohmann::json j{{"devices", devices}};
        if (!list.noCuda.empty()) j["cuda_unavailable"] = list.noCuda;
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    for (const auto& d : list.devices) {
        std::string dtypes;
        for (const auto& t : d.dtypes)
            dtypes += (dtypes.empty() ? "" : ", ") + t;
        std::printf("%-8s %s, %.1f GiB (--dtype %s)\n", d.id.c_str(), d.name.c_str(),
                    double(d.memoryBytes) / double(1LL << 30), dtypes.c_str());
    }
    if (!list.noCuda.empty()) std::printf("no CUDA device: %s\n", list.noCuda.c_str());
    return 0;
}

int weightsCommand(const std::vector<std::string>& argv) {
    CommandLine cli("weights",
                    "mvprof-cli weights [--model P] [--layers N] [--format text|json] "
                    "[--save FILE] — the parameters a --weights file holds",
                    "--save writes the preset's weights (seeded, or --weights') as safetensors.");
    std::string model = "ref:tiny", format = "text", save;
    PresetOverrides overrides;
    cli.app.add_option("--model", model,
                       "ref:tiny (default), ref:small, ref:llava-moe-7b or ref:demo");
    cli.app.add_option("--layers", overrides.layers, "truncate to N vision and N decoder layers")
        ->check(atLeast(1));
    cli.app.add_option("--seed", overrides.seed, "weight seed for --save (default 0)")
        ->check(atLeast(0));
    cli.app.add_option("--weights", overrides.weights, "re-save this file's weights")
        ->excludes("--seed");
    cli.app.add_option("--format", format, "text (default) or json")
        ->check(oneOf({"text", "json"}));
    cli.app.add_option("--save", save, "write the weights to FILE.safetensors");
    if (auto exit = cli.parse(argv)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] + "' (see --help)");
    auto cfg = presetConfig(model, overrides);
    if (!cfg) return fail(cfg.error().exitCode(), cfg.error().message);
    if (!save.empty()) {
        if (auto s = writeModelWeights(*cfg, save); !s)
            return fail(s.error().exitCode(), s.error().message);
        std::printf("Wrote %s: %lld parameters of %s\n", save.c_str(),
                    static_cast<long long>(cfg->parameterCount()), model.c_str());
        return 0;
    }
    const auto tensors = cfg->weightTensors();
    if (format == "json") {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& t : tensors)
            list.push_back({{"name", t.name}, {"shape", t.shape}});
        std::printf("%s\n", nlohmann::json{{"model", model}, {"tensors", list}}.dump().c_str());
        return 0;
    }
    for (const auto& t : tensors) {
        std::string shape;
        for (int64_t d : t.shape)
            shape += (shape.empty() ? "" : " × ") + std::to_string(d);
        std::printf("%-34s %s\n", t.name.c_str(), shape.c_str());
    }
    return 0;
}

} // namespace mvp::cli
