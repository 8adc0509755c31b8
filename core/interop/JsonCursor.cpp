#include "core/interop/JsonCursor.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace mvp::interop::json {

namespace {
constexpr int kMaxDepth = 512;

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
} // namespace

void Cursor::event(TraceEvent& ev) {
    ++p_; // '{'
    members([&](std::string_view key) {
        if (key == "args")
            args(ev);
        else
            value(eventSlot(ev, key), 1);
    });
}

void Cursor::value(JsonField* field, int depth) {
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

std::string_view Cursor::string() {
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

inline void Cursor::skipSpace() {
    while (p_ < e_ && isSpace(*p_))
        ++p_;
    if (p_ == e_) throw Incomplete{};
}

inline JsonField* Cursor::eventSlot(TraceEvent& ev, std::string_view key) {
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

inline JsonField* Cursor::argSlot(TraceEvent::Args& a, std::string_view key) {
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

inline void Cursor::args(TraceEvent& ev) {
    ev.args = {};
    ev.argsIsObject = peek() == '{';
    if (!ev.argsIsObject) return value(nullptr, 1);
    ++p_;
    members([&](std::string_view key) { value(argSlot(ev.args, key), 2); });
}

template <class OnMember> inline void Cursor::members(OnMember&& onMember) {
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

inline void Cursor::elements(int depth) {
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

inline std::string_view Cursor::number(bool& integer) {
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

inline void Cursor::digits() {
    while (p_ < e_ && isDigit(*p_))
        ++p_;
}

inline void Cursor::literal(std::string_view word) {
    for (char c : word) {
        if (peek() != c) fail("an invalid literal (true, false or null expected)");
        ++p_;
    }
}

inline void Cursor::escape() {
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

// RFC 3629's table of well-formed sequences: the second byte's range
// depends on the first (no overlongs, no surrogates, nothing past U+10FFFF).
inline void Cursor::utf8() {
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

std::string_view Cursor::unescape(std::string_view raw, const char* start) {
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

uint32_t Cursor::codePoint(std::string_view raw, size_t& i, const char* start) {
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
        if (low < 0xDC00 || low > 0xDFFF) failAt(start + i, "a high surrogate without its low one");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        i += 6;
    }
    return cp;
}

inline void Cursor::checkLength(const char* start) const {
    if (p_ - start > kMaxStringBytes)
        throw Invalid{start,
                      "it holds a string longer than 4 MiB (no trace has one: the file "
                      "is damaged or not a trace)",
                      false};
}

inline void Cursor::nest(int depth) const {
    if (depth >= kMaxDepth)
        throw Invalid{p_, "its values nest more than 512 deep (no trace does)", true};
}

inline char Cursor::peek() const {
    if (p_ == e_) throw Incomplete{};
    return *p_;
}

} // namespace mvp::interop::json
