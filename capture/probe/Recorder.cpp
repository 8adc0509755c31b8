#include "capture/probe/Recorder.h"

#include "capture/cuda/CorrelationMarks.h"
#include "capture/probe/OpObserver.h"
#include "capture/probe/OpProbe.h"
#include "core/session/ModuleRoles.h"
#include "core/session/SessionWriter.h"

#include <ATen/record_function.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <set>

namespace mvp {

namespace {

// Rows are handed to the writer when this many are pending, or when this much
// time has passed, so the session on disk never lags the run by much.
constexpr size_t kFlushRows = SessionWriter::kRecordBufferRows;

constexpr int64_t kFlushEveryNs = 500'000'000;

} // namespace

Recorder::Recorder(SessionWriter& writer, int64_t run, bool recordOps, bool recordNestedOps)
    : writer_(writer), run_(run), recordOps_(recordOps), recordNested_(recordNestedOps),
      clock_(HostClock::instance()), originNs_(clock_.nowNs()),
      steadyOriginNs_(HostClock::steadyNs()) {
    pending_.run = run;
    if (recordOps_) writer_.prepareRecordBuffers();
}

Recorder::~Recorder() {
    stopOps();
    // Spans whose events were never read (the run ended inside one) keep no
    // device time; the timer may be gone by now, so it is not asked.
    for (AwaitingSpan& a : awaitingDevice_)
        pending_.spans.push_back(std::move(a.row));
    flush();
}

// Shifting the clock back by the work's duration takes it out of every span,
// op and phase still open around it, and out of nothing that ended before.
void Recorder::beginProbeWork(bool opsOff) {
    if (probeDepth_++ > 0) {
        // Nested work that dispatches ops inside work that switched nothing off.
        if (opsOff && !probeSwitchedOps_) {
            probeSwitchedOps_ = true;
            probeOpsWereOn_ = at::isRecordFunctionEnabled();
            at::enableRecordFunction(false);
        }
        return;
    }
    // The clock stops first: switching RecordFunction off and on again (a
    // rebuild of libtorch's callback lists each time) is the probe's cost too.
    probeStart_ = nowNs();
    probeSwitchedOps_ = opsOff;
    if (opsOff) {
        probeOpsWereOn_ = at::isRecordFunctionEnabled();
        at::enableRecordFunction(false);
    }
    if (marks_) marks_->probeWorkStarted();
}

std::vector<RunMetricRow> Recorder::runMetrics() const {
    std::vector<RunMetricRow> out{
        {"capture.probe_work_ns", double(excludedNs_), "ns", "measured",
         "the profiler's own work inside the run (routing rows, attention copies, KV-error "
         "bookkeeping, observers), taken off the run's clock: its spans and phases exclude it"},
        clockMetric()};
    if (hadObserver_)
        out.push_back({"capture.observed_ops", double(observedOps_), "ops", "measured",
                       "ops whose outputs the attention or routing observer read: only those "
                       "inside modules of the roles it reads (attention; a TorchScript model's "
                       "routers and attention)"});
    for (auto& m : deviceTimingMetrics())
        out.push_back(std::move(m));
    for (auto& m : energyMetrics())
        out.push_back(std::move(m));
    return out;
}

// The run's clock against steady_clock from the run's origin to now: a
// time-stamp counter that was not steady after all shows here.
RunMetricRow Recorder::clockMetric() const {
    const int64_t byClock = clock_.nowNs() - originNs_;
    const int64_t bySteady = HostClock::steadyNs() - steadyOriginNs_;
    RunMetricRow m{"capture.clock_disagreement_ns", double(byClock - bySteady), "ns", "measured",
                   ""};
    if (!clock_.countsTicks()) {
        m.note = "op, span and phase times come from steady_clock (no invariant time-stamp "
                 "counter here)";
        return m;
    }
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.4f GHz", clock_.ticksPerSecond() / 1e9);
    m.note = std::string("op, span and phase times come from the CPU's invariant time-stamp "
                         "counter (") +
             rate +
             ", calibrated against steady_clock); this is how far the two disagreed over the "
             "run";
    if (bySteady > 0 && std::abs(double(byClock - bySteady)) > 1e-3 * double(bySteady))
        m.note += " — over 0.1 %: the counter was not steady, so durations may be off by as much";
    return m;
}

void Recorder::endProbeWork() {
    if (probeDepth_ == 0 || --probeDepth_ > 0) return;
    if (marks_) marks_->probeWorkEnded();
    if (probeSwitchedOps_) at::enableRecordFunction(probeOpsWereOn_);
    probeSwitchedOps_ = false;
    const int64_t took = nowNs() - probeStart_;
    // On the host clock, for putting a GPU tracer's records on the run's
    // (GpuTimeline.h): the run's clock stood still from here to the end.
    const int64_t hostStart = probeStart_ + originNs_ + excludedNs_;
    probeWork_.push_back({hostStart, hostStart + took});
    excludedNs_ += took;
}

void Recorder::followScriptHierarchy(const std::string& rootKind) {
    scriptHierarchy_ = true;
    rootKind_ = rootKind;
}

int64_t Recorder::moduleFor(const std::string& path, const std::string& kind,
                            std::optional<int64_t> parent) {
    const auto it = moduleIds_.find(path);
    if (it != moduleIds_.end()) return it->second;
    const int64_t id = int64_t(moduleIds_.size()) + 1;
    moduleIds_[path] = id;
    ModuleRow row{id, path.empty() ? std::string("model") : path, kind, parent, 0};
    pathOf_.push_back(row.path);
    if (assignRoles_) assignRoles_(row);
    noteWatched(row);
    pending_.modules.push_back(std::move(row));
    return id;
}

std::string Recorder::childOf(const std::string& parent, const std::string& instance) {
    if (!resolveChild_) return parent.empty() ? instance : parent + "." + instance;
    auto [it, fresh] = childPaths_.try_emplace({parent, instance});
    if (fresh) it->second = resolveChild_(parent, instance);
    return it->second.value_or("");
}

void Recorder::syncHierarchy(const std::vector<std::pair<std::string, std::string>>& frames,
                             bool inModel) {
    // Inside the model the root is open; below it, keep the common prefix,
    // close the rest and open what is new.
    if (!inModel) {
        closeHierarchy();
        return;
    }
    // TorchScript reports the ops of an unrolled loop over a ModuleList (a
    // Mixtral layer's experts) without the frames around them: no frame at
    // all for the loop's own ops, only the callee's for a call. Such ops stay
    // with the module that was running (the MoE block); a callee that is not
    // a child of its reported parent is placed under the deepest open module
    // that has it as a child.
    if (frames.empty() && open_.size() > 1 && resolveChild_) {
        if (!lostAnchor_.empty())
            while (open_.size() > 1 && open_.back().first != lostAnchor_) {
                exit();
                open_.pop_back();
            }
        return;
    }
    std::vector<std::pair<std::string, std::string>> wanted{{"", rootKind_}};
    bool anchored = false;
    for (const auto& [instance, type] : frames) {
        std::string path = childOf(wanted.back().first, instance);
        if (path.empty()) {
            const size_t depth = wanted.size();
            for (size_t j = open_.size(); j-- > depth;) {
                const bool below = open_[j].first.rfind(wanted.back().first, 0) == 0;
                if (std::string p = childOf(open_[j].first, instance); below && !p.empty()) {
                    lostAnchor_ = open_[j].first;
                    wanted.insert(wanted.end(), open_.begin() + ptrdiff_t(depth),
                                  open_.begin() + ptrdiff_t(j) + 1);
                    path = p;
                    anchored = true;
                    break;
                }
            }
            if (path.empty()) // not in the model: named as the hierarchy names it
                path =
                    wanted.back().first.empty() ? instance : wanted.back().first + "." + instance;
        }
        wanted.emplace_back(path, type);
    }
    if (!anchored) lostAnchor_.clear();
    size_t common = 0;
    while (common < open_.size() && common < wanted.size() &&
           open_[common].first == wanted[common].first)
        ++common;
    while (open_.size() > common) {
        exit();
        open_.pop_back();
    }
    for (size_t i = common; i < wanted.size(); ++i) {
        const std::optional<int64_t> parent =
            i == 0 ? std::nullopt : std::optional<int64_t>(moduleIds_.at(wanted[i - 1].first));
        enter(moduleFor(wanted[i].first, wanted[i].second, parent));
        open_.push_back(wanted[i]);
    }
}

bool Recorder::sameScriptHierarchy(const std::vector<std::string>& frames) {
    if (scriptFramesKnown_ && frames == lastScriptFrames_) return true;
    lastScriptFrames_ = frames;
    scriptFramesKnown_ = true;
    return false;
}

void Recorder::closeHierarchy() {
    scriptFramesKnown_ = false; // the spans it opened are closed: the next op reopens them
    lostAnchor_.clear();
    while (!open_.empty()) {
        exit();
        open_.pop_back();
    }
}

void Recorder::beginPhase(Phase phase, int step) {
    closeHierarchy();
    // The run's origin is the start of its first phase: set-up before it
    // (allocations, registering callbacks) is not part of the run.
    if (!started_) {
        originNs_ = clock_.nowNs();
        steadyOriginNs_ = HostClock::steadyNs();
        started_ = true;
        // Probe work before the origin is outside the run, not taken off it.
        excludedNs_ = 0;
        probeStart_ = 0;
        probeWork_.clear();
    }
    const int64_t now = nowNs();
    if (inPhase_) pending_.phases.push_back({phase_, step_, phaseStart_, now});
    lastPhaseEnd_ = now;
    energy_.phaseBoundary(phase); // between the phases: its reads are in neither
    resolveDeviceTimes();         // and so is the wait for the GPU's events
    phase_ = phase;
    step_ = step;
    useLeavesOf(phase_);
    phaseStart_ = nowNs();
    inPhase_ = true;
    maybeFlush();
}

void Recorder::endPhase() {
    closeHierarchy();
    if (!inPhase_) return;
    lastPhaseEnd_ = nowNs();
    pending_.phases.push_back({phase_, step_, phaseStart_, lastPhaseEnd_});
    inPhase_ = false;
    energy_.phaseBoundary(Phase::None);
    resolveDeviceTimes();
    maybeFlush();
}

std::vector<RunMetricRow> Recorder::energyMetrics() const {
    std::vector<RunMetricRow> out;
    for (const auto& m : energy_.metrics())
        out.push_back({m.name, m.value, m.unit, "measured", m.note});
    return out;
}

void Recorder::enter(int64_t moduleId) {
    SpanFrame f{++spanCount_, moduleId, 0, 0, 0, currentSpan()};
    if (timer_) {
        timer_->settle(); // exact mode: what ran before is not the span's
        f.deviceStart = timer_->mark();
    }
    spanStack_.push_back(f);
    deepestSpan_ = std::max(deepestSpan_, int(spanStack_.size()));
    if (watched_.count(moduleId) && watchedOpen_++ == 0) updateObserving();
    if (marks_) marks_->spanStarted(f.id);
    spanStack_.back().start = nowNs();
}

void Recorder::setObserver(OpObserver* observer) {
    observer_ = observer;
    watchedRoles_ = observer ? observer->watchedRoles() : std::vector<ModuleRole>{};
}

void Recorder::noteWatched(const ModuleRow& row) {
    if (std::find(watchedRoles_.begin(), watchedRoles_.end(), row.role) != watchedRoles_.end())
        watched_.insert(row.id);
}

bool Recorder::wantsOutputs() const {
    return observer_ && (watchedRoles_.empty() || watchedOpen_ > 0) && !observer_->idle();
}

bool Recorder::copiesOutputs() const {
    return observer_ && (scriptHierarchy_ || wantsOutputs());
}

// The callback that copies every op's outputs runs only while the observer
// wants them: for a model's attention, a few modules of many.
void Recorder::updateObserving() {
    if (!opsActive_ || copiesOutputs() == observingNow_) return;
    observingNow_ = !observingNow_;
    probe::enableOpCallbacks(true, observingNow_);
}

void Recorder::enterModule(const std::string& path, const std::string& kind, ModuleRole role) {
    const auto known = moduleIds_.find(path);
    if (known != moduleIds_.end()) {
        enter(known->second);
        return;
    }
    const std::optional<int64_t> parent =
        spanStack_.empty() ? std::nullopt : std::optional<int64_t>(spanStack_.back().module);
    const int64_t id = int64_t(moduleIds_.size()) + 1;
    moduleIds_[path] = id;
    pathOf_.push_back(path);
    ModuleRow row{id, path, kind, parent, 0, role};
    assignIndices(row);
    noteWatched(row);
    layerOf_[id] = row.layer;
    pending_.modules.push_back(std::move(row));
    enter(id);
}

std::optional<std::string> Recorder::modulePath(int64_t moduleId) const {
    if (moduleId < 1 || moduleId > int64_t(pathOf_.size())) return std::nullopt;
    return pathOf_[size_t(moduleId - 1)];
}

std::optional<int> Recorder::innermostLayer() const {
    if (spanStack_.empty()) return std::nullopt;
    const auto it = layerOf_.find(spanStack_.back().module);
    return it == layerOf_.end() ? std::nullopt : it->second;
}

void Recorder::exit() {
    if (spanStack_.empty()) return;
    if (timer_) timer_->settle(); // exact mode: the span's work is done before its end
    const int64_t end = nowNs();
    const cuda::EventTimer::Mark deviceEnd = timer_ ? timer_->mark() : 0;
    if (marks_) marks_->spanEnded();
    const SpanFrame f = spanStack_.back();
    spanStack_.pop_back();
    const bool watched = watched_.count(f.module) > 0;
    if (watched && --watchedOpen_ == 0) updateObserving();
    // Span costs are inclusive: a parent adds its children's.
    if (!spanStack_.empty()) {
        SpanFrame& parent = spanStack_.back();
        parent.flops += f.flops;
        parent.bytes += f.bytes;
        parent.ops += f.ops;
        parent.knownOps += f.knownOps;
    }
    SpanRow row{f.id,    f.module, f.parent,     phase_,  step_,
                f.start, end,      std::nullopt, f.flops, f.bytes};
    row.flopsKnown = f.ops == 0 || f.knownOps > 0;
    if (timer_)
        awaitingDevice_.push_back({std::move(row), f.deviceStart, deviceEnd});
    else
        pending_.spans.push_back(std::move(row));
    if (observer_ && (watched || watchedRoles_.empty())) {
        ProbeWork work(this);
        observer_->moduleClosed(f.module);
    }
    maybeFlush();
}

std::vector<int64_t> Recorder::openModules() const {
    std::vector<int64_t> out;
    out.reserve(spanStack_.size());
    for (const auto& f : spanStack_)
        out.push_back(f.module);
    return out;
}

Recorder::OpOutcome Recorder::popOp() {
    const OpFrame f = opStack_.back(); // small: the record itself lives in records_
    opStack_.pop_back();
    const CallFlops flops = callFlops(f.children, f.ownFlops, f.arithmetic); // docs/format.md's rule
    if (flops.leaf) countLeaf(f.leafName, flops.flops);
    const OpOutcome out{flops.flops, flops.known};
    if (opStack_.empty() && collecting_) {
        collecting_ = false;
        collectedDone_ = true;
        collected_.children = f.children;
    }
    if (!opStack_.empty()) addNestedCall(opStack_.back().children, flops, f.arithmetic, f.children);
    return out;
}

void Recorder::collectNested() {
    collecting_ = true;
    collectedFits_ = true;
    collectedDone_ = false;
    collected_ = {};
}

std::optional<NestedCalls> Recorder::takeCollected() {
    if (!collectedDone_) return std::nullopt;
    collectedDone_ = false;
    if (!collectedFits_) return std::nullopt;
    return collected_;
}

void Recorder::replayNested(const NestedCalls& nested) {
    OpFrame& f = opStack_.back();
    f.nestedUnobserved = true;
    f.children = nested.children;
    for (int i = 0; i < nested.leafCount; ++i)
        countLeaf(nested.leaves[size_t(i)].first, nested.leaves[size_t(i)].second);
}

void Recorder::useLeavesOf(Phase phase) {
    leaves_ = &leavesByPhase_[phase];
    leafSlots_.fill({});
}

void Recorder::countLeaf(const std::string* name, int64_t flops) {
    // A nested leaf of a collected call (its top-level frame still open).
    if (collecting_ && !opStack_.empty()) {
        if (collected_.leafCount == NestedCalls::kMaxLeaves)
            collectedFits_ = false;
        else
            collected_.leaves[size_t(collected_.leafCount++)] = {name, flops};
    }
    if (!leaves_) useLeavesOf(phase_);
    // Interned names are heap blocks: their low bits carry no information.
    LeafSlot& slot = leafSlots_[(reinterpret_cast<uintptr_t>(name) >> 4) % leafSlots_.size()];
    if (slot.name != name) slot = {name, &(*leaves_)[name]};
    LeafCount& c = *slot.count;
    if (c.calls == 0) c.name = *name;
    c.calls += 1;
    c.flops += flops;
    leavesChanged_ = true;
}

void Recorder::finishRecord(int64_t endNs, const OpOutcome& outcome) {
    if (marks_) marks_->opEnded();
    OpRecord& r = records_[--openRecords_];
    r.endNs = endNs;
    r.flops = outcome.flops;
    r.flopsKnown = outcome.known;
    // Only top-level ops add to their span: a nested row's cost is in its parent's.
    if (!spanStack_.empty() && r.parentOp == 0) {
        SpanFrame& span = spanStack_.back();
        span.flops += r.flops;
        span.bytes += r.bytes;
        span.ops += 1;
        span.knownOps += r.flopsKnown ? 1 : 0;
    }
    if (pending_.opRecords.capacity() == 0) {
        pending_.opRecords = writer_.spareRecords();
        pending_.opRecords.reserve(kFlushRows);
    }
    pending_.opRecords.push_back(std::move(r));
    r.overflow.clear(); // the slot is reused: an overflow text must not carry over
    if (pending_.opRecords.size() >= kFlushRows) maybeFlush();
}

void Recorder::startOps() {
    if (!recordOps_ || opsActive_) return;
    probe::setThreadRecorder(this);
    opsActive_ = true;
    hadObserver_ = hadObserver_ || observer_;
    observingNow_ = copiesOutputs();
    probe::enableOpCallbacks(true, observingNow_);
}

void Recorder::stopOps() {
    if (!opsActive_) return;
    probe::enableOpCallbacks(false, false);
    probe::setThreadRecorder(nullptr);
    opsActive_ = false;
    observingNow_ = false;
}

void Recorder::submit(Batch&& rows) {
    rows.run = run_;
    writer_.submit(std::move(rows));
}

// Once per phase boundary: one wait for the GPU's last event, then each
// closed span's device time from its two events. Spans still open keep their
// marks for a later boundary.
void Recorder::resolveDeviceTimes() {
    if (!timer_ || !spanStack_.empty() || timer_->pending() == 0) return;
    const auto times = timer_->resolve();
    for (AwaitingSpan& a : awaitingDevice_) {
        if (times && a.end < times->size() && a.start < a.end) {
            a.row.deviceNs = std::max<int64_t>(0, (*times)[a.end] - (*times)[a.start]);
            ++deviceTimedSpans_;
        }
        pending_.spans.push_back(std::move(a.row));
    }
    awaitingDevice_.clear();
    if (!times && deviceTimingError_.empty()) deviceTimingError_ = times.error().message;
}

std::vector<RunMetricRow> Recorder::deviceTimingMetrics() const {
    if (!timer_) return {};
    const bool exact = timer_->mode() == cuda::DeviceTiming::Exact;
    std::string note =
        exact ? "exact: the host waited for the GPU at every span and op probe before reading "
                "its clock, so op, span and phase times include their device work (and the "
                "waits); span.device_ns from CUDA events around each span"
              : "events: span.device_ns from CUDA events recorded on the legacy default stream "
                "at each span's start and end, read once per phase step (no wait per probe); "
                "op and span times are host launch times";
    if (!deviceTimingError_.empty())
        note += "; some spans have no device time: " + deviceTimingError_;
    return {{"gpu.device_timing", exact ? 2.0 : 1.0, "", "measured", note},
            {"gpu.device_timing_waits", double(timer_->waits()), "count", "measured",
             "host waits for the GPU the device timing made"},
            {"gpu.device_timed_spans", double(deviceTimedSpans_), "count", "measured",
             "module spans with a device time (span.device_ns)"}};
}

void Recorder::maybeFlush() {
    const int64_t now = nowNs();
    if (pending_.rowCount() >= kFlushRows || now - lastFlushNs_ >= kFlushEveryNs) flush();
}

void Recorder::flush() {
    lastFlushNs_ = nowNs();
    if (leavesChanged_) {
        // Cumulative counts, which the writer replaces; overloads of one op
        // (aten::bmm and its out= form) are one row.
        std::map<std::pair<Phase, std::string>, LeafFlopsRow> rows;
        for (const auto& [phase, counts] : leavesByPhase_)
            for (const auto& [key, c] : counts) {
                LeafFlopsRow& r = rows[{phase, c.name}];
                r.phase = phase;
                r.name = c.name;
                r.calls += c.calls;
                r.flops += c.flops;
            }
        for (auto& [key, r] : rows)
            pending_.leafFlops.push_back(std::move(r));
        leavesChanged_ = false;
    }
    if (pending_.empty()) return;
    Batch out;
    std::swap(out, pending_);
    pending_.run = run_;
    writer_.submit(std::move(out));
}

} // namespace mvp
