#pragma once
// A generated Kineto-format trace for size and memory tests: `events` cpu_op
// slices on one thread, one line, ~270 bytes each (a decoder-like mix of
// matrix shapes), written as it goes.

#include <cstdint>
#include <string>

namespace mvp::test {

bool writeSyntheticTrace(const std::string& path, int64_t events);

} // namespace mvp::test
