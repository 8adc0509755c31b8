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

Category categoryOf(const std::string& cat, bool mvprof) {
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

std::string idText(const Json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
    if (v.is_number()) return std::to_string(v.get<double>());
    return "";
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

const Json& emptyObject() {
    static const Json empty = Json::object();
    return empty;
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
    // Decimal text: whole microseconds, then 3 digits of nanoseconds exactly
    // (a 4th rounds); an exponent goes through a double.
    const auto& s = v.get_ref<const std::string&>();
    const char* p = s.data();
    const char* end = p + s.size();
    if (s.find_first_of("eE") != std::string::npos) {
        double d = 0;
        const auto [after, ec] = std::from_chars(p, end, d);
        if (ec != std::errc() || after != end || !std::isfinite(d * 1000.0)) return std::nullopt;
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

uint32_t TraceModel::intern(std::string_view s) {
    if (const auto it = stringIds_.find(s); it != stringIds_.end()) return it->second;
    strings_.emplace_back(s);
    const auto id = uint32_t(strings_.size() - 1);
    stringIds_.emplace(strings_.back(), id);
    return id;
}

uint32_t TraceModel::trackOf(const Json& e, bool gpu, bool wholeProcess) {
    const auto pidIt = e.find("pid");
    const auto tidIt = wholeProcess ? e.end() : e.find("tid");
    auto key = std::pair{pidIt == e.end() ? std::string() : idText(*pidIt),
                         tidIt == e.end() ? std::string() : idText(*tidIt)};
    const int64_t thread =
        tidIt != e.end() && tidIt->is_number_integer() ? tidIt->get<int64_t>() : -1;
    return trackOf(std::move(key), thread, gpu);
}

uint32_t TraceModel::trackOf(std::pair<std::string, std::string> key, int64_t thread, bool gpu) {
    if (const auto it = trackIds_.find(key); it != trackIds_.end()) return it->second;
    tracks_.push_back(TraceTrack{key.first, key.second, thread, gpu});
    const auto id = uint32_t(tracks_.size() - 1);
    trackIds_.emplace(std::move(key), id);
    return id;
}

void TraceModel::addRecordOnTrack(TraceRecord r, std::string_view name, uint32_t track) {
    r.order = uint32_t(records_.size());
    r.name = intern(name);
    r.track = track;
    records_.push_back(r);
}

void TraceModel::addRecord(TraceRecord r, std::string_view name, const std::string& pid,
                           const std::string& tid, int64_t thread) {
    r.order = uint32_t(records_.size());
    r.name = intern(name);
    r.track = trackOf({pid, tid}, thread, isDeviceWork(r.kind));
    records_.push_back(r);
}

void TraceModel::addMeta(const std::string& key, Json&& value) {
    if (key == "metadata" && value.is_object())
        if (const auto p = value.find("producer"); p != value.end() && p->is_string())
            fromMvprof_ = p->get_ref<const std::string&>().rfind("mvprof", 0) == 0;
    meta_[key] = std::move(value);
}

Status TraceModel::add(const Json& e, int64_t index) {
    ++events_;
    const auto ph = e.find("ph");
    if (ph == e.end() || !ph->is_string())
        return makeError(ErrorCode::BadInput, file_ + ": event " + std::to_string(index) +
                                                  " has no phase (\"ph\"): not a trace event");
    const auto& phase = ph->get_ref<const std::string&>();
    const auto catIt = e.find("cat");
    const std::string cat = catIt != e.end() && catIt->is_string() ? catIt->get<std::string>() : "";
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
        skip("events of phase '" + phase + "'");
    return Ok{};
}

namespace {
// What the record is, from its category: false when it is left out (counted).
bool classify(TraceModel& m, TraceRecord& r, const std::string& cat, const std::string& name,
              const Json& e, const Json& args) {
    const Category c =
        cat.empty() ? (name.find("::") != std::string::npos ? Category::Op : Category::Annotation)
                    : categoryOf(cat, m.fromMvprof());
    switch (c) {
    case Category::Op:
        r.kind = EventKind::Op;
        r.detail = m.signatureOf(name, args);
        if (const auto h = args.find("Module Hierarchy"); h != args.end() && h->is_string())
            r.hierarchy = m.intern(h->get_ref<const std::string&>());
        return true;
    case Category::Annotation:
        r.kind = EventKind::Annotation;
        return true;
    case Category::Python:
        if (name.rfind("nn.Module: ", 0) != 0) {
            m.skip("python frames (python_function)");
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
        r.device = int16_t(std::clamp<int64_t>(
            integer(args, "device").value_or(integer(e, "pid").value_or(0)), 0, 1023));
        r.stream = int32_t(integer(args, "stream").value_or(integer(e, "tid").value_or(0)));
        r.bytes = std::max<int64_t>(0, integer(args, "bytes").value_or(0));
        return true;
    case Category::Runtime:
    case Category::Driver:
        r.kind = c == Category::Runtime ? EventKind::Runtime : EventKind::Driver;
        return true;
    case Category::ModuleSpan:
        r.kind = EventKind::ModuleSpan;
        if (const auto k = args.find("kind"); k != args.end() && k->is_string())
            r.detail = m.intern(k->get_ref<const std::string&>());
        return true;
    case Category::Phase:
        r.kind = EventKind::Phase;
        return true;
    case Category::Known:
        m.skip(cat);
        return false;
    case Category::Unknown:
        m.skip("unknown category '" + cat.substr(0, 60) + "'");
        return false;
    }
    return false;
}
} // namespace

Status TraceModel::addComplete(const Json& e, int64_t index, const std::string& cat) {
    const auto where = [&] { return file_ + ": event " + std::to_string(index); };
    const auto nameIt = e.find("name");
    if (nameIt == e.end() || !nameIt->is_string())
        return makeError(ErrorCode::BadInput, where() + " (an X slice) has no name string");
    const auto& name = nameIt->get_ref<const std::string&>();
    const auto tsIt = e.find("ts");
    const auto durIt = e.find("dur");
    const auto ts = tsIt == e.end() ? std::nullopt : microsToNs(*tsIt);
    const auto dur = durIt == e.end() ? std::nullopt : microsToNs(*durIt);
    if (!ts || !dur || *dur < 0 || std::abs(*ts) > (int64_t(1) << 62))
        return makeError(ErrorCode::BadInput,
                         where() + " ('" + name.substr(0, 80) +
                             "') has no valid ts/dur: they must be microseconds, dur ≥ 0");
    const auto argsIt = e.find("args");
    const Json& args = argsIt != e.end() && argsIt->is_object() ? *argsIt : emptyObject();
    TraceRecord r;
    r.startNs = *ts;
    r.durNs = *dur;
    if (!classify(*this, r, cat, name, e, args)) return Ok{};
    if (fromMvprof_) addMvprofArgs(r, args);
    r.externalId = integer(args, "External id").value_or(-1);
    r.correlation = integer(args, "correlation").value_or(-1);
    r.order = uint32_t(records_.size());
    r.name = intern(name);
    r.track = trackOf(e, r.device >= 0, fromMvprof_ && !isDeviceWork(r.kind));
    records_.push_back(r);
    return Ok{};
}

uint32_t TraceModel::signatureOf(const std::string& name, const Json& args) {
    std::string key = name;
    for (const char* k :
         {"Input Dims", "Input type", "Concrete Inputs", "flops", "flops_estimated"})
        if (const auto it = args.find(k); it != args.end()) key += '\x1f' + it->dump();
    if (const auto it = signatureIds_.find(key); it != signatureIds_.end()) return it->second;
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
    signatures_.push_back(sig);
    const auto id = uint32_t(signatures_.size() - 1);
    signatureIds_.emplace(std::move(key), id);
    return id;
}

// mvprof's export names each slice's phase and step.
void TraceModel::addMvprofArgs(TraceRecord& r, const Json& args) {
    if (const auto p = args.find("phase"); p != args.end() && p->is_string())
        r.phase = phaseFromString(p->get_ref<const std::string&>()).value_or(Phase::None);
    r.step = int32_t(std::clamp<int64_t>(integer(args, "step").value_or(0), 0, 1 << 24));
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
