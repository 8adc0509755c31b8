// `mvprof-cli capture`: the only CLI translation unit that reaches libtorch
// (through capture/'s plain-C++ API).
#include "app/cli/Args.h"
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/Progress.h"
#include "capture/Capture.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp::cli {

namespace {
constexpr const char* kHelp =
    R"(mvprof-cli capture — run the reference model on an image + prompt and record it

  --image IMG          PNG, JPEG or BMP (grey, 16-bit and huge images are converted)   [required]
  --out FILE.mvprof    the session file to write                                        [required]
  --model NAME         ref:tiny (default), ref:small or ref:llava-moe-7b
  --model-file JSON    a user's TorchScript model, described by a manifest (USER_MODELS.md;
                       `mvprof-cli example-model DIR` writes an example)
  --prompt TEXT        default "Describe the image."
  --steps N            decode steps after prefill (default 8)
  --layers N           truncate the model to N vision and N decoder layers
  --max-seq N          the KV cache's capacity in positions (default: the preset's)
  --routing-skew S     expert popularity ∝ (rank+1)^-S (default 1; 0 = router only)
  --seed N             weight seed (default 0)
  --attn-layers L      store per-head attention maps of decoder layers L (e.g. 0,1 or 0-3 or all)
  --threads N          libtorch intra-op threads (default: libtorch's choice)
  --warmup N           unrecorded passes before the measured run (default 1; what-ifs do the same)
  --device cpu         the device (CUDA captures are not supported yet)
  --dtype T            float32 (default) or bfloat16: weights, activations and KV cache
  --no-probes          the uninstrumented path: phases only, for overhead comparisons
  --nested-ops         also record the ops nested inside a counted op (views, the mm under a matmul)
  --progress jsonl     print one JSON object per phase / decode step on stdout
  --force              replace FILE.mvprof if it exists
SIGINT or SIGTERM stops the run between steps; the session keeps it, marked incomplete.
)";

} // namespace

int captureCommand(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(argv,
                            {"--image", "--out", "--model", "--model-file", "--prompt", "--steps",
                             "--layers", "--max-seq", "--routing-skew", "--seed", "--attn-layers",
                             "--threads", "--device", "--progress", "--warmup", "--dtype"},
                            {"--no-probes", "--nested-ops", "--force", "--help", "-h"});
    if (!parsed) return fail(2, parsed.error().message);
    const Args& a = *parsed;
    if (a.has("--help") || a.has("-h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (!a.positional.empty())
        return fail(2, "unexpected argument '" + a.positional[0] + "' (see --help)");

    CaptureOptions o;
    o.imagePath = a.value("--image").value_or("");
    o.outPath = a.value("--out").value_or("");
    o.model = a.value("--model").value_or(o.model);
    o.modelFile = a.value("--model-file").value_or("");
    if (!o.modelFile.empty() && a.has("--model"))
        return fail(2, "choose --model or --model-file, not both");
    o.prompt = a.value("--prompt").value_or(o.prompt);
    o.device = a.value("--device").value_or(o.device);
    o.dtype = a.value("--dtype").value_or(o.dtype);
    o.force = a.has("--force");
    o.probes = !a.has("--no-probes");
    o.nestedOps = a.has("--nested-ops");
    auto steps = a.intValue("--steps", o.steps);
    auto threads = a.intValue("--threads", 0);
    auto skew = a.doubleValue("--routing-skew", 1.0);
    auto seed = a.intValue("--seed", 0);
    auto warmup = a.intValue("--warmup", 1);
    for (const Error* e : {steps ? nullptr : &steps.error(), threads ? nullptr : &threads.error(),
                           skew ? nullptr : &skew.error(), seed ? nullptr : &seed.error(),
                           warmup ? nullptr : &warmup.error()})
        if (e) return fail(2, e->message);
    if (*warmup < 0) return fail(2, "--warmup must be 0 or more");
    o.warmup = *warmup;
    o.steps = *steps;
    o.threads = *threads;
    if (a.has("--routing-skew")) o.overrides.routingSkew = *skew;
    if (*seed < 0) return fail(2, "--seed must be 0 or more");
    o.overrides.seed = uint64_t(*seed);
    if (auto layers = a.value("--layers")) {
        auto n = a.intValue("--layers", 0);
        if (!n) return fail(2, n.error().message);
        o.overrides.layers = *n;
    }
    if (a.value("--max-seq")) {
        auto n = a.intValue("--max-seq", 0);
        if (!n) return fail(2, n.error().message);
        o.overrides.maxSeq = *n;
    }
    if (auto spec = a.value("--attn-layers")) {
        // "all" needs the layer count: resolve it from the preset first.
        auto cfg = presetConfig(o.model, o.overrides);
        if (!cfg) return fail(cfg.error().exitCode(), cfg.error().message);
        auto list = parseIndexList(*spec, cfg->llm.layers, "--attn-layers");
        if (!list) return fail(2, list.error().message);
        o.attnLayers = *list;
    }
    const std::string progressMode = a.value("--progress").value_or("");
    if (!progressMode.empty() && progressMode != "jsonl")
        return fail(2, "--progress accepts only jsonl");
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

} // namespace mvp::cli
