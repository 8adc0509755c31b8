#include "capture/Recorder.h"

#include "capture/Flops.h"
#include "core/session/SessionWriter.h"

#include <ATen/record_function.h>
#include <mutex>
#include <torch/csrc/jit/runtime/interpreter.h>

namespace mvp {

namespace {

// Rows are handed to the writer when this many are pending, or when this much
// time has passed, so the session on disk never lags the run by much.
constexpr size_t kFlushRows = 8192;
constexpr int64_t kFlushEveryNs = 500'000'000;

thread_local Recorder* tlsRecorder = nullptr;

struct OpContext final : at::ObserverContext {
    OpRow row;
    std::optional<int64_t> flops;
    int64_t bytes = 0;
    bool owns = false;
};

OpArg toArg(const c10::IValue& v) {
    OpArg a;
    if (v.isTensor()) {
        const auto& t = v.toTensor();
        if (!t.defined()) return a;
        a.kind = OpArg::Tensor;
        a.values = t.sizes().vec();
        a.elemSize = int(t.element_size());
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

std::string shapesText(const std::vector<OpArg>& args) {
    std::string s = "[";
    bool firstTensor = true;
    for (const auto& a : args) {
        if (a.kind != OpArg::Tensor) continue;
        s += firstTensor ? "[" : ",[";
        firstTensor = false;
        for (size_t i = 0; i < a.values.size(); ++i)
            s += (i ? "," : "") + std::to_string(a.values[i]);
        s += "]";
    }
    return s + "]";
}

std::unique_ptr<at::ObserverContext> onOpStart(const at::RecordFunction& fn) {
    Recorder* rec = tlsRecorder;
    if (!rec) return nullptr;
    const auto& stack = rec->opStack();
    // The calls nested inside an op (views, the mm under a matmul) add detail
    // but, by default, no cost: skipping them keeps the probe cheap.
    if (!stack.empty() && !rec->recordNestedOps()) return nullptr;
    const bool ancestorOwns = rec->ownerDepth() > 0;
    auto ctx = std::make_unique<OpContext>();
    const auto inputs = fn.inputs();
    std::vector<OpArg> args;
    args.reserve(inputs.size());
    for (const auto& v : inputs)
        args.push_back(toArg(v));
    for (const auto& v : inputs)
        if (v.isTensor() && v.toTensor().defined()) {
            ctx->row.dtype = std::string(c10::toString(v.toTensor().scalar_type()));
            break;
        }
    ctx->row.name = fn.name();
    if (stack.empty() && rec->followsScriptHierarchy()) {
        // "vision(VisionEncoder)::forward" frames; TOP and SELF are the root
        // and calls within the same module.
        std::vector<std::pair<std::string, std::string>> frames;
        const auto hierarchy = torch::jit::currentModuleHierarchy();
        for (const auto& entry : hierarchy) {
            const auto open = entry.find('('), close = entry.find(')');
            if (open == std::string::npos || close == std::string::npos || close < open) continue;
            const std::string instance = entry.substr(0, open);
            if (instance == "TOP" || instance == "SELF" || instance.rfind("CALL_FUNCTION", 0) == 0)
                continue;
            std::string type = entry.substr(open + 1, close - open - 1);
            if (const auto dot = type.rfind('.'); dot != std::string::npos)
                type = type.substr(dot + 1);
            frames.emplace_back(instance, type);
        }
        // Ops outside any TorchScript method (preprocessing) belong to no module.
        rec->syncHierarchy(frames, !hierarchy.empty());
    }
    const OpCost cost = estimateOpCost(ctx->row.name, args);
    // Nested dispatcher calls (linear → matmul → mm) would count the same work
    // several times: the outermost op with a formula owns the FLOPs.
    ctx->owns = cost.flops.has_value() && !ancestorOwns;
    ctx->flops = ctx->owns ? cost.flops : std::nullopt;
    ctx->bytes = stack.empty() ? cost.bytes : 0;
    ctx->row.id = rec->nextOpId();
    if (!stack.empty()) ctx->row.parentOp = stack.back().id;
    ctx->row.span = rec->currentSpan();
    ctx->row.phase = rec->phase();
    ctx->row.step = rec->step();
    ctx->row.shapes = shapesText(args);
    rec->pushOp({ctx->row.id, ctx->owns});
    ctx->row.startNs = rec->nowNs();
    return ctx;
}

void onOpEnd(const at::RecordFunction&, at::ObserverContext* base) {
    Recorder* rec = tlsRecorder;
    auto* ctx = static_cast<OpContext*>(base);
    if (!rec || !ctx) return;
    ctx->row.endNs = rec->nowNs();
    rec->popOp();
    ctx->row.flops = ctx->flops.value_or(0);
    ctx->row.bytes = ctx->bytes;
    rec->addOp(std::move(ctx->row));
}

// libtorch wants global callbacks registered once; they are switched on only
// while a Recorder is recording, so an uninstrumented run pays nothing.
std::mutex gCallbackMutex;
std::optional<at::CallbackHandle> gCallback;

void enableOpCallbacks(bool on) {
    std::lock_guard lock(gCallbackMutex);
    if (!gCallback) {
        if (!on) return;
        gCallback = at::addGlobalCallback(at::RecordFunctionCallback(&onOpStart, &onOpEnd)
                                              .needsInputs(true)
                                              .scopes({at::RecordScope::FUNCTION}));
        return;
    }
    if (on)
        at::reenableCallback(*gCallback);
    else
        at::disableCallback(*gCallback);
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
    pending_.modules.push_back(
        ModuleRow{id, path.empty() ? std::string("model") : path, kind, parent, 0});
    return id;
}

void Recorder::syncHierarchy(const std::vector<std::pair<std::string, std::string>>& frames,
                             bool inModel) {
    // Inside the model the root is open; below it, keep the common prefix,
    // close the rest and open what is new.
    if (!inModel) {
        closeHierarchy();
        return;
    }
    std::vector<std::pair<std::string, std::string>> wanted{{"", rootKind_}};
    std::string path;
    for (const auto& [instance, type] : frames) {
        path = path.empty() ? instance : path + "." + instance;
        wanted.emplace_back(path, type);
    }
    size_t common = 0;
    while (common < openPaths_.size() && common < wanted.size() &&
           openPaths_[common] == wanted[common].first)
        ++common;
    while (openPaths_.size() > common) {
        exit();
        openPaths_.pop_back();
    }
    for (size_t i = common; i < wanted.size(); ++i) {
        const std::optional<int64_t> parent =
            i == 0 ? std::nullopt : std::optional<int64_t>(moduleIds_.at(wanted[i - 1].first));
        enter(moduleFor(wanted[i].first, wanted[i].second, parent));
        openPaths_.push_back(wanted[i].first);
    }
}

void Recorder::closeHierarchy() {
    while (!openPaths_.empty()) {
        exit();
        openPaths_.pop_back();
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
        spanStack_.back().flops += f.flops;
        spanStack_.back().bytes += f.bytes;
    }
    pending_.spans.push_back(SpanRow{f.id, f.module, f.parent, phase_, step_, f.start, end,
                                     std::nullopt, f.flops, f.bytes});
    maybeFlush();
}

void Recorder::pushOp(OpFrame f) {
    opStack_.push_back(f);
    if (f.ownsCost) ++ownerDepth_;
}

void Recorder::popOp() {
    if (opStack_.empty()) return;
    if (opStack_.back().ownsCost) --ownerDepth_;
    opStack_.pop_back();
}

std::optional<int64_t> Recorder::currentSpan() const {
    if (spanStack_.empty()) return std::nullopt;
    return spanStack_.back().id;
}

void Recorder::addOp(OpRow&& row) {
    if (!spanStack_.empty()) {
        spanStack_.back().flops += row.flops;
        spanStack_.back().bytes += row.bytes;
    }
    pending_.ops.push_back(std::move(row));
    if (pending_.ops.size() >= kFlushRows) maybeFlush();
}

void Recorder::startOps() {
    if (!recordOps_ || opsActive_) return;
    tlsRecorder = this;
    opsActive_ = true;
    enableOpCallbacks(true);
}

void Recorder::stopOps() {
    if (!opsActive_) return;
    enableOpCallbacks(false);
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
    if (pending_.empty()) return;
    Batch out;
    std::swap(out, pending_);
    pending_.run = run_;
    writer_.submit(std::move(out));
}

} // namespace mvp
