#pragma once
// Generated Kineto-format traces for size, speed and memory tests, written
// as they go, one line:
// - CpuOps: `events` cpu_op slices on one thread in time order, ~270 bytes
//   each (a decoder-like mix of matrix shapes);
// - GpuMix: what a CUDA run's trace holds, a third each of cpu_ops, the
//   cudaLaunchKernel inside each and its kernel on a GPU stream (linked by
//   External id and correlation), ~300 bytes an event, the kernels listed
//   among the CPU events as Kineto does, so the importer has to sort.

#include <cstdint>
#include <string>

namespace mvp::test {

enum class SyntheticMix { CpuOps, GpuMix };

// Writes about `events` events (GpuMix rounds down to whole launches).
bool writeSyntheticTrace(const std::string& path, int64_t events,
                         SyntheticMix mix = SyntheticMix::CpuOps);

} // namespace mvp::test
