#pragma once
// What a capture is asked to do: the model, input and observation settings
// (CaptureOptions), how a what-if's run differs from a plain one
// (RunTransform), and a phase's time in an unrecorded pass. Plain C++: the
// what-if planner copies a baseline's settings without the capture pipeline.

#include "capture/config/Config.h"
#include "capture/cuda/EventTimer.h"
#include "core/Phase.h"
#include "core/session/Records.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct CaptureOptions {
    std::string model = "ref:tiny";
    std::string
        modelFile; // a user model's manifest (docs/user-models.md); replaces `model` when set
    PresetOverrides overrides;
    std::string imagePath;
    std::string prompt = "Describe the image.";
    int steps = 8; // decode forward passes after prefill
    std::string outPath;
    bool force = false; // replace an existing output file
    std::string device = "cpu";
    std::string dtype = "float32"; // or "bfloat16" (weights, activations and KV cache)
    bool probes = true;            // false: the uninstrumented model path (phases only)
    bool nestedOps = false;        // also record ops nested inside an op that owns its cost
    bool traceGpu = true;          // on a GPU: trace its kernels and copies with CUPTI (GpuTrace.h)
    // On a GPU: module spans' device time from CUDA events, or the exact
    // mode that waits for the GPU at every probe (cuda/EventTimer.h).
    cuda::DeviceTiming deviceTiming = cuda::DeviceTiming::Events;
    // On a GPU: after the run, replay it under CUPTI's range profiler for each
    // module's DRAM bytes, FLOPs and device time (hw.* run metrics).
    bool hwCounters = false;
    std::vector<int> attnLayers; // decoder layers whose per-head attention maps are stored
    int threads = 0;             // libtorch intra-op threads; 0 keeps libtorch's default
    // Unrecorded passes of the whole pipeline before each measured run, so a
    // baseline and a what-if are both measured warm (allocator, BLAS threads, caches).
    int warmup = 1;
    const std::atomic<bool>* cancel = nullptr; // set to stop between phases / decode steps
    // The image file's bytes when they come from elsewhere (a session's stored
    // copy); imagePath then only names it.
    std::optional<std::vector<uint8_t>> imageData;
};

// How a run differs from a plain capture: a what-if names its transform and
// baseline, and may feed the decoder only some of the visual tokens.
struct RunTransform {
    std::string label = "baseline";
    std::string transform; // e.g. "prune-visual keep=0.4"; empty for a baseline
    std::optional<int64_t> baselineRun;
    std::vector<int>
        keepPatches; // patch per visual token, in the decoder's order; empty: every patch
    std::vector<RunMetricRow> metrics; // stored with the run (e.g. what transformModel found)
};

// The settings that change what a run measures (warm-up passes, nested ops,
// threads; on a GPU its trace, device timing and counters), stored in the
// run's config under "capture" so a what-if re-runs with its baseline's
// (docs/format.md): both directions here, so they cannot drift apart.
std::string withCaptureSettings(const std::string& configJson, const CaptureOptions& o);
// Reads them back into `o`; settings a config lacks (older sessions) keep
// `o`'s values.
void readCaptureSettings(const std::string& configJson, CaptureOptions& o);

// The options a run row records (model, prompt, image, steps, device,
// dtype), and the options that re-run it.
void recordOptions(const CaptureOptions& o, RunInfo& info);
void optionsOfRun(const RunInfo& info, CaptureOptions& o);

} // namespace mvp
