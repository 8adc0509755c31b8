#pragma once
// A session file for rows nobody reads: the spans and ops of passes that run
// under a Recorder only for what it makes observable (hardware-counter
// replays, an eval item's attention in a TorchScript model). Created in the
// temporary directory, removed with the object. Internal to mvp_capture.

#include "core/Result.h"
#include "core/session/SessionWriter.h"

#include <filesystem>
#include <memory>

namespace mvp {

class ScratchSession {
public:
    static Result<std::unique_ptr<ScratchSession>> open();
    ~ScratchSession();
    ScratchSession(const ScratchSession&) = delete;
    ScratchSession& operator=(const ScratchSession&) = delete;

    SessionWriter& writer() { return *writer_; }
    // A run to record into; the file holds one per call.
    Result<int64_t> newRun();

private:
    ScratchSession() = default;
    std::filesystem::path path_;
    std::unique_ptr<SessionWriter> writer_;
};

} // namespace mvp
