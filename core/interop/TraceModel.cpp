#include "core/interop/TraceModel.h"

#include "core/interop/TraceArgs.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace mvp::interop {

namespace {
// What a Chrome-trace category holds, for the importer. Kineto writes the
// lower-case names (ActivityType.h); older traces the capitalised ones.
enum class Category {
    Op,
    Annotation,
    Python,
    Kernel,
    Memcpy,
    Memset,
    Runtime,
    Driver,
    ModuleSpan,
    Phase,
    Known,
    Unknown
};

Category categoryOf(std::string_view cat, bool mvprof) {
    if (mvprof && cat == "module") return Category::ModuleSpan;
    if (mvprof && cat == "phase") return Category::Phase;
    if (mvprof && (cat == "token" || cat == "routing")) return Category::Known;
    static const std::unordered_map<std::string_view, Category> byName = {
        {"cpu_op", Category::Op},
        {"Operator", Category::Op},
        {"user_annotation", Category::Annotation},
        {"python_function", Category::Python},
        {"kernel", Category::Kernel},
        {"Kernel", Category::Kernel},
        {"gpu_memcpy", Category::Memcpy},
        {"Memcpy", Category::Memcpy},
        {"gpu_memset", Category::Memset},
        {"Memset", Category::Memset},
        {"cuda_runtime", Category::Runtime},
        {"Runtime", Category::Runtime},
        {"cuda_driver", Category::Driver},
        // Known to Kineto, not imported: the per-iteration spans, GPU copies of
        // annotations, memory instants, profiler overhead, syncs and events.
        {"Trace", Category::Known},
        {"gpu_user_annotation", Category::Known},
        {"cpu_instant_event", Category::Known},
        {"overhead", Category::Known},
        {"cuda_sync", Category::Known},
        {"cuda_event", Category::Known},
        {"ac2g", Category::Known},
        {"fwdbwd", Category::Known},
    };
    const auto it = byName.find(cat);
    return it == byName.end() ? Category::Unknown : it->second;
}

// A pid or tid as the session names it: a string as it is, a number as its digits.
std::string idText(const JsonField& v) {
    if (v.isString()) return std::string(v.text);
    if (v.type == JsonField::Type::Integer) {
        int64_t n = 0;
        const auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
        if (ec == std::errc() && end == v.text.data() + v.text.size()) return std::to_string(n);
        return std::string(v.text);
    }
    if (v.type == JsonField::Type::Float)
        return std::to_string(std::strtod(std::string(v.text).c_str(), nullptr));
    return "";
}

// An integer member, or a string of one ("7"); nullopt for anything else.
std::optional<int64_t> integer(const JsonField& v) {
    if (v.type != JsonField::Type::Integer && !v.isString()) return std::nullopt;
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
    if (ec == std::errc() && end == v.text.data() + v.text.size()) return n;
    return std::nullopt;
}

std::optional<int64_t> integer(const Json& obj, const char* key) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (it->is_number_integer()) return it->get<int64_t>();
    if (it->is_number_unsigned()) return int64_t(it->get<uint64_t>());
    if (it->is_string()) {
        const auto& s = it->get_ref<const std::string&>();
        int64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && end == s.data() + s.size()) return v;
    }
    return std::nullopt;
}

} // namespace

namespace {
// Decimal text: whole microseconds, then 3 digits of nanoseconds exactly
// (a 4th rounds); an exponent goes through a double.
std::optional<int64_t> microsTextToNs(std::string_view s) {
    const char* p = s.data();
    const char* end = p + s.size();
    if (s.find_first_of("eE") != std::string_view::npos) {
        double d = 0;
        const auto [after, ec] = std::from_chars(p, end, d);
        if (ec != std::errc() || after != end || !std::isfinite(d * 1000.0) ||
            std::abs(d * 1000.0) > 9e18)
            return std::nullopt;
        return std::llround(d * 1000.0);
    }
    const bool negative = p < end && *p == '-';
    if (negative) ++p;
    int64_t whole = 0;
    const auto [afterWhole, ec] = std::from_chars(p, end, whole);
    if (ec != std::errc() || afterWhole == p || whole > (int64_t(1) << 52)) return std::nullopt;
    int64_t ns = whole * 1000;
    if (afterWhole < end) {
        if (*afterWhole != '.') return std::nullopt;
        int digits = 0;
        int64_t fraction = 0;
        bool roundUp = false;
        const char* q = afterWhole + 1;
        for (; q < end && *q >= '0' && *q <= '9'; ++q, ++digits) {
            if (digits < 3)
                fraction = fraction * 10 + (*q - '0');
            else if (digits == 3)
                roundUp = *q >= '5';
        }
        if (q != end) return std::nullopt;
        for (int i = digits; i < 3; ++i)
            fraction *= 10;
        ns += fraction + (roundUp ? 1 : 0);
    }
    return negative ? -ns : ns;
}
} // namespace

std::optional<int64_t> microsToNs(const Json& v) {
    constexpr int64_t kMaxMicros = int64_t(1) << 52; // ×1000 stays far inside int64
    if (v.is_number_integer()) {
        const int64_t us = v.get<int64_t>();
        if (us > kMaxMicros || us < -kMaxMicros) return std::nullopt;
        return us * 1000;
    }
    if (v.is_number_unsigned()) {
        const uint64_t us = v.get<uint64_t>();
        if (us > uint64_t(kMaxMicros)) return std::nullopt;
        return int64_t(us) * 1000;
    }
    if (v.is_number_float()) {
        const double ns = v.get<double>() * 1000.0;
        if (!std::isfinite(ns) || std::abs(ns) > 9e18) return std::nullopt;
        return std::llround(ns);
    }
    if (!v.is_string()) return std::nullopt;
    return microsTextToNs(v.get_ref<const std::string&>());
}

std::optional<int64_t> microsToNs(const JsonField& v) {
    // A number keeps its text: microseconds with nanosecond digits lose the
    // last ones in a double at 16 significant digits.
    if (!v.isNumber() && !v.isString()) return std::nullopt;
    return microsTextToNs(v.text);
}

uint32_t TraceModel::intern(std::string_view s) {
    if (const auto it = stringIds_.find(s); it != stringIds_.end()) return it->second;
    strings_.emplace_back(s);
    const auto id = uint32_t(strings_.size() - 1);
    stringIds_.emplace(strings_.back(), id);
    return id;
}

uint32_t TraceModel::trackOf(const TraceEvent& e, bool gpu, bool wholeProcess) {
    const std::string_view tidRaw = wholeProcess ? std::string_view() : e.tid.raw;
    if (lastTrack_ && lastTrack_->pid == e.pid.raw && lastTrack_->tid == tidRaw &&
        lastTrack_->gpu == gpu && lastTrack_->wholeProcess == wholeProcess)
        return lastTrack_->id;
    auto key = std::pair{idText(e.pid), wholeProcess ? std::string() : idText(e.tid)};
    const int64_t thread =
        !wholeProcess && e.tid.type == JsonField::Type::Integer ? integer(e.tid).value_or(-1) : -1;
    const uint32_t id = trackOf(std::move(key), thread, gpu);
    lastTrack_ = LastTrack{std::string(e.pid.raw), std::string(tidRaw), gpu, wholeProcess, id};
    return id;
}

uint32_t TraceModel::trackOf(std::pair<std::string, std::string> key, int64_t thread, bool gpu) {
    if (const auto it = trackIds_.find(key); it != trackIds_.end()) return it->second;
    tracks_.push_back(TraceTrack{key.first, key.second, thread, gpu});
    const auto id = uint32_t(tracks_.size() - 1);
    trackIds_.emplace(std::move(key), id);
    return id;
}

void TraceModel::append(TraceRecord& r, std::string_view name, uint32_t track, EventIds ids,
                        const DeviceWork& work) {
    r.order = uint32_t(records_.size());
    r.name = intern(name);
    r.track = track;
    const auto narrow = [](int64_t id) {
        return id < 0 ? kNoId : id < int64_t(kWideId) ? uint32_t(id) : kWideId;
    };
    r.externalId = narrow(ids.external);
    r.correlation = narrow(ids.correlation);
    if (r.externalId == kWideId || r.correlation == kWideId) wideIds_.emplace(r.order, ids);
    if (isDeviceWork(r.kind)) {
        const auto [it, added] = deviceWorkIds_.try_emplace(work, uint32_t(deviceWork_.size()));
        if (added) deviceWork_.push_back(work);
        r.detail = it->second;
    }
    records_.push_back(r);
}

EventIds TraceModel::ids(const TraceRecord& r) const {
    if (r.externalId == kWideId || r.correlation == kWideId) return wideIds_.at(r.order);
    const auto wide = [](uint32_t id) { return id == kNoId ? int64_t(-1) : int64_t(id); };
    return {wide(r.externalId), wide(r.correlation)};
}

void TraceModel::addRecordOnTrack(TraceRecord r, std::string_view name, uint32_t track) {
    append(r, name, track, {}, {});
}

void TraceModel::addRecord(TraceRecord r, std::string_view name, const std::string& pid,
                           const std::string& tid, int64_t thread, EventIds ids,
                           const DeviceWork& work) {
    append(r, name, trackOf({pid, tid}, thread, isDeviceWork(r.kind)), ids, work);
}

void TraceModel::addMeta(const std::string& key, Json&& value) {
    if (key == "metadata" && value.is_object())
        if (const auto p = value.find("producer"); p != value.end() && p->is_string())
            fromMvprof_ = p->get_ref<const std::string&>().rfind("mvprof", 0) == 0;
    meta_[key] = std::move(value);
}

Status TraceModel::add(const TraceEvent& e, int64_t index) {
    ++events_;
    if (!e.ph.isString())
        return makeError(ErrorCode::BadInput, file_ + ": event " + std::to_string(index) +
                                                  " has no phase (\"ph\"): not a trace event");
    const std::string_view phase = e.ph.text;
    const std::string_view cat = e.cat.isString() ? e.cat.text : std::string_view();
    if (phase == "X") return addComplete(e, index, cat);
    if (phase == "M") return Ok{}; // names and sort order: the session has its own
    if (phase == "B" || phase == "E")
        skip("begin/end pairs (B/E)");
    else if (phase == "s" || phase == "f" || phase == "t")
        skip("flow events");
    else if (phase == "i" || phase == "I")
        skip("instant events");
    else if (phase == "C")
        skip("counter events");
    else
        skip("events of phase '" + std::string(phase) + "'");
    return Ok{};
}

// What the record is, from its category: false when it is left out (counted).
Result<bool> TraceModel::classify(TraceRecord& r, DeviceWork& work, std::string_view cat,
                                  std::string_view name, const TraceEvent& e) {
    const auto& args = e.args;
    const Category c =
        cat.empty()
            ? (name.find("::") != std::string_view::npos ? Category::Op : Category::Annotation)
            : categoryOf(cat, fromMvprof_);
    switch (c) {
    case Category::Op: {
        auto sig = signatureOf(name, args);
        if (!sig) return sig.error();
        r.kind = EventKind::Op;
        r.detail = *sig;
        return true;
    }
    case Category::Annotation:
        r.kind = EventKind::Annotation;
        return true;
    case Category::Python:
        if (name.rfind("nn.Module: ", 0) != 0) {
            skip("python frames (python_function)");
            return false;
        }
        r.kind = EventKind::ModuleCall;
        return true;
    case Category::Kernel:
    case Category::Memcpy:
    case Category::Memset:
        r.kind = c == Category::Kernel   ? EventKind::Kernel
                 : c == Category::Memcpy ? EventKind::Memcpy
                                         : EventKind::Memset;
        work.device = int16_t(std::clamp<int64_t>(
            integer(args.device).value_or(integer(e.pid).value_or(0)), 0, 1023));
        work.stream = int32_t(integer(args.stream).value_or(integer(e.tid).value_or(0)));
        work.bytes = std::max<int64_t>(0, integer(args.bytes).value_or(0));
        return true;
    case Category::Runtime:
    case Category::Driver:
        r.kind = c == Category::Runtime ? EventKind::Runtime : EventKind::Driver;
        return true;
    case Category::ModuleSpan:
        r.kind = EventKind::ModuleSpan;
        if (args.kind.isString()) r.detail = intern(args.kind.text);
        return true;
    case Category::Phase:
        r.kind = EventKind::Phase;
        return true;
    case Category::Known:
        skip(std::string(cat));
        return false;
    case Category::Unknown:
        skip("unknown category '" + std::string(cat.substr(0, 60)) + "'");
        return false;
    }
    return false;
}

Status TraceModel::addComplete(const TraceEvent& e, int64_t index, std::string_view cat) {
    const auto where = [&] { return file_ + ": event " + std::to_string(index); };
    if (!e.name.isString())
        return makeError(ErrorCode::BadInput, where() + " (an X slice) has no name string");
    const std::string_view name = e.name.text;
    const auto ts = microsToNs(e.ts);
    const auto dur = microsToNs(e.dur);
    if (!ts || !dur || *dur < 0 || std::abs(*ts) > (int64_t(1) << 62))
        return makeError(ErrorCode::BadInput,
                         where() + " ('" + std::string(name.substr(0, 80)) +
                             "') has no valid ts/dur: they must be microseconds, dur ≥ 0");
    TraceRecord r;
    r.startNs = *ts;
    r.durNs = *dur;
    DeviceWork work;
    auto kept = classify(r, work, cat, name, e);
    if (!kept) return kept.error();
    if (!*kept) return Ok{};
    if (fromMvprof_) addMvprofArgs(r, e.args);
    const EventIds ids{integer(e.args.externalId).value_or(-1),
                       integer(e.args.correlation).value_or(-1)};
    const bool gpu = isDeviceWork(r.kind);
    append(r, name, trackOf(e, gpu, fromMvprof_ && !gpu), ids, work);
    return Ok{};
}

uint32_t TraceModel::signatureOf(const std::string& name, const Json& args) {
    std::string key = name;
    for (const char* k :
         {"Input Dims", "Input type", "Concrete Inputs", "flops", "flops_estimated"})
        if (const auto it = args.find(k); it != args.end()) key += '\x1f' + it->dump();
    if (const auto it = signatureIds_.find(key); it != signatureIds_.end()) return it->second;
    return addSignature(std::move(key), name, args, 0);
}

// Keyed by the arguments' text as the file writes them: a model calls the
// same op with the same shapes over and over, so nearly every op event is a
// lookup, and only a new one is parsed into a document.
Result<uint32_t> TraceModel::signatureOf(std::string_view name, const TraceEvent::Args& args) {
    const std::pair<const char*, const JsonField*> parts[] = {
        {"Input Dims", &args.inputDims},           {"Input type", &args.inputType},
        {"Concrete Inputs", &args.concreteInputs}, {"flops", &args.flops},
        {"flops_estimated", &args.flopsEstimated}, {"Module Hierarchy", &args.hierarchy}};
    std::string& key = signatureKey_;
    key.assign("\x1e");
    key += name;
    for (const auto& [k, field] : parts) {
        key += '\x1f';
        key += field->raw;
    }
    if (const auto it = signatureIds_.find(key); it != signatureIds_.end()) return it->second;
    Json json = Json::object();
    for (const auto& [k, field] : parts) {
        if (!field->present() || field == &args.hierarchy) continue;
        Json v = Json::parse(field->raw, nullptr, false);
        if (v.is_discarded())
            return makeError(ErrorCode::BadInput, file_ + ": an op's \"" + std::string(k) +
                                                      "\" is JSON out of range: " +
                                                      std::string(field->raw.substr(0, 80)));
        json[k] = std::move(v);
    }
    const uint32_t hierarchy = args.hierarchy.isString() ? intern(args.hierarchy.text) : 0;
    return addSignature(key, std::string(name), json, hierarchy);
}

uint32_t TraceModel::addSignature(std::string key, const std::string& name, const Json& args,
                                  uint32_t hierarchy) {
    const OpCall call = opCall(name, args);
    OpSignature sig;
    // No formula: the trace's own figure where it has one (Kineto's with_flops,
    // mvprof's export), else unknown.
    const auto traceFlops =
        integer(args, "flops").value_or(integer(args, "flops_estimated").value_or(-1));
    sig.flops = call.cost.flops.value_or(traceFlops);
    sig.unevaluated = call.unevaluated && traceFlops < 0;
    // mvprof's export lists tensor shapes only (no scalars), so its formulas'
    // argument positions do not hold: its figure is the capture's own.
    if (fromMvprof_ && traceFlops >= 0) sig.flops = traceFlops, sig.unevaluated = false;
    sig.arithmetic = call.arithmetic;
    sig.bytes = call.cost.bytes;
    sig.shapes = intern(call.shapes);
    sig.dtype = intern(call.dtype);
    sig.hierarchy = hierarchy;
    signatures_.push_back(sig);
    const auto id = uint32_t(signatures_.size() - 1);
    signatureIds_.emplace(std::move(key), id);
    return id;
}

// mvprof's export names each slice's phase and step.
void TraceModel::addMvprofArgs(TraceRecord& r, const TraceEvent::Args& args) {
    if (args.phase.isString())
        r.phase = phaseFromString(std::string(args.phase.text)).value_or(Phase::None);
    r.step = int32_t(std::clamp<int64_t>(integer(args.step).value_or(0), 0, 1 << 24));
}

std::optional<int64_t> TraceModel::absoluteOriginNs(int64_t minStartNs) const {
    if (const auto it = meta_.find("baseTimeNanoseconds"); it != meta_.end()) {
        if (it->is_number_unsigned()) return int64_t(it->get<uint64_t>()) + minStartNs;
        if (it->is_number_integer()) return it->get<int64_t>() + minStartNs;
    }
    // Before 2024 Kineto wrote absolute Unix microseconds.
    constexpr int64_t kYear2001Ns = 978307200LL * 1000000000LL;
    if (minStartNs > kYear2001Ns) return minStartNs;
    return std::nullopt;
}

} // namespace mvp::interop
