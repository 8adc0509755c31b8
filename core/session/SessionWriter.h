#pragma once
// The one writer of a session file. Rows are handed over in Batches and stored
// by a background thread with prepared statements, in transactions committed
// at least every second (WAL journal), so a crash loses at most the last second
// and the file stays readable. Thread-safe: any thread may submit.

#include "core/Result.h"
#include "core/session/Records.h"

#include <future>
#include <memory>
#include <string>

namespace mvp {

class SessionWriter {
public:
    enum class Mode {
        CreateNew, // fail if the file exists
        Overwrite, // replace an existing file
        Append,    // add runs to an existing session
    };

    static Result<std::unique_ptr<SessionWriter>> open(const std::string& path, Mode mode);
    // The checks open() makes before touching anything (file exists without
    // --force, folder missing or read-only), so slow work can wait for them.
    static Status checkTarget(const std::string& path, Mode mode);
    ~SessionWriter(); // closes (see close())

    // Inserts the run row with status 'live' and commits before returning.
    Result<int64_t> beginRun(const RunInfo& info);
    // Queues rows; returns at once. Errors surface in flush()/endRun().
    void submit(Batch&& batch);
    // Blocks until everything submitted so far is committed.
    Status flush();
    // flush() without blocking: the writer starts at once, and the future is
    // ready once everything submitted before the call is committed. A
    // producer keeps its queue bounded by waiting on it a few batches later,
    // working on while the writer writes.
    std::future<Status> flushLater();
    // Flushes, then records the run's outcome.
    Status endRun(int64_t run, const RunResult& result);
    // Flushes, checkpoints the WAL into the main file and leaves a single file.
    Status close();

    const std::string& path() const;
    // Op records travel to the writer in buffers of this many (Batch::opRecords).
    static constexpr size_t kRecordBufferRows = 8192;
    // An empty op-record buffer of that capacity, one the writer has finished
    // with or prepared (its memory mapped and touched), for the capture to
    // fill; an empty vector when none is ready.
    std::vector<OpRecord> spareRecords();
    // Has the writer's thread ready a few record buffers, so that a capture
    // starting now does not fault their pages in on the model's thread (about
    // 1 µs a page, 40 ns an op). Returns at once.
    void prepareRecordBuffers();

    // Rows committed so far (for progress and benchmarks).
    int64_t rowsWritten() const;

private:
    struct Impl;
    explicit SessionWriter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

const char* appVersion();

// Removes a session file and its SQLite companions (-wal, -shm, -journal);
// what is not there is no error.
void removeSessionFiles(const std::string& path);

} // namespace mvp
