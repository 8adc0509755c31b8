#pragma once
// `mvprof-cli launch --cuda-inject`: where the injection library is, and what
// the injected processes wrote (one session per CUDA process, see
// capture/cuda/InjectedRun.h). Needs no CUDA here: the library does the work
// inside the launched program.

#include "core/Result.h"
#include "core/session/Records.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mvp::cli {

// libmvprof_inject.so: $MVPROF_INJECT_LIBRARY, else <prefix>/lib/mvprof
// beside <prefix>/bin/mvprof-cli (the build tree and the DEB alike).
std::optional<std::string> injectionLibrary();

// The session pattern for processes launched to write beside `session`
// ("run.mvprof" → "run.cuda.%p.mvprof").
std::string injectedPattern(const std::string& session);

// The injected sessions the pattern's processes wrote since `since`, by name.
std::vector<std::string> injectedSessions(const std::string& pattern,
                                          std::filesystem::file_time_type since);

// One line per injected session: its GPU work and API calls, by kind.
void printInjected(const std::vector<std::string>& files);

// Gathers the injected sessions into `session` (created, or appended to):
// each one's run, with its activity and metrics, becomes a run of it, and
// the injected file is removed. Returns the runs added; stops at the first
// file it cannot read or write, which stays where it is.
Result<std::vector<RunInfo>> gatherInjected(const std::string& session,
                                            const std::vector<std::string>& files);

} // namespace mvp::cli
