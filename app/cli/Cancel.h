#pragma once
// SIGINT / SIGTERM stop a model run between steps instead of killing it, so
// the session keeps the run, marked incomplete.

#include <atomic>

namespace mvp::cli {

// Installs the handlers; the flag they set goes into CaptureOptions::cancel.
const std::atomic<bool>* installCancelHandlers();

} // namespace mvp::cli
