// The RecordFunction callbacks behind a Recorder: every ATen call on the
// recording thread gets a frame (Recorder::OpFrame); top-level calls, and
// nested ones with --nested-ops, become op rows with shapes, FLOPs and bytes.
#include "capture/probe/OpProbe.h"

#include "capture/cuda/CorrelationMarks.h"
#include "capture/probe/OpCostMemo.h"
#include "capture/probe/OpObserver.h"
#include "capture/probe/Recorder.h"
#include "core/ops/Flops.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <array>
#include <bit>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <unordered_map>

namespace mvp::probe {

namespace {

thread_local Recorder* tlsRecorder = nullptr; // the recorder of this thread, while it records ops

// What the probe needs to know of an op overload, found once per process.
struct OpInfo {
    std::string name;
    OpTraits traits;             // class and FLOP formula
    int schemaArgs = -1;         // arguments in its schema; -1: no schema (use every input)
    int schemaReturns = -1;      // values it returns; -1: no schema (use every output)
    bool shapesFromData = false; // its output's shape depends on its inputs' values
};

// Ops whose nested calls may differ between calls with equal arguments,
// because a shape in them comes from the data.
bool shapesFromData(std::string_view name) {
    static constexpr std::string_view kOps[] = {"aten::nonzero",
                                                "aten::nonzero_numpy",
                                                "aten::_local_scalar_dense",
                                                "aten::item",
                                                "aten::masked_select",
                                                "aten::unique_consecutive",
                                                "aten::unique_dim",
                                                "aten::_unique",
                                                "aten::_unique2",
                                                "aten::repeat_interleave",
                                                "aten::bincount",
                                                "aten::nonzero_static"};
    for (const auto op : kOps)
        if (name == op) return true;
    return false;
}

// Dispatcher ops name themselves with their schema's string, which lives as
// long as the process: its address identifies the overload on the fast path,
// a direct-mapped per-thread cache (no hashing of text, no lock). The text is
// compared too, in case a name that is no schema's reuses an address.
std::mutex gOpInfoMutex;
std::unordered_map<std::string, std::unique_ptr<OpInfo>> gOpInfo; // "name.overload" → info
struct OpInfoSlot {
    const char* name = nullptr;
    const OpInfo* info = nullptr;
};
thread_local std::array<OpInfoSlot, 256> tlsOpByAddress;

OpInfoSlot& opInfoSlot(const char* name) {
    // Schema strings are heap blocks: the low bits carry no information.
    return tlsOpByAddress[(reinterpret_cast<uintptr_t>(name) >> 4) % tlsOpByAddress.size()];
}

const OpInfo& findOpInfo(const at::RecordFunction& fn) {
    const char* name = fn.name();
    const auto op = fn.operator_name();
    std::string key = name;
    if (op) key += "." + op->overload_name;
    std::lock_guard lock(gOpInfoMutex);
    auto& slot = gOpInfo[key];
    if (!slot) {
        slot = std::make_unique<OpInfo>();
        slot->name = name;
        slot->traits = opTraits(name);
        slot->shapesFromData = shapesFromData(name);
        if (op)
            if (const auto handle = c10::Dispatcher::singleton().findSchema(*op)) {
                slot->schemaArgs = int(handle->schema().arguments().size());
                slot->schemaReturns = int(handle->schema().returns().size());
            }
    }
    if (op) opInfoSlot(name) = {name, slot.get()};
    return *slot;
}

const OpInfo& opInfo(const at::RecordFunction& fn) {
    const char* name = fn.name();
    const OpInfoSlot& cached = opInfoSlot(name);
    if (cached.name == name && cached.info->name == name) return *cached.info;
    return findOpInfo(fn);
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

void setTensorArg(OpArg& a, const at::Tensor& t) {
    a.kind = OpArg::Tensor;
    a.values.assign(t.sizes().begin(), t.sizes().end());
    a.elemSize = int(t.element_size());
    a.contiguous = t.is_contiguous();
    a.typeCode = uint16_t(uint16_t(t.scalar_type()) | uint16_t(t.device().type()) << 8);
}

// A word that tells two values of another kind apart, for the memo's signature.
void setOtherArg(OpArg& a, const c10::IValue& v) {
    if (v.isDouble()) {
        a.values.push_back(std::bit_cast<int64_t>(v.toDouble()));
    } else if (v.isString()) {
        a.values.push_back(int64_t(std::hash<std::string_view>{}(v.toStringRef())));
    } else if (v.isDevice()) {
        a.values.push_back(int64_t(v.toDevice().type()) << 8 | int64_t(v.toDevice().index()));
    } else if (!v.isNone()) {
        a.values.push_back(1); // present, unlike None
    }
}

// What OpArg's tensor fields hold for an argument that is no tensor (setArg
// and signArgs agree on them, so both make the same memo signature).
const OpArg kPlain;

// Fills `a` in place (its inline dims reused): no allocation for the usual shapes.
void setArg(OpArg& a, const c10::IValue& v) {
    a.kind = OpArg::Other;
    a.values.clear();
    a.items.clear();
    a.elemSize = kPlain.elemSize;
    a.contiguous = kPlain.contiguous;
    a.typeCode = kPlain.typeCode;
    if (v.isTensor()) {
        if (v.toTensor().defined()) setTensorArg(a, v.toTensor());
    } else if (v.isTensorList()) {
        a.kind = OpArg::TensorList;
        for (const auto& item : v.toTensorList()) {
            const at::Tensor& t = item;
            a.items.emplace_back();
            if (t.defined()) setTensorArg(a.items.back(), t);
        }
    } else if (v.isIntList()) {
        a.kind = OpArg::IntList;
        for (const auto x : v.toIntList())
            a.values.push_back(x);
    } else if (v.isInt()) {
        a.kind = OpArg::Int;
        a.values.push_back(v.toInt());
    } else if (v.isBool()) {
        a.kind = OpArg::Int;
        a.values.push_back(v.toBool() ? 1 : 0);
    } else {
        setOtherArg(a, v);
    }
}

// A call whose shapes do not fit the record's inline dims keeps them as text,
// made from its OpArgs (readArgs): [[d0,d1],[d0],…], a tensor list's members in order.
std::string shapesText(const std::vector<OpArg>& args) {
    std::string s = "[";
    bool first = true;
    auto text = [&](const OpArg& t) {
        if (t.kind != OpArg::Tensor) return;
        s += first ? "[" : ",[";
        first = false;
        for (size_t i = 0; i < t.values.size(); ++i)
            s += (i ? "," : "") + std::to_string(t.values[i]);
        s += "]";
    };
    for (const auto& a : args) {
        text(a);
        if (a.kind == OpArg::TensorList)
            for (const auto& t : a.items)
                text(t);
    }
    return s + "]";
}

// TorchScript frames "vision(VisionEncoder)::forward" → (instance, type); TOP
// and SELF are the root and calls within the same module.
void syncScriptHierarchy(Recorder& rec) {
    const auto hierarchy = torch::jit::currentModuleHierarchy();
    // Most ops run in the frames the previous op ran in: then there is
    // nothing to parse or compare path by path again.
    if (rec.sameScriptHierarchy(hierarchy)) return;
    std::vector<std::pair<std::string, std::string>> frames;
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

// The arguments of the op being recorded, reused from call to call.
thread_local std::vector<OpArg> tlsArgs;
thread_local OpCostMemo tlsCosts;

void readArgs(c10::ArrayRef<const c10::IValue> inputs) {
    if (tlsArgs.size() < inputs.size()) tlsArgs.resize(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i)
        setArg(tlsArgs[i], inputs[i]);
    // The formulas see exactly this op's arguments.
    tlsArgs.resize(inputs.size());
}

// A recorded call's tensor shapes and dtype, gathered into its record while
// the memo's signature is built; `fits` false: the shapes need the text.
struct ShapeSink {
    OpRecord* row = nullptr; // null: the call is not recorded
    int used = 0;
    bool fits = true;
    // A record slot is reused from call to call: shapes and dtype start afresh.
    void start(OpRecord& r) {
        row = &r;
        r.tensors = 0;
        r.dtype = "";
    }
    void add(const at::Tensor& t) {
        if (!row) return;
        const auto sizes = t.sizes();
        if (row->tensors == OpRecord::kMaxTensors ||
            used + int(sizes.size()) > OpRecord::kMaxDims) {
            fits = false;
            return;
        }
        row->rank[row->tensors++] = uint8_t(sizes.size());
        for (const int64_t d : sizes) {
            if (d > std::numeric_limits<int32_t>::max()) fits = false;
            row->dims[used++] = int32_t(d);
        }
    }
};

void signPlain(OpArg::Kind kind, size_t values, size_t items = 0) {
    tlsCosts.addArg(kind, values, items, kPlain.elemSize, kPlain.contiguous, kPlain.typeCode);
}

// A defined tensor's words, as setTensorArg fills its OpArg.
void signTensor(const at::Tensor& t, ShapeSink& shapes) {
    const auto sizes = t.sizes();
    tlsCosts.addArg(OpArg::Tensor, sizes.size(), 0, int(t.element_size()), t.is_contiguous(),
                    uint16_t(uint16_t(t.scalar_type()) | uint16_t(t.device().type()) << 8));
    for (const int64_t d : sizes)
        tlsCosts.addValue(d);
    shapes.add(t);
}

// A value no formula reads: a word that tells it apart, as setOtherArg makes it.
void signOther(const c10::IValue& v) {
    if (v.isDouble()) {
        signPlain(OpArg::Other, 1);
        tlsCosts.addValue(std::bit_cast<int64_t>(v.toDouble()));
    } else if (v.isString()) {
        signPlain(OpArg::Other, 1);
        tlsCosts.addValue(int64_t(std::hash<std::string_view>{}(v.toStringRef())));
    } else if (v.isDevice()) {
        signPlain(OpArg::Other, 1);
        tlsCosts.addValue(int64_t(v.toDevice().type()) << 8 | int64_t(v.toDevice().index()));
    } else if (v.isNone()) {
        signPlain(OpArg::Other, 0);
    } else {
        signPlain(OpArg::Other, 1);
        tlsCosts.addValue(1); // present, unlike None
    }
}

// One pass over the op's arguments: the memo's signature (the words
// OpCostMemo::find makes of readArgs' OpArgs, so that OpArgs are made only on
// a miss) and, for a recorded call, its shapes and dtype (the first tensor's).
void signArgs(const OpInfo& info, c10::ArrayRef<const c10::IValue> inputs, ShapeSink& shapes) {
    tlsCosts.beginCall(&info);
    for (const auto& v : inputs) {
        if (v.isTensor()) {
            const at::Tensor& t = v.toTensor();
            if (!t.defined()) {
                signPlain(OpArg::Other, 0); // an undefined tensor reads as None
                continue;
            }
            if (shapes.row && !*shapes.row->dtype)
                shapes.row->dtype = c10::toString(t.scalar_type());
            signTensor(t, shapes);
        } else if (v.isTensorList()) {
            const auto list = v.toTensorList();
            signPlain(OpArg::TensorList, 0, list.size());
            for (const auto& item : list) {
                const at::Tensor& t = item; // a reference into the list: no refcount traffic
                t.defined() ? signTensor(t, shapes) : signPlain(OpArg::Other, 0);
            }
        } else if (v.isIntList()) {
            const auto list = v.toIntList();
            signPlain(OpArg::IntList, list.size());
            for (const int64_t x : list)
                tlsCosts.addValue(x);
        } else if (v.isInt() || v.isBool()) {
            signPlain(OpArg::Int, 1);
            tlsCosts.addValue(v.isInt() ? v.toInt() : int64_t(v.toBool()));
        } else {
            signOther(v);
        }
    }
}

// A call with the arguments of one seen before costs what that one did; a
// new one gets its OpArgs and its formula.
const OpCostMemo::Entry& costOf(const OpInfo& info, c10::ArrayRef<const c10::IValue> inputs) {
    static thread_local OpCostMemo::Entry fresh;
    if (const OpCostMemo::Entry* known = tlsCosts.findCall()) return *known;
    readArgs(inputs);
    fresh.cost = estimateOpCost(info.name, info.traits, tlsArgs);
    tlsCosts.store(fresh.cost);
    return fresh;
}

// Whether this thread switched RecordFunction off for a replayed call's
// nested calls (onOpEnd switches it back on).
thread_local bool tlsSwitchedOff = false;
// Nested calls of a replayed call that reached the callbacks and were let go.
thread_local int tlsLetGo = 0;
// Switching RecordFunction off and on rebuilds libtorch 1.13's thread-local
// callback lists twice (~2 600 instructions each, measured with callgrind on
// bench_capture_overhead): more than letting a few nested calls through the
// callbacks, which return at once. Past this many nested calls, switch off.
constexpr int kSwitchOffAbove = 4;

// A top-level call's nested calls: replayed from the memo and run unseen —
// with RecordFunction off when there are many (no callbacks, no boxed
// inputs), let go at the callbacks' door when there are few or none — or
// observed and collected for the next call like it.
void handleNested(Recorder& rec, const OpInfo& info, const OpCostMemo::Entry& entry) {
    if (rec.recordNestedOps() || info.shapesFromData) return;
    if (entry.nested) {
        rec.replayNested(*entry.nested);
        if (entry.nested->children.count > kSwitchOffAbove) {
            at::enableRecordFunction(false);
            tlsSwitchedOff = true;
        }
        return;
    }
    tlsCosts.holdOuter(entry.cost);
    rec.collectNested();
}

// Exact device timing's wait for the GPU, kept out of line: the probes'
// common path pays one test of a flag, not the call's code.
[[gnu::cold, gnu::noinline]] void waitForDevice(Recorder& rec) {
    rec.waitForDevice();
}

// No ObserverContext: the call's state lives in the Recorder's frame and
// record stacks (the end callback runs even without a context), so a
// recorded op costs no allocation.
std::unique_ptr<at::ObserverContext> onOpStart(const at::RecordFunction& fn) {
    Recorder* rec = tlsRecorder;
    if (!rec) return nullptr;
    if (rec->innermostNestedUnobserved()) { // a replayed call's nested call
        ++tlsLetGo;
        return nullptr;
    }
    const OpInfo& info = opInfo(fn);
    const bool top = rec->opDepth() == 0;
    const bool record = top || rec->recordNestedOps();
    if (!top && info.shapesFromData) rec->markUnrepeatable();
    const int64_t parent = record ? rec->recordedParent().value_or(0) : 0; // before our frame
    // Filled in place: a frame built aside and copied onto the stack right
    // after its id was written made the copy wait for that store.
    Recorder::OpFrame& frame = rec->pushOp();
    frame.leafName = &info.name;
    // A nested call that is not recorded matters only if it does arithmetic:
    // views and copies are known to do none, without reading their inputs.
    if (!record && info.traits.cls != OpClass::Arithmetic) {
        if (info.traits.cls != OpClass::Other) frame.ownFlops = 0;
        return nullptr;
    }
    const auto inputs = schemaInputs(fn, info);
    ShapeSink shapes;
    if (record) shapes.start(rec->beginRecord());
    signArgs(info, inputs, shapes);
    const OpCostMemo::Entry& entry = costOf(info, inputs);
    frame.ownFlops = entry.cost.flops;
    frame.arithmetic = info.traits.cls == OpClass::Arithmetic && entry.cost.flops.has_value();
    if (!record) return nullptr;
    OpRecord& row = *shapes.row;
    if (!shapes.fits) {
        readArgs(inputs);
        row.overflow = shapesText(tlsArgs);
    }
    if (top && rec->followsScriptHierarchy()) syncScriptHierarchy(*rec);
    row.name = &info.name;
    row.bytes = entry.cost.bytes;
    row.id = frame.id = rec->nextOpId();
    row.parentOp = parent;
    row.span = rec->currentSpan().value_or(0);
    row.phase = rec->phase();
    row.step = rec->step();
    if (top) handleNested(*rec, info, entry);
    if (rec->waitsAtProbes()) [[unlikely]]
        waitForDevice(*rec); // exact timing: earlier work is not this op's
    if (CorrelationMarks* marks = rec->correlationMarks()) marks->opStarted(row.id);
    row.startNs = rec->nowNs();
    return nullptr;
}

// A top-level op's outputs, shown to the observer if it reads that op.
void showOutputs(Recorder& rec, const at::RecordFunction& fn) {
    const OpInfo& info = opInfo(fn);
    if (!rec.observer()->readsOp(info.name)) return;
    rec.countObservedOp();
    ProbeWork work(&rec, rec.observer()->runsOps());
    // Like the inputs, the outputs may sit on top of the interpreter's
    // whole stack: the last N, N from the schema, are the op's.
    std::vector<c10::IValue> outputs = fn.outputs();
    if (info.schemaReturns >= 0 && size_t(info.schemaReturns) < outputs.size())
        outputs.erase(outputs.begin(), outputs.end() - info.schemaReturns);
    rec.observer()->opEnded(rec.openModules(), info.name, outputs);
}

// Ends an op; `observed`: the callback that copied its outputs for the observer.
void endOp(const at::RecordFunction& fn, bool observed) {
    Recorder* rec = tlsRecorder;
    if (!rec || rec->opDepth() == 0) return;
    if (tlsLetGo > 0) { // calls end innermost first: this is a let-go nested call's end
        --tlsLetGo;
        return;
    }
    if (rec->waitsAtProbes() && rec->innermostOpRecorded()) [[unlikely]]
        waitForDevice(*rec);
    const int64_t end = rec->nowNs();
    if (tlsSwitchedOff) {
        at::enableRecordFunction(true);
        tlsSwitchedOff = false;
    }
    const bool recorded = rec->innermostOpRecorded();
    const Recorder::OpOutcome outcome = rec->popOp();
    if (rec->opDepth() == 0)
        if (const auto nested = rec->takeCollected()) tlsCosts.storeOuter(*nested);
    if (rec->opDepth() == 0 && observed && rec->wantsOutputs())
        showOutputs(*rec, fn);
    if (recorded) rec->finishRecord(end, outcome);
}

void onOpEnd(const at::RecordFunction& fn, at::ObserverContext*) {
    endOp(fn, false);
}
void onObservedOpEnd(const at::RecordFunction& fn, at::ObserverContext*) {
    endOp(fn, true);
}

// libtorch wants global callbacks registered once; they are switched on only
// while a Recorder is recording, so an uninstrumented run pays nothing.
std::mutex gCallbackMutex;
std::optional<at::CallbackHandle> gCallback, gCallbackOutputs;

} // namespace

void setThreadRecorder(Recorder* rec) {
    tlsRecorder = rec;
    tlsLetGo = 0;
}

// Two registrations, one on at a time: outputs cost a copy per op, so only
// what an observer reads asks for them.
void enableOpCallbacks(bool on, bool outputs) {
    std::lock_guard lock(gCallbackMutex);
    for (const bool variant : {false, true}) {
        auto& handle = variant ? gCallbackOutputs : gCallback;
        const bool wanted = on && variant == outputs;
        if (!handle) {
            if (wanted)
                handle = at::addGlobalCallback(
                    at::RecordFunctionCallback(&onOpStart, variant ? &onObservedOpEnd : &onOpEnd)
                        .needsInputs(true)
                        .needsOutputs(variant)
                        .scopes({at::RecordScope::FUNCTION}));
            continue;
        }
        if (wanted)
            at::reenableCallback(*handle);
        else
            at::disableCallback(*handle);
    }
}

} // namespace mvp::probe
