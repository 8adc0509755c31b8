#include "core/interop/TraceJson.h"

#include <optional>
#include <vector>

namespace mvp::interop {

namespace {
constexpr int64_t kMaxMetaBytes = 1 << 20;

// Builds one JSON value from SAX callbacks, counting its size; past `limit`
// it keeps only the nesting (the value is then dropped or refused).
class ValueBuilder {
public:
    void begin(int64_t limit) {
        root_ = Json();
        stack_.clear();
        depth_ = 0;
        bytes_ = 0;
        limit_ = limit;
        key_.clear();
    }
    bool overflowed() const { return bytes_ > limit_; }
    int depth() const { return depth_; }
    // At the value's top level, under `key`: for raw number text of ts/dur.
    bool atTopKey(std::string_view key) const { return depth_ == 1 && key_ == key; }
    Json&& take() { return std::move(root_); }

    // Each returns true when the value is complete.
    bool scalar(Json v, int64_t size) {
        bytes_ += size;
        if (!overflowed()) place(std::move(v));
        return depth_ == 0;
    }
    void key(std::string& k) {
        bytes_ += int64_t(k.size()) + 8;
        key_ = std::move(k);
    }
    void open(bool object) {
        ++depth_;
        bytes_ += 16;
        if (overflowed()) return;
        Json* made = place(object ? Json::object() : Json::array());
        stack_.push_back(made);
    }
    bool close() {
        --depth_;
        if (!stack_.empty() && int(stack_.size()) > depth_) stack_.pop_back();
        return depth_ == 0;
    }

private:
    Json* place(Json v) {
        if (stack_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        Json& slot = top[key_];
        slot = std::move(v);
        return &slot;
    }
    Json root_;
    std::vector<Json*> stack_;
    std::string key_;
    int depth_ = 0;
    int64_t bytes_ = 0, limit_ = 0;
};

const char* typeName(Json::value_t t) {
    switch (t) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::null:
        return "null";
    default:
        return "a number";
    }
}

// Where the parse is: the root's level, the traceEvents array, inside one
// event, inside a metadata value.
class TraceSax {
public:
    TraceSax(const std::string& name, const TraceJsonSink& sink) : name_(name), sink_(sink) {}

    std::optional<Error> error;
    std::optional<TraceForm> form;
    bool sawEvents = false;
    std::vector<std::string> topKeys;

    bool null() { return scalar(Json(nullptr), Json::value_t::null, 4); }
    bool boolean(bool v) { return scalar(Json(v), Json::value_t::boolean, 4); }
    bool number_integer(Json::number_integer_t v) {
        return scalar(Json(v), Json::value_t::number_integer, 8);
    }
    bool number_unsigned(Json::number_unsigned_t v) {
        return scalar(Json(v), Json::value_t::number_unsigned, 8);
    }
    bool number_float(Json::number_float_t v, const std::string& text) {
        // Microseconds with nanosecond digits: a double loses the last ones at
        // 16 significant digits, so ts and dur keep their text.
        if (mode_ == Mode::Event && (value_.atTopKey("ts") || value_.atTopKey("dur")))
            return scalar(Json(text), Json::value_t::number_float, int64_t(text.size()));
        return scalar(Json(v), Json::value_t::number_float, 8);
    }
    bool string(std::string& v) {
        const auto size = int64_t(v.size());
        return scalar(Json(std::move(v)), Json::value_t::string, size);
    }
    bool binary(Json::binary_t&) { return fail("holds binary data, which no trace does"); }
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& k) {
        if (mode_ == Mode::Root) {
            pendingKey_ = k;
            topKeys.push_back(k);
            return true;
        }
        value_.key(k);
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) {
        // nlohmann's message quotes the last token, which may be megabytes long.
        std::string what = std::string(ex.what()).substr(0, 400);
        if (const auto at = what.find(": "); at != std::string::npos) what = what.substr(at + 2);
        return fail("is not valid JSON at byte " + std::to_string(position) + " (" + what +
                    "): truncated or damaged");
    }

private:
    enum class Mode { Start, Root, Events, Event, Meta };

    bool fail(const std::string& what) {
        if (!error) error = makeError(ErrorCode::BadInput, name_ + " " + what);
        return false;
    }

    bool open(bool object) {
        switch (mode_) {
        case Mode::Start:
            form = object ? TraceForm::Object : TraceForm::Array;
            mode_ = object ? Mode::Root : Mode::Events;
            return true;
        case Mode::Root:
            if (pendingKey_ == "traceEvents") {
                if (object)
                    return fail("is not a trace: its traceEvents is an object, not an array");
                sawEvents = true;
                mode_ = Mode::Events;
                return true;
            }
            return beginValue(Mode::Meta, kMaxMetaBytes, object);
        case Mode::Events:
            if (!object) return notAnEvent(Json::value_t::array);
            return beginValue(Mode::Event, kMaxEventBytes, object);
        case Mode::Event:
        case Mode::Meta:
            value_.open(object);
            return checkSize();
        }
        return true;
    }

    bool beginValue(Mode m, int64_t limit, bool object) {
        mode_ = m;
        value_.begin(limit);
        value_.open(object);
        return true;
    }

    bool close() {
        switch (mode_) {
        case Mode::Event:
        case Mode::Meta:
            if (value_.close()) return finishValue();
            return true;
        case Mode::Events:
            mode_ = *form == TraceForm::Object ? Mode::Root : Mode::Start;
            return true;
        case Mode::Root:
        case Mode::Start:
            mode_ = Mode::Start;
            return true;
        }
        return true;
    }

    bool scalar(Json v, Json::value_t type, int64_t size) {
        switch (mode_) {
        case Mode::Start:
            return fail("is not a trace: it holds " + std::string(typeName(type)) +
                        ", not a JSON object or array of events");
        case Mode::Root:
            if (pendingKey_ == "traceEvents")
                return fail("is not a trace: its traceEvents is " + std::string(typeName(type)) +
                            ", not an array");
            if (sink_.meta) sink_.meta(pendingKey_, std::move(v));
            return true;
        case Mode::Events:
            return notAnEvent(type);
        case Mode::Event:
        case Mode::Meta:
            if (value_.scalar(std::move(v), size)) return finishValue();
            return checkSize();
        }
        return true;
    }

    bool checkSize() {
        if (mode_ == Mode::Event && value_.overflowed())
            return fail("has an event (traceEvents[" + std::to_string(index_) +
                        "]) larger than 16 MiB: not a trace this tool can read");
        return true;
    }

    bool notAnEvent(Json::value_t type) {
        return fail("is not a trace: its event " + std::to_string(index_) + " is " +
                    typeName(type) + ", not an object");
    }

    bool finishValue() {
        if (mode_ == Mode::Meta) {
            mode_ = Mode::Root;
            if (!value_.overflowed() && sink_.meta) sink_.meta(pendingKey_, value_.take());
            return true;
        }
        mode_ = Mode::Events;
        if (auto s = sink_.event(value_.take(), index_++); !s) {
            error = s.error();
            return false;
        }
        return true;
    }

    const std::string& name_;
    const TraceJsonSink& sink_;
    Mode mode_ = Mode::Start;
    std::string pendingKey_;
    ValueBuilder value_;
    int64_t index_ = 0;
};
} // namespace

Result<TraceForm> parseTraceJson(std::istream& in, const std::string& name,
                                 const TraceJsonSink& sink) {
    TraceSax sax(name, sink);
    bool ok = false;
    try {
        ok = Json::sax_parse(in, &sax, Json::input_format_t::json, true);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::BadInput, name + " could not be parsed: " + e.what());
    }
    if (sax.error) return *sax.error;
    if (!ok || !sax.form)
        return makeError(ErrorCode::BadInput, name + " is not valid JSON (empty or truncated)");
    if (*sax.form == TraceForm::Object && !sax.sawEvents) {
        std::string keys;
        for (size_t i = 0; i < sax.topKeys.size() && i < 6; ++i)
            keys += (i ? ", " : "") + sax.topKeys[i];
        return makeError(
            ErrorCode::BadInput,
            name + " is not a trace: it has no traceEvents array" +
                (keys.empty() ? std::string(" (an empty object)") : " (its keys: " + keys + ")"));
    }
    return *sax.form;
}

} // namespace mvp::interop
