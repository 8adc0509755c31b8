#pragma once
// The part of an exception's text a user reads. Plain C++.

#include <exception>
#include <string>

namespace mvp {

// The first line: libtorch appends a C++ backtrace, TorchScript the
// interpreter's stack, below it.
inline std::string firstLine(const std::exception& e) {
    const std::string what = e.what();
    return what.substr(0, what.find('\n'));
}

} // namespace mvp
