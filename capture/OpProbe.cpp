// The RecordFunction callbacks behind a Recorder: every ATen call on the
// recording thread gets a frame (Recorder::OpFrame); top-level calls, and
// nested ones with --nested-ops, become op rows with shapes, FLOPs and bytes.
#include "capture/OpProbe.h"

#include "capture/Flops.h"
#include "capture/OpObserver.h"
#include "capture/Recorder.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <memory>
#include <mutex>
#include <optional>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <unordered_map>

namespace mvp::probe {

namespace {

thread_local Recorder* tlsRecorder = nullptr; // the recorder of this thread, while it records ops

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
    frame.leafName = &info.name;
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
    const OpCost cost = estimateOpCost(info.name, info.cls, args);
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

} // namespace

void setThreadRecorder(Recorder* rec) {
    tlsRecorder = rec;
}

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

} // namespace mvp::probe
