#include "capture/Recorder.h"

#include "capture/Flops.h"
#include "capture/OpObserver.h"
#include "core/session/SessionWriter.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <memory>
#include <mutex>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <unordered_map>

namespace mvp {

namespace {

// Rows are handed to the writer when this many are pending, or when this much
// time has passed, so the session on disk never lags the run by much.
constexpr size_t kFlushRows = 8192;
constexpr int64_t kFlushEveryNs = 500'000'000;

thread_local Recorder* tlsRecorder = nullptr;

struct OpContext final : at::ObserverContext {
    OpRow row;
};

// What the probe needs to know of an op overload, found once per process.
struct OpInfo {
    std::string name;
    OpClass cls = OpClass::Other;
    int schemaArgs = -1;    // arguments in its schema; -1: no schema (use every input)
    int schemaReturns = -1; // values it returns; -1: no schema (use every output)
};

// Dispatcher ops name themselves with their schema's string, which lives as
// long as the process: its address identifies the overload on the fast path.
// The text is compared too, in case a name that is no schema's reuses an address.
std::mutex gOpInfoMutex;
std::unordered_map<std::string, std::unique_ptr<OpInfo>> gOpInfo; // "name.overload" → info
thread_local std::unordered_map<const char*, const OpInfo*> tlsOpByAddress;

const OpInfo& opInfo(const at::RecordFunction& fn) {
    const char* name = fn.name();
    if (const auto it = tlsOpByAddress.find(name);
        it != tlsOpByAddress.end() && it->second->name == name)
        return *it->second;
    const auto op = fn.operator_name();
    std::string key = name;
    if (op) key += "." + op->overload_name;
    std::lock_guard lock(gOpInfoMutex);
    auto& slot = gOpInfo[key];
    if (!slot) {
        slot = std::make_unique<OpInfo>();
        slot->name = name;
        slot->cls = classifyOp(name);
        if (op)
            if (const auto handle = c10::Dispatcher::singleton().findSchema(*op)) {
                slot->schemaArgs = int(handle->schema().arguments().size());
                slot->schemaReturns = int(handle->schema().returns().size());
            }
    }
    if (op) tlsOpByAddress[name] = slot.get();
    return *slot;
}

// The op's own arguments. libtorch hands the callback the interpreter's whole
// stack, which may hold values below them (an aten::linear called from a
// scripted submodule arrives with one extra leading tensor): the last N, N
// from the schema, are the arguments.
c10::ArrayRef<const c10::IValue> schemaInputs(const at::RecordFunction& fn, const OpInfo& info) {
    const auto inputs = fn.inputs();
    if (info.schemaArgs >= 0 && size_t(info.schemaArgs) < inputs.size())
        return inputs.slice(inputs.size() - size_t(info.schemaArgs));
    return inputs;
}

OpArg tensorArg(const at::Tensor& t) {
    OpArg a;
    if (!t.defined()) return a;
    a.kind = OpArg::Tensor;
    a.values = t.sizes().vec();
    a.elemSize = int(t.element_size());
    a.contiguous = t.is_contiguous();
    return a;
}

OpArg toArg(const c10::IValue& v) {
    OpArg a;
    if (v.isTensor()) return tensorArg(v.toTensor());
    if (v.isTensorList()) {
        a.kind = OpArg::TensorList;
        for (const auto& t : v.toTensorList())
            a.items.push_back(tensorArg(t));
    } else if (v.isIntList()) {
        a.kind = OpArg::IntList;
        a.values = v.toIntVector();
    } else if (v.isInt()) {
        a.kind = OpArg::Int;
        a.values = {v.toInt()};
    } else if (v.isBool()) {
        a.kind = OpArg::Int;
        a.values = {v.toBool() ? 1 : 0};
    }
    return a;
}

void appendShape(std::string& s, const OpArg& a) {
    s += "[";
    for (size_t i = 0; i < a.values.size(); ++i)
        s += (i ? "," : "") + std::to_string(a.values[i]);
    s += "]";
}

// The tensor arguments' shapes, a tensor list's members in order.
std::string shapesText(const std::vector<OpArg>& args) {
    std::string s = "[";
    bool first = true;
    for (const auto& a : args) {
        if (a.kind == OpArg::Tensor) {
            s += first ? "" : ",";
            appendShape(s, a);
            first = false;
        } else if (a.kind == OpArg::TensorList) {
            for (const auto& t : a.items) {
                if (t.kind != OpArg::Tensor) continue;
                s += first ? "" : ",";
                appendShape(s, t);
                first = false;
            }
        }
    }
    return s + "]";
}

std::string dtypeOf(c10::ArrayRef<const c10::IValue> inputs) {
    for (const auto& v : inputs)
        if (v.isTensor() && v.toTensor().defined())
            return std::string(c10::toString(v.toTensor().scalar_type()));
    return {};
}

// TorchScript frames "vision(VisionEncoder)::forward" → (instance, type); TOP
// and SELF are the root and calls within the same module.
void syncScriptHierarchy(Recorder& rec) {
    std::vector<std::pair<std::string, std::string>> frames;
    const auto hierarchy = torch::jit::currentModuleHierarchy();
    for (const auto& entry : hierarchy) {
        const auto open = entry.find('('), close = entry.find(')');
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        const std::string instance = entry.substr(0, open);
        if (instance == "TOP" || instance == "SELF" || instance.rfind("CALL_FUNCTION", 0) == 0)
            continue;
        std::string type = entry.substr(open + 1, close - open - 1);
        if (const auto dot = type.rfind('.'); dot != std::string::npos) type = type.substr(dot + 1);
        frames.emplace_back(instance, type);
    }
    // Ops outside any TorchScript method (preprocessing) belong to no module.
    rec.syncHierarchy(frames, !hierarchy.empty());
}

std::unique_ptr<at::ObserverContext> onOpStart(const at::RecordFunction& fn) {
    Recorder* rec = tlsRecorder;
    if (!rec) return nullptr;
    const OpInfo& info = opInfo(fn);
    const bool top = rec->opDepth() == 0;
    const bool record = top || rec->recordNestedOps();
    Recorder::OpFrame frame;
    frame.leafKey = &info;
    // A nested call that is not recorded matters only if it does arithmetic:
    // views and copies are known to do none, without reading their inputs.
    if (!record && info.cls != OpClass::Arithmetic) {
        if (info.cls != OpClass::Other) frame.ownFlops = 0;
        rec->pushOp(frame);
        return nullptr;
    }
    const auto inputs = schemaInputs(fn, info);
    std::vector<OpArg> args;
    args.reserve(inputs.size());
    for (const auto& v : inputs)
        args.push_back(toArg(v));
    const OpCost cost = estimateOpCost(info.name, args);
    frame.ownFlops = cost.flops;
    frame.arithmetic = info.cls == OpClass::Arithmetic && cost.flops.has_value();
    if (!record) {
        rec->pushOp(frame);
        return nullptr;
    }
    if (top && rec->followsScriptHierarchy()) syncScriptHierarchy(*rec);
    auto ctx = std::make_unique<OpContext>();
    OpRow& row = ctx->row;
    row.name = info.name;
    row.dtype = dtypeOf(inputs);
    row.bytes = cost.bytes;
    row.id = frame.id = rec->nextOpId();
    row.parentOp = rec->recordedParent();
    row.span = rec->currentSpan();
    row.phase = rec->phase();
    row.step = rec->step();
    row.shapes = shapesText(args);
    rec->pushOp(frame);
    row.startNs = rec->nowNs();
    return ctx;
}

void onOpEnd(const at::RecordFunction& fn, at::ObserverContext* base) {
    Recorder* rec = tlsRecorder;
    if (!rec || rec->opDepth() == 0) return;
    const int64_t end = rec->nowNs();
    const Recorder::OpOutcome outcome = rec->popOp();
    if (rec->opDepth() == 0 && rec->observer()) {
        // Like the inputs, the outputs may sit on top of the interpreter's
        // whole stack: the last N, N from the schema, are the op's.
        const OpInfo& info = opInfo(fn);
        std::vector<c10::IValue> outputs = fn.outputs();
        if (info.schemaReturns >= 0 && size_t(info.schemaReturns) < outputs.size())
            outputs.erase(outputs.begin(), outputs.end() - info.schemaReturns);
        at::RecordFunctionGuard off(false);
        rec->observer()->opEnded(rec->openModules(), info.name, outputs);
    }
    auto* ctx = static_cast<OpContext*>(base);
    if (!ctx) return;
    ctx->row.endNs = end;
    ctx->row.flops = outcome.flops;
    ctx->row.flopsKnown = outcome.known;
    rec->addOp(std::move(ctx->row));
}

// libtorch wants global callbacks registered once; they are switched on only
// while a Recorder is recording, so an uninstrumented run pays nothing.
std::mutex gCallbackMutex;
std::optional<at::CallbackHandle> gCallback, gCallbackOutputs;

// Two registrations: outputs cost a copy per op, so only an observed run asks for them.
void enableOpCallbacks(bool on, bool outputs) {
    std::lock_guard lock(gCallbackMutex);
    auto& handle = outputs ? gCallbackOutputs : gCallback;
    if (!handle) {
        if (!on) return;
        handle = at::addGlobalCallback(at::RecordFunctionCallback(&onOpStart, &onOpEnd)
                                           .needsInputs(true)
                                           .needsOutputs(outputs)
                                           .scopes({at::RecordScope::FUNCTION}));
        return;
    }
    if (on)
        at::reenableCallback(*handle);
    else
        at::disableCallback(*handle);
}

} // namespace

Recorder::Recorder(SessionWriter& writer, int64_t run, bool recordOps, bool recordNestedOps)
    : writer_(writer), run_(run), recordOps_(recordOps), recordNested_(recordNestedOps),
      origin_(std::chrono::steady_clock::now()) {
    pending_.run = run;
}

Recorder::~Recorder() {
    stopOps();
    flush();
}

int64_t Recorder::nowNs() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                origin_)
        .count();
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
    if (assignRoles_) assignRoles_(row);
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

void Recorder::closeHierarchy() {
    lostAnchor_.clear();
    while (!open_.empty()) {
        exit();
        open_.pop_back();
    }
}

void Recorder::beginPhase(const std::string& phase, int step) {
    closeHierarchy();
    // The run's origin is the start of its first phase: set-up before it
    // (allocations, registering callbacks) is not part of the run.
    if (!started_) {
        origin_ = std::chrono::steady_clock::now();
        started_ = true;
    }
    const int64_t now = nowNs();
    if (inPhase_) pending_.phases.push_back({phase_, step_, phaseStart_, now});
    lastPhaseEnd_ = now;
    phase_ = phase;
    step_ = step;
    leaves_ = &leavesByPhase_[phase_];
    phaseStart_ = now;
    inPhase_ = true;
    maybeFlush();
}

void Recorder::endPhase() {
    closeHierarchy();
    if (!inPhase_) return;
    lastPhaseEnd_ = nowNs();
    pending_.phases.push_back({phase_, step_, phaseStart_, lastPhaseEnd_});
    inPhase_ = false;
    maybeFlush();
}

void Recorder::enter(int64_t moduleId) {
    SpanFrame f{++spanCount_, moduleId, 0, 0, 0, currentSpan()};
    spanStack_.push_back(f);
    spanStack_.back().start = nowNs();
}

void Recorder::exit() {
    if (spanStack_.empty()) return;
    const int64_t end = nowNs();
    const SpanFrame f = spanStack_.back();
    spanStack_.pop_back();
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
    pending_.spans.push_back(std::move(row));
    if (observer_) {
        at::RecordFunctionGuard off(false);
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

std::optional<int64_t> Recorder::recordedParent() const {
    for (auto it = opStack_.rbegin(); it != opStack_.rend(); ++it)
        if (it->id != 0) return it->id;
    return std::nullopt;
}

Recorder::OpOutcome Recorder::popOp() {
    const OpFrame f = opStack_.back();
    opStack_.pop_back();
    // Innermost wins: an op whose nested calls did arithmetic is their sum (a
    // linear is its addmm); an op with a formula and no such calls is a leaf.
    OpOutcome out;
    if (f.arithmeticBelow) {
        out = {f.childFlops, true};
    } else if (f.ownFlops) {
        out = {*f.ownFlops, true};
        if (f.arithmetic) countLeaf(f.leafKey, *f.ownFlops);
    } else if (f.children > 0 && f.unknownChildren == 0) {
        out = {f.childFlops, true}; // made only of views and copies
    }
    if (!opStack_.empty()) {
        OpFrame& parent = opStack_.back();
        parent.children += 1;
        if (out.known)
            parent.childFlops += out.flops;
        else
            parent.unknownChildren += 1;
        parent.arithmeticBelow = parent.arithmeticBelow || f.arithmetic || f.arithmeticBelow;
    }
    return out;
}

void Recorder::countLeaf(const void* key, int64_t flops) {
    if (!leaves_) leaves_ = &leavesByPhase_[phase_];
    LeafCount& c = (*leaves_)[key];
    if (c.calls == 0) c.name = static_cast<const OpInfo*>(key)->name;
    c.calls += 1;
    c.flops += flops;
    leavesChanged_ = true;
}

std::optional<int64_t> Recorder::currentSpan() const {
    if (spanStack_.empty()) return std::nullopt;
    return spanStack_.back().id;
}

void Recorder::addOp(OpRow&& row) {
    // Only top-level ops add to their span: a nested row's cost is in its parent's.
    if (!spanStack_.empty() && !row.parentOp) {
        SpanFrame& span = spanStack_.back();
        span.flops += row.flops;
        span.bytes += row.bytes;
        span.ops += 1;
        span.knownOps += row.flopsKnown ? 1 : 0;
    }
    pending_.ops.push_back(std::move(row));
    if (pending_.ops.size() >= kFlushRows) maybeFlush();
}

void Recorder::startOps() {
    if (!recordOps_ || opsActive_) return;
    tlsRecorder = this;
    opsActive_ = true;
    enableOpCallbacks(true, observer_ != nullptr);
}

void Recorder::stopOps() {
    if (!opsActive_) return;
    enableOpCallbacks(false, observer_ != nullptr);
    tlsRecorder = nullptr;
    opsActive_ = false;
}

void Recorder::submit(Batch&& rows) {
    rows.run = run_;
    writer_.submit(std::move(rows));
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
        std::map<std::pair<std::string, std::string>, LeafFlopsRow> rows;
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
