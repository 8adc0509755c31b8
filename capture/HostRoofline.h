#pragma once
// The host CPU's roofline ceilings, measured once per machine and BLAS with a
// short micro-benchmark through libtorch (the same kernels the model uses) and
// cached under $XDG_CACHE_HOME/mvprof (or ~/.cache/mvprof).

#include "core/session/Records.h"

namespace mvp {

// Measures or reads the cached figures; never fails (0 where unmeasurable).
DeviceRow hostDevice();

} // namespace mvp
