#include "capture/run/ScratchSession.h"

#include <atomic>
#include <string>
#include <unistd.h>

namespace mvp {

Result<std::unique_ptr<ScratchSession>> ScratchSession::open() {
    // One process may hold several at once (an eval's baseline and what-if models).
    static std::atomic<int> serial{0};
    auto s = std::unique_ptr<ScratchSession>(new ScratchSession);
    s->path_ = std::filesystem::temp_directory_path() /
               ("mvprof-scratch-" + std::to_string(::getpid()) + "-" +
                std::to_string(serial++) + ".mvprof");
    auto writer = SessionWriter::open(s->path_.string(), SessionWriter::Mode::Overwrite);
    if (!writer) return writer.error();
    s->writer_ = std::move(writer.value());
    return s;
}

ScratchSession::~ScratchSession() {
    if (writer_) (void)writer_->close();
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path_.string() + suffix, ignored);
}

Result<int64_t> ScratchSession::newRun() {
    return writer_->beginRun(RunInfo{});
}

} // namespace mvp
