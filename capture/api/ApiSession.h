#pragma once
// What the C ABI's opaque session holds, and the error plumbing its two
// translation units share (CaptureApi.cpp: runs and rows; CaptureApiWhatIf.cpp:
// what-if planning and prediction).

#include "capture/api/AttentionObserver.h"
#include "capture/api/mvprof_capture.h"
#include "capture/cuda/CounterMetrics.h"
#include "capture/cuda/RangeProfiler.h"
#include "capture/probe/GpuTrace.h"
#include "capture/probe/Recorder.h"
#include "capture/run/EvalRuns.h"
#include "capture/run/ScratchSession.h"
#include "core/Result.h"
#include "core/compare/Prediction.h"
#include "core/eval/EvalSet.h"
#include "core/session/LiveRuns.h"
#include "core/session/SessionWriter.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mvp::api {
// The open run's hardware counters while the caller replays its work
// (mvprof_counters_begin … mvprof_counters_end, CaptureApiCounters.cpp).
struct CounterReplays {
    std::unique_ptr<cuda::RangeProfiler> profiler;
    int levels = 1;
    std::optional<cuda::LevelLimitedRanges> ranges; // the pass running now
    std::string failure;                            // the first failure: counting stops
};

// An eval what-if the host runs item by item (mvprof_begin_eval …
// mvprof_end_eval, CaptureApiEval.cpp): both runs open, the set, and the
// item whose baseline arm came in and waits for its what-if arm.
struct EvalState {
    EvalState(EvalRuns r, EvalSet s) : runs(std::move(r)), set(std::move(s)) {}
    EvalRuns runs;
    EvalSet set;
    int done = 0; // items whose both arms are stored
    std::optional<EvalItemRow> baseline;
    std::vector<StepOutputRow> baselineSteps;
    std::string itemJson; // mvprof_eval_item's answer, alive until the next call
    // Observation passes (mvprof_begin_eval_observation): where they record,
    // on first use; the arm one is recording now; per arm, the heatmap its
    // next item row takes.
    std::unique_ptr<ScratchSession> scratch;
    std::optional<int> observing;
    std::array<std::optional<EvalItemHeatmap>, 2> heatmaps;
};
} // namespace mvp::api

struct mvprof_session {
    // A module the host declared (mvprof_declare_module): its handle is its index.
    struct DeclaredModule {
        std::string path, kind;
        mvp::ModuleRole role = mvp::ModuleRole::None;
    };

    std::unique_ptr<mvp::SessionWriter> writer;
    std::optional<int64_t> run;
    std::optional<int64_t> baselineRun; // of the open run, when it is a what-if
    std::unique_ptr<mvp::Recorder> recorder; // the open run's, or an eval observation pass's
    std::unique_ptr<mvp::AttentionObserver> attention; // when the run records attention
    std::unique_ptr<mvp::LiveRunAnnouncement> announcement;
    mvp::Batch rows;                             // routing, tokens and metrics until the run ends
    std::vector<DeclaredModule> modules;         // the open run's declared modules
    std::vector<mvp::QuantisedModule> quantised; // for the latency prediction at the end
    int decodeSteps = 0;                         // the highest decode step begun
    int visualFirst = 0, visualCount = 0;        // the declared visual positions
    std::unique_ptr<mvp::GpuObservation> gpu;    // the open run's, when it runs on CUDA
    std::optional<int> gpuIndex;                 // the open run's CUDA device, if any
    bool recordingFinished = false;              // phases, ops and GPU observation over
    std::unique_ptr<mvp::api::CounterReplays> counters; // hardware counters being read
    std::unique_ptr<mvp::api::EvalState> eval;          // an eval what-if in progress
};

namespace mvp::api {

// Sets the calling thread's last error; returns `code`.
int fail(int code, std::string message);
int fail(const Error& e);
const char* lastError();
inline std::string text(const char* s) {
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

// A run's description as the session stores it (strings checked by the caller).
RunInfo runInfo(const mvprof_run_info& in);

// Ends an eval still open (mvprof_close): both runs stored as `status`; an
// observation pass still open is dropped first.
int endEval(mvprof_session& s, RunStatus status, const std::string& error);

// Ends the open run's recording once: its last phase, the op callbacks and
// the GPU's observation (trace, energy, memory). Hardware-counter replays
// come after it, the run's end after them.
void finishRecording(mvprof_session& s);

// After a what-if run with quantised modules has ended: predicts its latency
// from the baseline's profile and stores it with the run.
Status storeLatencyPrediction(mvprof_session& s, int64_t run);
// Refuses a baseline that is not a complete run of this session.
Status checkBaseline(mvprof_session& s, int64_t run);
// The routing rows of a run already in the session (written so far).
Result<std::vector<RoutingRow>> readRouting(mvprof_session& s, int64_t run);

} // namespace mvp::api
