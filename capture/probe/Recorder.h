#pragma once
// Collects what a probed model run does — phases, module spans, ATen ops —
// and hands it to the SessionWriter in batches. Plain C++ header: model code
// marks modules with ProbeScope, and only Recorder.cpp sees libtorch's
// RecordFunction API.
//
// One Recorder records one run on one thread (the thread that calls
// startOps()); ops that libtorch runs on its worker threads are not recorded.

#include "capture/cuda/EventTimer.h"
#include "capture/machine/Energy.h"
#include "capture/probe/HostClock.h"
#include "capture/probe/OpCostMemo.h"
#include "core/session/Records.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mvp {

class SessionWriter;
class OpObserver;       // capture/probe/OpObserver.h
class CorrelationMarks; // capture/cuda/CorrelationMarks.h

class Recorder {
public:
    // recordOps: record ATen ops at all; recordNestedOps: also the calls nested
    // inside an op that owns its cost (views, the mm under a matmul).
    Recorder(SessionWriter& writer, int64_t run, bool recordOps, bool recordNestedOps = false);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // Nanoseconds since the run's origin (the start of the first phase), less
    // the time spent in ProbeWork: the run's clock measures the model alone.
    int64_t nowNs() const { return clock_.nowNs() - originNs_ - excludedNs_; }

    // The profiler's own work inside a run (routing rows, attention copies,
    // KV-error bookkeeping, observers): hidden from the op callbacks, its time
    // measured and taken off the clock (ProbeWork below). Nests.
    // `opsOff` false: work that dispatches no ATen op keeps RecordFunction on
    // (switching it off and on rebuilds libtorch's callback lists twice).
    void beginProbeWork(bool opsOff = true);
    void endProbeWork();
    // Time taken off the clock so far (the run metric capture.probe_work_ns).
    int64_t probeWorkNs() const { return excludedNs_; }
    // The probe work of the run on the host clock, in order: what a GPU
    // tracer's timestamps need taken off (GpuTimeline.h).
    const std::vector<HostInterval>& probeWork() const { return probeWork_; }
    // The run's origin on the host clock (HostClock::nowNs()).
    int64_t originHostNs() const { return originNs_; }
    // The run's metrics of the capture itself: probe work, the clock's source
    // and its disagreement with steady_clock (capture.clock_disagreement_ns),
    // and energy (energyMetrics).
    std::vector<RunMetricRow> runMetrics() const;

    // Phase spans tile the run: beginPhase ends the previous phase first.
    void beginPhase(Phase phase, int step = 0);
    void endPhase();
    // Energy per inference and per phase (measured by RAPL where readable, else
    // energy.available = 0 with the reason), for the run's metrics.
    std::vector<RunMetricRow> energyMetrics() const;
    Phase phase() const { return phase_; } // None before the first phase
    int64_t lastPhaseEndNs() const { return lastPhaseEnd_; }
    int step() const { return step_; }

    // Module spans (ProbeScope calls these).
    void enter(int64_t moduleId);
    void exit();
    // Opens a span of the module `path`, created on first use as a child of
    // the innermost open span's module (hooks of an eager model).
    void enterModule(const std::string& path, const std::string& kind, ModuleRole role);
    // The layer of the innermost open span's module (ModuleRoles.h), if it has one.
    std::optional<int> innermostLayer() const;
    // The innermost open module span's module id.
    std::optional<int64_t> innermostModule() const {
        return spanStack_.empty() ? std::nullopt : std::optional<int64_t>(spanStack_.back().module);
    }

    // The path of a module this recorder created (followScriptHierarchy,
    // enterModule); nullopt for another id (the built-in model's own).
    std::optional<std::string> modulePath(int64_t moduleId) const;
    // The most module spans open at once so far: the module tree's depth the
    // run reached.
    int deepestSpan() const { return deepestSpan_; }

    // TorchScript models have no probes: their module spans follow the
    // interpreter's module hierarchy at each top-level op. The root module
    // is `rootKind`; submodules become module rows as they first appear,
    // their paths made of instance names ("vision.block0").
    void followScriptHierarchy(const std::string& rootKind);
    bool followsScriptHierarchy() const { return scriptHierarchy_; }
    // Names a submodule from its parent's path and its instance name. The
    // hierarchy skips containers without a forward (a ModuleList's "blocks"
    // in "llm.blocks.3"); the resolver puts them back so paths match the
    // model's own names. Without one, paths join instance names.
    // The resolver returns nullopt for a child the model does not have.
    void setChildResolver(
        std::function<std::optional<std::string>(const std::string&, const std::string&)> f) {
        resolveChild_ = std::move(f);
    }
    // Gives every module row created from the hierarchy its role, layer and
    // expert index (a user model's role manifest).
    void setModuleRoles(std::function<void(ModuleRow&)> assign) {
        assignRoles_ = std::move(assign);
    }
    // Sees the outputs of top-level ops and the closing of module spans
    // (routing and attention of user models) while a module of a role it
    // watches is open (always, if it names none); set before startOps().
    // Ops run with the callback that copies outputs only while the observer
    // wants them — except under a TorchScript hierarchy, whose spans open
    // inside the first op's start callback, too late to choose that op's:
    // there every op copies them and only the observer's calls are scoped.
    void setObserver(OpObserver* observer);
    OpObserver* observer() const { return observer_; }
    // Whether ops now run with the output-copying callback.
    bool observing() const { return observingNow_; }
    // Whether the observer wants the op ending now: one is set, it is not
    // idle, and a module of a role it watches is open (or it watches every op).
    bool wantsOutputs() const;
    // The observer's idleness may have changed: switches the output-copying
    // callback on or off to match.
    void observerChanged() { updateObserving(); }
    // Top-level ops whose outputs the observer was shown: 0 on a model
    // without a module of a role it watches.
    int64_t observedOps() const { return observedOps_; }
    void countObservedOp() { ++observedOps_; }
    // Told the id of every recorded op and module span while it runs (a GPU
    // tracer's correlation); null: none. Set before the run starts.
    void setCorrelationMarks(CorrelationMarks* marks) { marks_ = marks; }
    CorrelationMarks* correlationMarks() const { return marks_; }
    // Reads a GPU's energy counter at the phase boundaries too (not owned;
    // null: none): energy.gpu_j and energy.<phase>.gpu_j. Set before the run.
    void setGpuEnergy(cuda::NvmlEnergy* meter) { energy_.attachGpu(meter); }
    // Times module spans on the GPU with CUDA events (span.device_ns), read
    // at phase boundaries, outside every phase; in exact mode it also waits
    // for the GPU at every probe, span or op, before the clock is read. Not
    // owned; null: none. Set before the run.
    void setDeviceTimer(cuda::EventTimer* timer) {
        timer_ = timer;
        waitAtProbes_ = timer && timer->mode() == cuda::DeviceTiming::Exact;
    }
    // Exact device timing: an op probe waits for the GPU (waitForDevice)
    // before it reads the clock.
    bool waitsAtProbes() const { return waitAtProbes_; }
    void waitForDevice() { timer_->settle(); }
    // Module ids of the open spans, outermost first.
    std::vector<int64_t> openModules() const;
    // Whether TorchScript's module hierarchy (its frames as the interpreter
    // names them) is the one the open spans were last synced to; if not, it
    // is remembered and the caller syncs. Phase boundaries forget it.
    bool sameScriptHierarchy(const std::vector<std::string>& frames);
    // The frames below the root, outermost first: (instance name, type);
    // `inModel` false: the op ran outside the model's methods.
    void syncHierarchy(const std::vector<std::pair<std::string, std::string>>& frames,
                       bool inModel);

    // Starts/stops recording ATen ops on the calling thread.
    void startOps();
    void stopOps();

    // Queues other rows of this run (routing, tokens, metrics) for the writer.
    void submit(Batch&& rows);
    // Hands everything pending to the writer.
    void flush();

    int64_t opsRecorded() const { return opCount_; }
    int64_t spansRecorded() const { return spanCount_; }

    // Called by the RecordFunction callbacks in Recorder.cpp. Every op call
    // on the recording thread gets a frame, recorded or not, so that FLOPs
    // are counted at the innermost op with a formula (where the arithmetic
    // happens) and handed up to the outermost recorded op.
    struct OpFrame {
        int64_t id = 0;                        // the op row's id; 0 when the call is not recorded
        std::optional<int64_t> ownFlops;       // this op's formula, if it has one
        bool arithmetic = false;               // the formula counts real arithmetic (not a view)
        ChildCalls children;                   // what its nested calls added up to
        const std::string* leafName = nullptr; // the op's name, interned (the leaf table's key)
        bool nestedUnobserved = false;         // its nested calls run unseen (replayNested)
    };
    // What a finished call hands to its row and its parent.
    struct OpOutcome {
        int64_t flops = 0;
        bool known = false;
    };
    int64_t nextOpId() { return ++opCount_; }
    size_t opDepth() const { return opStack_.size(); }
    // The innermost recorded op on the stack (parent of a nested row), if any.
    std::optional<int64_t> recordedParent() const {
        for (auto it = opStack_.rbegin(); it != opStack_.rend(); ++it)
            if (it->id != 0) return it->id;
        return std::nullopt;
    }
    // A new innermost frame, to fill in place (valid until the next push).
    OpFrame& pushOp() { return opStack_.emplace_back(); }
    bool innermostOpRecorded() const { return !opStack_.empty() && opStack_.back().id != 0; }
    // Pops the innermost frame, counts it and hands its FLOPs to its parent.
    OpOutcome popOp();
    bool recordNestedOps() const { return recordNested_; }
    // A top-level call seen before with the same arguments has the same nested
    // calls: the first such call collects them (collectNested, then
    // takeCollected after its popOp), later ones replay them into their frame
    // (replayNested) and run them unobserved. A nested call whose shapes come
    // from data (nonzero, unique, …) makes its top-level call unrepeatable.
    void collectNested();
    void markUnrepeatable() { collectedFits_ = false; }
    std::optional<NestedCalls> takeCollected();
    void replayNested(const NestedCalls& nested);
    bool innermostNestedUnobserved() const {
        return !opStack_.empty() && opStack_.back().nestedUnobserved;
    }
    std::optional<int64_t> currentSpan() const {
        return spanStack_.empty() ? std::nullopt : std::optional<int64_t>(spanStack_.back().id);
    }
    // A recorded op's row while the call runs: beginRecord at its start (a
    // slot reused from call to call: nothing allocated), finishRecord at its
    // end hands it to the writer; a top-level op also adds its cost to the
    // enclosing span.
    OpRecord& beginRecord() {
        if (openRecords_ == records_.size()) records_.emplace_back();
        return records_[openRecords_++];
    }
    void finishRecord(int64_t endNs, const OpOutcome& outcome);

private:
    struct SpanFrame {
        int64_t id, module, start, flops, bytes;
        std::optional<int64_t> parent;
        int64_t ops = 0, knownOps = 0; // top-level ops inside, children included
        cuda::EventTimer::Mark deviceStart = 0;
    };
    // A closed span whose device time waits for its events to be read.
    struct AwaitingSpan {
        SpanRow row;
        cuda::EventTimer::Mark start, end;
    };
    void resolveDeviceTimes();
    std::vector<RunMetricRow> deviceTimingMetrics() const;
    void maybeFlush();
    RunMetricRow clockMetric() const;
    void countLeaf(const std::string* name, int64_t flops);
    void closeHierarchy();
    // `parent`'s child `instance` by the resolver; "" when the model has none.
    std::string childOf(const std::string& parent, const std::string& instance);
    int64_t moduleFor(const std::string& path, const std::string& kind,
                      std::optional<int64_t> parent);

    SessionWriter& writer_;
    int64_t run_;
    bool recordOps_;
    bool recordNested_;
    bool opsActive_ = false;
    // Exact device timing; beside the other flags (in their padding), so the
    // op probes' check of it touches no other cache line and moves no field.
    bool waitAtProbes_ = false;
    const HostClock& clock_;
    int64_t originNs_ = 0;       // the run's origin on clock_
    int64_t steadyOriginNs_ = 0; // the same moment on steady_clock, to check clock_ against
    Phase phase_ = Phase::None;
    int step_ = 0;
    int64_t phaseStart_ = 0;
    bool inPhase_ = false;
    bool started_ = false;
    int64_t lastPhaseEnd_ = 0;
    EnergyMeter energyMeter_;
    PhaseEnergy energy_{&energyMeter_}; // sampled between phases, outside their spans
    std::vector<SpanFrame> spanStack_;
    std::vector<OpFrame> opStack_;
    std::vector<OpRecord> records_; // the recorded calls still running, innermost last
    size_t openRecords_ = 0;
    // FLOPs by the innermost op that computed them, per phase (the leaf_flops
    // table), keyed by the op's identity; `leaves_` points into the current phase's.
    struct LeafCount {
        std::string name;
        int64_t calls = 0, flops = 0;
    };
    using LeafCounts = std::unordered_map<const std::string*, LeafCount>;
    std::map<Phase, LeafCounts> leavesByPhase_;
    LeafCounts* leaves_ = nullptr;
    // A direct-mapped cache over *leaves_ (its nodes never move), cleared with
    // the phase: counting a leaf hashes nothing on the common path.
    struct LeafSlot {
        const std::string* name = nullptr;
        LeafCount* count = nullptr;
    };
    std::array<LeafSlot, 64> leafSlots_{};
    void useLeavesOf(Phase phase);
    void noteWatched(const ModuleRow& row);
    bool copiesOutputs() const;
    void updateObserving();
    bool leavesChanged_ = false;
    bool collecting_ = false, collectedFits_ = true, collectedDone_ = false;
    NestedCalls collected_;
    int64_t spanCount_ = 0, opCount_ = 0;
    Batch pending_;
    int64_t lastFlushNs_ = 0;
    bool scriptHierarchy_ = false;
    std::string rootKind_;
    std::map<std::string, int64_t> moduleIds_;              // path → module id ("" is the root)
    std::vector<std::pair<std::string, std::string>> open_; // hierarchy spans open now (path,
                                                            // kind), outermost first
    std::function<void(ModuleRow&)> assignRoles_;
    std::function<std::optional<std::string>(const std::string&, const std::string&)> resolveChild_;
    std::map<std::pair<std::string, std::string>, std::optional<std::string>> childPaths_; // cached
    std::string lostAnchor_; // the module a frameless loop's callees were placed under
    std::vector<std::string> lastScriptFrames_; // sameScriptHierarchy's memory
    bool scriptFramesKnown_ = false;
    std::map<int64_t, std::optional<int>> layerOf_; // module id → layer (enterModule's modules)
    OpObserver* observer_ = nullptr;
    std::vector<ModuleRole> watchedRoles_; // the observer's (OpObserver::watchedRoles)
    std::unordered_set<int64_t> watched_;  // modules of those roles
    int watchedOpen_ = 0;                 // their spans open now
    bool observingNow_ = false, hadObserver_ = false;
    int64_t observedOps_ = 0;
    CorrelationMarks* marks_ = nullptr;
    int probeDepth_ = 0;
    bool probeOpsWereOn_ = false, probeSwitchedOps_ = false;
    int64_t probeStart_ = 0, excludedNs_ = 0;
    std::vector<HostInterval> probeWork_;
    // Device timing, last: the fields the op probes read keep their places.
    cuda::EventTimer* timer_ = nullptr;
    std::vector<AwaitingSpan> awaitingDevice_;
    int64_t deviceTimedSpans_ = 0;
    std::string deviceTimingError_;   // the first failure to read the events
    std::vector<std::string> pathOf_; // module id - 1 → path, for the modules created here
    int deepestSpan_ = 0;
};

// `{ ProbeWork w(rec); ... }` marks the profiler's own work (Recorder::
// beginProbeWork): its ops are not the model's, its time is not the model's.
// A null recorder (an unprobed pass) costs one branch.
class ProbeWork {
public:
    explicit ProbeWork(Recorder* r, bool opsOff = true) : r_(r) {
        if (r_) r_->beginProbeWork(opsOff);
    }
    ~ProbeWork() {
        if (r_) r_->endProbeWork();
    }
    ProbeWork(const ProbeWork&) = delete;
    ProbeWork& operator=(const ProbeWork&) = delete;

private:
    Recorder* r_;
};

// Marks one call of a module: `{ ProbeScope s(rec, id); ... }`. A null
// recorder (the --no-probes path) costs one branch.
class ProbeScope {
public:
    ProbeScope(Recorder* r, int64_t moduleId) : r_(r) {
        if (r_) r_->enter(moduleId);
    }
    ~ProbeScope() {
        if (r_) r_->exit();
    }
    ProbeScope(const ProbeScope&) = delete;
    ProbeScope& operator=(const ProbeScope&) = delete;

private:
    Recorder* r_;
};

} // namespace mvp
