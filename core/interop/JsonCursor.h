#pragma once
// The JSON grammar of one value, as the trace parser (TraceJson.cpp) reads
// it: a cursor over a window of the file that validates every byte
// (strings' UTF-8 and escapes, numbers, literals, nesting) and hands over
// the members of an event the importers read, without building a
// document. Internal to the importers.

#include "core/interop/TraceJson.h"

#include <deque>
#include <string>
#include <string_view>

namespace mvp::interop::json {

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

inline bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Parses one value in [p, end) of the window, validating as it goes; throws
// Incomplete when the window ends first, Invalid at the first breach.
// Escaped strings are decoded into `decoded`, whose views stay valid until
// the caller clears it.
class Cursor {
public:
    Cursor(const char* p, const char* end, std::deque<std::string>& decoded)
        : p_(p), e_(end), decoded_(decoded) {}
    const char* at() const { return p_; }

    // An event at its '{': `ev` gets the members the importers read.
    void event(TraceEvent& ev);

    // Any value, validated; recorded in `field` where one is given.
    void value(JsonField* field, int depth);

    // A string at '"': its value, unescaped (escaped ones decoded into `decoded_`).
    std::string_view string();

private:
    // The members of an event and of its args: the fields they fill.
    static JsonField* eventSlot(TraceEvent& ev, std::string_view key);
    static JsonField* argSlot(TraceEvent::Args& a, std::string_view key);
    void args(TraceEvent& ev);
    // An object's members after its '{' (each handed to onMember at its
    // value), an array's elements after its '['.
    template <class OnMember> void members(OnMember&& onMember);
    void elements(int depth);
    std::string_view number(bool& integer);
    void digits();
    void literal(std::string_view word);
    void escape();
    // One multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
    void utf8();
    std::string_view unescape(std::string_view raw, const char* start);
    // The \uXXXX at raw[i] ('u'), with its low surrogate where it is a high one.
    uint32_t codePoint(std::string_view raw, size_t& i, const char* start);
    void checkLength(const char* start) const;
    void nest(int depth) const;
    void skipSpace();
    char peek() const;
    [[noreturn]] void fail(const char* what) const { failAt(p_, what); }
    [[noreturn]] static void failAt(const char* at, const char* what) { throw Invalid{at, what}; }

    const char* p_;
    const char* e_;
    std::deque<std::string>& decoded_;
};

} // namespace mvp::interop::json
