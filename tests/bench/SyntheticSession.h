#pragma once
// A synthetic session for benchmarks: MoE layers with gate and expert spans,
// `ops` op events and `routing` routing rows, written through SessionWriter.

#include <cstdint>
#include <string>

namespace mvp::bench {

// Returns an empty string on success, else the error.
std::string writeSyntheticSession(const std::string& path, int64_t ops, int64_t routing,
                                  int64_t spans = 100'000);

} // namespace mvp::bench
