#include "core/interop/TraceJson.h"

#include "core/interop/JsonCursor.h"
#include "core/interop/TraceStream.h"

#include <cstring>
#include <deque>
#include <optional>
#include <vector>

namespace mvp::interop {

namespace {
using json::Cursor;
using json::Incomplete;
using json::Invalid;
using json::isSpace;

constexpr int64_t kMaxMetaBytes = 1 << 20;
constexpr size_t kWindowBytes = 4 << 20;

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
        return c == '-' || (c >= '0' && c <= '9') ? "a number" : nullptr;
    }
}

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
