#pragma once
// Typed errors as values. Every fallible core/capture call returns Result<T>;
// callers show `error().message` to the user, which always says what to do.

#include <string>
#include <utility>
#include <variant>

namespace mvp {

enum class ErrorCode {
    BadInput,    // the user's input is wrong (file, option, format): exit 2 in the CLI
    NotFound,    // a named file, run, preset or layer does not exist: exit 2
    NewerSchema, // a session written by a newer mvprof: exit 2
    NotASession, // random bytes, a foreign SQLite file, a truncated file: exit 2
    Io,          // the OS refused (permissions, full disk): exit 2
    Cancelled,   // the user stopped it
    Internal,    // a bug or an unexpected library failure: exit 1
};

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;

    // CLI exit status for this error: 2 for anything the user can fix, 1 otherwise.
    int exitCode() const { return code == ErrorCode::Internal ? 1 : 2; }
};

inline Error makeError(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

template <typename T> class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

// Result<void>: success or an Error.
struct Ok {};
using Status = Result<Ok>;

} // namespace mvp
