#pragma once
// Collects what a probed model run does — phases, module spans, ATen ops —
// and hands it to the SessionWriter in batches. Plain C++ header: model code
// marks modules with ProbeScope, and only Recorder.cpp sees libtorch's
// RecordFunction API.
//
// One Recorder records one run on one thread (the thread that calls
// startOps()); ops that libtorch runs on its worker threads are not recorded.

#include "core/session/Records.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

class SessionWriter;

class Recorder {
public:
    // recordOps: record ATen ops at all; recordNestedOps: also the calls nested
    // inside an op that owns its cost (views, the mm under a matmul).
    Recorder(SessionWriter& writer, int64_t run, bool recordOps, bool recordNestedOps = false);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // Nanoseconds since the run's origin: the start of the first phase.
    int64_t nowNs() const;

    // Phase spans tile the run: beginPhase ends the previous phase first.
    void beginPhase(const std::string& phase, int step = 0);
    void endPhase();
    const std::string& phase() const { return phase_; }
    int64_t lastPhaseEndNs() const { return lastPhaseEnd_; }
    int step() const { return step_; }

    // Module spans (ProbeScope calls these).
    void enter(int64_t moduleId);
    void exit();

    // TorchScript models have no probes: their module spans follow the
    // interpreter's module hierarchy at each top-level op. The root module
    // is `rootKind`; submodules become module rows as they first appear,
    // their paths made of instance names ("vision.block0").
    void followScriptHierarchy(const std::string& rootKind);
    bool followsScriptHierarchy() const { return scriptHierarchy_; }
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

    // Called by the RecordFunction callbacks in Recorder.cpp.
    struct OpFrame {
        int64_t id;
        bool ownsCost;
    };
    struct SpanFrame {
        int64_t id, module, start, flops, bytes;
        std::optional<int64_t> parent;
    };
    int64_t nextOpId() { return ++opCount_; }
    const std::vector<OpFrame>& opStack() const { return opStack_; }
    void pushOp(OpFrame f);
    void popOp();
    int ownerDepth() const { return ownerDepth_; }
    bool recordNestedOps() const { return recordNested_; }
    std::optional<int64_t> currentSpan() const;
    void addOp(OpRow&& row); // also adds its cost to the enclosing span

private:
    void maybeFlush();
    void closeHierarchy();
    int64_t moduleFor(const std::string& path, const std::string& kind,
                      std::optional<int64_t> parent);

    SessionWriter& writer_;
    int64_t run_;
    bool recordOps_;
    bool recordNested_;
    int ownerDepth_ = 0;
    bool opsActive_ = false;
    std::chrono::steady_clock::time_point origin_;
    std::string phase_;
    int step_ = 0;
    int64_t phaseStart_ = 0;
    bool inPhase_ = false;
    bool started_ = false;
    int64_t lastPhaseEnd_ = 0;
    std::vector<SpanFrame> spanStack_;
    std::vector<OpFrame> opStack_;
    int64_t spanCount_ = 0, opCount_ = 0;
    Batch pending_;
    int64_t lastFlushNs_ = 0;
    bool scriptHierarchy_ = false;
    std::string rootKind_;
    std::map<std::string, int64_t> moduleIds_; // path → module id ("" is the root)
    std::vector<std::string> openPaths_;       // hierarchy spans open now, outermost first
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
