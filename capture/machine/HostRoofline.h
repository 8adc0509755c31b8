#pragma once
// The host CPU's roofline ceilings, measured once per machine and BLAS with a
// short micro-benchmark through libtorch (the same kernels the model uses) and
// cached under $XDG_CACHE_HOME/mvprof (or ~/.cache/mvprof); a GPU's, measured
// on it at each capture (a second: no cache to go stale across drivers).

#include "core/session/Records.h"

namespace mvp {

// Measures or reads the cached figures; never fails (0 where unmeasurable).
DeviceRow hostDevice();
// CUDA device `index`: its name (from the driver), memory, and ceilings
// measured with libtorch's own kernels in `dtype` (float32, bfloat16, float16).
DeviceRow gpuDevice(int index, const std::string& dtype);

} // namespace mvp
