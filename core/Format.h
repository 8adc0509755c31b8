#pragma once
// One number through a printf format ("%.2f", "%+.0f%%"), for the text reports.

#include <cstdio>
#include <string>

namespace mvp {

inline std::string fmt(const char* format, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

} // namespace mvp
