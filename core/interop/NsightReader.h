#pragma once
// Nsight Systems' SQLite export (`nsys export --type sqlite`; columns as
// NVIDIA's exporter documents them, docs/interop.md §C) read into
// TraceModels, one per profiled process: kernels, copies and fills on their
// device and stream, CUDA runtime calls on their thread, NVTX push/pop and
// start/end ranges as module spans (PyTorch's emit_nvtx ranges,
// "aten::mm, seq = …, sizes = […]", as ops). Kernels then reach the
// innermost range around their launch call on the launching thread (the
// runtime call's correlation id, as NVIDIA's nvtx_kern_sum report joins
// them). Opened read-only and defensively, like a session. Internal.

#include "core/Result.h"
#include "core/interop/TraceModel.h"

#include <string>
#include <vector>

namespace mvp::interop {

// True when the file starts with SQLite's header.
bool isSqliteFile(const std::string& path);

Result<std::vector<TraceModel>> readNsight(const std::string& path);

} // namespace mvp::interop
