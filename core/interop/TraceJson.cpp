#include "core/interop/TraceJson.h"

#include "core/interop/TraceStream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <vector>

namespace mvp::interop {

namespace {
constexpr int64_t kMaxMetaBytes = 1 << 20;
constexpr int kMaxDepth = 512;
constexpr size_t kWindowBytes = 4 << 20;

// Thrown inside a value that the window ends in: the driver reads more and
// parses the value again from its start (once per window, so cheap).
struct Incomplete {};
// Bad input. `json`: a breach of JSON's grammar, reported with its byte
// offset; otherwise `what` is the whole complaint.
struct Invalid {
    const char* at = nullptr;
    std::string what;
    bool json = true;
};

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// What a value is, from its first byte (for "is not a trace" messages).
const char* kindOf(char c) {
    switch (c) {
    case '{':
        return "an object";
    case '[':
        return "an array";
    case '"':
        return "a string";
    case 't':
    case 'f':
        return "a boolean";
    case 'n':
        return "null";
    default:
        return c == '-' || isDigit(c) ? "a number" : nullptr;
    }
}

// Parses one value in [p, end) of the window, validating as it goes; throws
// Incomplete when the window ends first, Invalid at the first breach.
class Cursor {
public:
    Cursor(const char* p, const char* end, std::deque<std::string>& decoded)
        : p_(p), e_(end), decoded_(decoded) {}
    const char* at() const { return p_; }

    void event(TraceEvent& ev) {
        ++p_; // '{'
        members([&](std::string_view key) {
            if (key == "args")
                args(ev);
            else
                value(eventSlot(ev, key), 1);
        });
    }

    // Any value, validated; recorded in `field` where one is given.
    void value(JsonField* field, int depth) {
        const char* start = p_;
        switch (peek()) {
        case '"': {
            const std::string_view s = string();
            if (field) *field = {JsonField::Type::String, s, {start, size_t(p_ - start)}};
            return;
        }
        case '{':
            nest(depth);
            ++p_;
            members([&](std::string_view) { value(nullptr, depth + 1); });
            break;
        case '[':
            nest(depth);
            ++p_;
            elements(depth + 1);
            break;
        case 't':
            literal("true");
            break;
        case 'f':
            literal("false");
            break;
        case 'n':
            literal("null");
            break;
        default: {
            bool integer = true;
            const std::string_view n = number(integer);
            if (field) *field = {integer ? JsonField::Type::Integer : JsonField::Type::Float, n, n};
            return;
        }
        }
        if (field) *field = {JsonField::Type::Other, {}, {start, size_t(p_ - start)}};
    }

    // A string at '"': its value, unescaped (escaped ones decoded into `decoded_`).
    std::string_view string() {
        const char* s = ++p_;
        bool escaped = false;
        for (;;) {
            if (p_ == e_) {
                checkLength(s);
                throw Incomplete{};
            }
            const auto c = static_cast<unsigned char>(*p_);
            if (c == '"') break;
            if (c == '\\') {
                escaped = true;
                escape();
            } else if (c < 0x20) {
                fail("a control character inside a string");
            } else if (c >= 0x80) {
                utf8();
            } else {
                ++p_;
            }
        }
        checkLength(s);
        const std::string_view raw(s, size_t(p_ - s));
        ++p_; // '"'
        return escaped ? unescape(raw, s) : raw;
    }

    void skipSpace() {
        while (p_ < e_ && isSpace(*p_))
            ++p_;
        if (p_ == e_) throw Incomplete{};
    }

private:
    static JsonField* eventSlot(TraceEvent& ev, std::string_view key) {
        if (key.size() > 4) return nullptr;
        if (key == "ph") return &ev.ph;
        if (key == "cat") return &ev.cat;
        if (key == "name") return &ev.name;
        if (key == "ts") return &ev.ts;
        if (key == "dur") return &ev.dur;
        if (key == "pid") return &ev.pid;
        if (key == "tid") return &ev.tid;
        return nullptr;
    }

    static JsonField* argSlot(TraceEvent::Args& a, std::string_view key) {
        if (key == "External id") return &a.externalId;
        if (key == "Input Dims") return &a.inputDims;
        if (key == "Input type") return &a.inputType;
        if (key == "Concrete Inputs") return &a.concreteInputs;
        if (key == "correlation") return &a.correlation;
        if (key == "device") return &a.device;
        if (key == "stream") return &a.stream;
        if (key == "bytes") return &a.bytes;
        if (key == "Module Hierarchy") return &a.hierarchy;
        if (key == "kind") return &a.kind;
        if (key == "phase") return &a.phase;
        if (key == "step") return &a.step;
        if (key == "flops") return &a.flops;
        if (key == "flops_estimated") return &a.flopsEstimated;
        return nullptr;
    }

    void args(TraceEvent& ev) {
        ev.args = {};
        ev.argsIsObject = peek() == '{';
        if (!ev.argsIsObject) return value(nullptr, 1);
        ++p_;
        members([&](std::string_view key) { value(argSlot(ev.args, key), 2); });
    }

    template <class OnMember> void members(OnMember&& onMember) {
        skipSpace();
        if (*p_ == '}') {
            ++p_;
            return;
        }
        for (;;) {
            skipSpace();
            if (*p_ != '"') fail("expected a member name in quotes");
            const std::string_view key = string();
            skipSpace();
            if (*p_ != ':') fail("expected ':' after a member name");
            ++p_;
            skipSpace();
            onMember(key);
            skipSpace();
            if (*p_ == ',') {
                ++p_;
                continue;
            }
            if (*p_ == '}') {
                ++p_;
                return;
            }
            fail("expected ',' or '}' after an object's member");
        }
    }

    void elements(int depth) {
        skipSpace();
        if (*p_ == ']') {
            ++p_;
            return;
        }
        for (;;) {
            skipSpace();
            value(nullptr, depth);
            skipSpace();
            if (*p_ == ',') {
                ++p_;
                continue;
            }
            if (*p_ == ']') {
                ++p_;
                return;
            }
            fail("expected ',' or ']' after an array's element");
        }
    }

    std::string_view number(bool& integer) {
        const char* s = p_;
        if (*p_ == '-') ++p_;
        if (peek() == '0')
            ++p_;
        else if (isDigit(*p_))
            digits();
        else
            fail(s == p_ ? "expected a value" : "a '-' without digits");
        if (peek() == '.') {
            integer = false;
            ++p_;
            if (!isDigit(peek())) fail("a number's '.' without digits after it");
            digits();
        }
        bool exponent = false;
        if (peek() == 'e' || *p_ == 'E') {
            integer = false;
            exponent = true;
            ++p_;
            if (peek() == '+' || *p_ == '-') ++p_;
            if (!isDigit(peek())) fail("a number's exponent without digits");
            digits();
        }
        const std::string_view text(s, size_t(p_ - s));
        (void)peek(); // a number ends before the window does, or it may go on
        // nlohmann refuses what overflows a double; only an exponent or some
        // 300 digits can, so other numbers skip the conversion.
        if ((exponent || text.size() > 300) &&
            !std::isfinite(std::strtod(std::string(text).c_str(), nullptr)))
            failAt(s, "a number beyond a double's range");
        return text;
    }

    void digits() {
        while (p_ < e_ && isDigit(*p_))
            ++p_;
    }

    void literal(std::string_view word) {
        for (char c : word) {
            if (peek() != c) fail("an invalid literal (true, false or null expected)");
            ++p_;
        }
    }

    void escape() {
        ++p_; // '\\'
        const char c = peek();
        if (c == 'u') {
            for (int i = 1; i <= 4; ++i) {
                if (p_ + i >= e_) throw Incomplete{};
                if (hexValue(p_[i]) < 0) fail("a \\u escape without four hex digits");
            }
            p_ += 5;
            return;
        }
        if (!std::strchr("\"\\/bfnrt", c) || c == 0) fail("an invalid escape in a string");
        ++p_;
    }

    // One multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
    void utf8() {
        const auto b = static_cast<unsigned char>(*p_);
        int more = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            more = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            more = 2;
            if (b == 0xE0) lo = 0xA0;
            if (b == 0xED) hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            more = 3;
            if (b == 0xF0) lo = 0x90;
            if (b == 0xF4) hi = 0x8F;
        } else {
            fail("a string that is not UTF-8");
        }
        for (int i = 1; i <= more; ++i) {
            if (p_ + i >= e_) throw Incomplete{};
            const auto c = static_cast<unsigned char>(p_[i]);
            if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xBF))
                fail("a string that is not UTF-8");
        }
        p_ += more + 1;
    }

    std::string_view unescape(std::string_view raw, const char* start) {
        std::string& out = decoded_.emplace_back();
        out.reserve(raw.size());
        for (size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] != '\\') {
                out += raw[i];
                continue;
            }
            const char c = raw[++i];
            switch (c) {
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u':
                appendUtf8(out, codePoint(raw, i, start));
                break;
            default:
                out += c;
            }
        }
        return out;
    }

    // The \uXXXX at raw[i] ('u'), with its low surrogate where it is a high one.
    uint32_t codePoint(std::string_view raw, size_t& i, const char* start) {
        const auto hex4 = [&](size_t at) {
            uint32_t v = 0;
            for (size_t k = 0; k < 4; ++k)
                v = v * 16 + uint32_t(hexValue(raw[at + k]));
            return v;
        };
        uint32_t cp = hex4(i + 1);
        i += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) failAt(start + i, "a lone low surrogate in a \\u escape");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i + 6 >= raw.size() + 0 || raw[i + 1] != '\\' || raw[i + 2] != 'u')
                failAt(start + i, "a high surrogate without its low one");
            const uint32_t low = hex4(i + 3);
            if (low < 0xDC00 || low > 0xDFFF)
                failAt(start + i, "a high surrogate without its low one");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
        }
        return cp;
    }

    void checkLength(const char* start) const {
        if (p_ - start > kMaxStringBytes)
            throw Invalid{start,
                          "it holds a string longer than 4 MiB (no trace has one: the file "
                          "is damaged or not a trace)",
                          false};
    }

    void nest(int depth) const {
        if (depth >= kMaxDepth)
            throw Invalid{p_, "its values nest more than 512 deep (no trace does)", true};
    }

    char peek() const {
        if (p_ == e_) throw Incomplete{};
        return *p_;
    }
    [[noreturn]] void fail(const char* what) const { failAt(p_, what); }
    [[noreturn]] static void failAt(const char* at, const char* what) { throw Invalid{at, what}; }

    const char* p_;
    const char* e_;
    std::deque<std::string>& decoded_;
};

// The file's structure around the events: the root object's members or the
// bare array, read through a window that slides along the stream.
class TraceParser {
public:
    TraceParser(TraceStream& in, const std::string& name, const TraceJsonSink& sink)
        : in_(in), name_(name), sink_(sink) {
        buf_.resize(kWindowBytes);
    }

    Result<TraceForm> run() {
        try {
            parseRoot();
            if (!atEnd()) jsonError("more text after the trace's end");
        } catch (const Invalid& e) {
            return error(e);
        } catch (const Stopped& s) {
            return s.error;
        }
        if (form_ == TraceForm::Object && !sawEvents_) return noEvents();
        return *form_;
    }

private:
    struct Stopped {
        Error error;
    };

    void parseRoot() {
        const char c = next();
        if (c == '{') {
            form_ = TraceForm::Object;
            ++pos_;
            members();
        } else if (c == '[') {
            form_ = TraceForm::Array;
            ++pos_;
            events();
        } else {
            notATrace("it holds", c, "not a JSON object or array of events");
        }
    }

    void members() {
        if (next() == '}') {
            ++pos_;
            return;
        }
        for (;;) {
            if (next() != '"') jsonError("expected a member name in quotes");
            std::string key;
            complete(kMaxEventBytes, [&](Cursor& c) { key = std::string(c.string()); });
            topKeys_.push_back(key);
            if (next() != ':') jsonError("expected ':' after a member name");
            ++pos_;
            const char c = next();
            if (key == "traceEvents")
                traceEvents(c);
            else
                meta(key);
            if (next() == ',') {
                ++pos_;
                continue;
            }
            if (next() == '}') {
                ++pos_;
                return;
            }
            jsonError("expected ',' or '}' after a member of the trace");
        }
    }

    void traceEvents(char c) {
        if (c == '{')
            throw Invalid{nullptr, "is not a trace: its traceEvents is an object, not an array",
                          false};
        if (c != '[') notATrace("its traceEvents is", c, "not an array");
        sawEvents_ = true;
        ++pos_;
        events();
    }

    void meta(const std::string& key) {
        const size_t start = complete(kMaxEventBytes, [](Cursor& c) { c.value(nullptr, 1); });
        if (pos_ - start > size_t(kMaxMetaBytes) || !sink_.meta) return;
        Json v = Json::parse(buf_.data() + start, buf_.data() + pos_, nullptr, false);
        if (!v.is_discarded()) sink_.meta(key, std::move(v));
    }

    void events() {
        if (next() == ']') {
            ++pos_;
            return;
        }
        for (;;) {
            const char c = next();
            if (c != '{')
                notATrace(("its event " + std::to_string(index_) + " is").c_str(), c,
                          "not an object");
            complete(kMaxEventBytes, [&](Cursor& cur) {
                event_ = TraceEvent{};
                decoded_.clear();
                cur.event(event_);
            });
            if (auto s = sink_.event(event_, index_++); !s) throw Stopped{s.error()};
            if (next() == ',') {
                ++pos_;
                continue;
            }
            if (next() == ']') {
                ++pos_;
                return;
            }
            jsonError("expected ',' or ']' after an event");
        }
    }

    // Runs `parse` on the value at pos_, reading more of the stream until
    // the value ends in the window; returns where it starts (pos_ is past it).
    template <class Parse> size_t complete(int64_t limit, Parse&& parse) {
        for (;;) {
            Cursor c(buf_.data() + pos_, buf_.data() + end_, decoded_);
            try {
                parse(c);
                if (c.at() - (buf_.data() + pos_) > limit) tooLarge();
                const size_t start = pos_;
                pos_ = size_t(c.at() - buf_.data());
                return start;
            } catch (const Incomplete&) {
                if (int64_t(end_ - pos_) > limit) tooLarge();
                if (!more()) jsonError("the file ends inside a value", buf_.data() + end_);
            }
        }
    }

    // The next byte that is not white space (pos_ at it), reading as needed.
    char next() {
        for (;;) {
            while (pos_ < end_ && isSpace(buf_[pos_]))
                ++pos_;
            if (pos_ < end_) return buf_[pos_];
            if (!more()) jsonError("the file ends early", buf_.data() + end_);
        }
    }

    bool atEnd() {
        for (;;) {
            while (pos_ < end_ && isSpace(buf_[pos_]))
                ++pos_;
            if (pos_ < end_) return false;
            if (!more()) return true;
        }
    }

    // Slides the window to pos_ and reads more after what it holds (growing
    // it when one value fills it); false at the end of the stream.
    bool more() {
        if (eof_) return false;
        if (pos_ > 0) {
            std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
            end_ -= pos_;
            base_ += int64_t(pos_);
            pos_ = 0;
        }
        if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
        const int64_t got = in_.read(buf_.data() + end_, int64_t(buf_.size() - end_));
        if (got <= 0) {
            eof_ = true;
            return false;
        }
        end_ += size_t(got);
        return true;
    }

    [[noreturn]] void notATrace(const char* is, char c, const char* not_) {
        const char* kind = kindOf(c);
        if (!kind) jsonError(("an unexpected '" + std::string(1, c) + "'").c_str());
        throw Invalid{nullptr, std::string("is not a trace: ") + is + " " + kind + ", " + not_,
                      false};
    }

    [[noreturn]] void tooLarge() {
        if (form_ && !topKeys_.empty() && topKeys_.back() != "traceEvents")
            throw Invalid{nullptr,
                          "has a value ('" + topKeys_.back().substr(0, 60) +
                              "') larger than 16 MiB: not a trace this tool can read",
                          false};
        throw Invalid{nullptr,
                      "has an event (traceEvents[" + std::to_string(index_) +
                          "]) larger than 16 MiB: not a trace this tool can read",
                      false};
    }

    [[noreturn]] void jsonError(const char* what, const char* at = nullptr) {
        throw Invalid{at ? at : buf_.data() + pos_, what, true};
    }

    Error error(const Invalid& e) const {
        if (!in_.readError().empty())
            return makeError(ErrorCode::BadInput, name_ + " could not be read: " + in_.readError());
        if (!e.json) {
            const bool readFailure = e.what.rfind("it holds", 0) == 0;
            return makeError(ErrorCode::BadInput,
                             name_ + (readFailure ? " could not be read: " : " ") + e.what);
        }
        const int64_t at = base_ + (e.at - buf_.data());
        return makeError(ErrorCode::BadInput, name_ + " is not valid JSON at byte " +
                                                  std::to_string(at) + " (" + e.what +
                                                  "): truncated or damaged");
    }

    Error noEvents() const {
        std::string keys;
        for (size_t i = 0; i < topKeys_.size() && i < 6; ++i)
            keys += (i ? ", " : "") + topKeys_[i];
        return makeError(
            ErrorCode::BadInput,
            name_ + " is not a trace: it has no traceEvents array" +
                (keys.empty() ? std::string(" (an empty object)") : " (its keys: " + keys + ")"));
    }

    TraceStream& in_;
    const std::string& name_;
    const TraceJsonSink& sink_;
    std::vector<char> buf_;
    size_t pos_ = 0, end_ = 0; // the unread part of the window: [pos_, end_)
    int64_t base_ = 0;         // the file offset of buf_[0]
    bool eof_ = false;
    std::optional<TraceForm> form_;
    bool sawEvents_ = false;
    std::vector<std::string> topKeys_;
    TraceEvent event_;
    std::deque<std::string> decoded_;
    int64_t index_ = 0;
};
} // namespace

Result<TraceForm> parseTraceJson(TraceStream& in, const std::string& name,
                                 const TraceJsonSink& sink) {
    return TraceParser(in, name, sink).run();
}

} // namespace mvp::interop
