#include "core/session/SessionWriter.h"

#include "core/Utf8.h"
#include "core/session/ActivityStore.h"
#include "core/session/OpStore.h"
#include "core/session/PatchValues.h"
#include "core/session/RoutingStore.h"
#include "core/session/RowBinding.h"
#include "core/session/Schema.h"
#include "core/session/SpanStore.h"
#include "core/session/Sqlite.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace mvp {

const char* appVersion() {
    return MVP_VERSION;
}

namespace {
// The writer commits whatever is queued at most this long after it arrives.
constexpr auto kCommitInterval = std::chrono::milliseconds(250);
// Rows queued before a submit wakes the writer early. Below it, rows wait
// for the commit interval: a capture hands over small batches (routing per
// layer and step) whose one-by-one transactions would compete with the model
// for the CPU on a small machine.
constexpr size_t kWakeRows = 65536;
// Record buffers in circulation (ready, or lent to a capture and not yet
// written): the capture fills kWakeRows' worth before the writer wakes and
// hands them back, and a few more meanwhile. A fixed pool: once it exists, a
// capture neither faults pages in nor has the writer unmap any (an unmap
// interrupts the model's core to flush its TLB).
constexpr size_t kPoolBuffers = kWakeRows / SessionWriter::kRecordBufferRows + 4;

struct Job {
    std::optional<Batch> batch;
    std::function<Status()> fn;                 // runs inside the transaction
    std::shared_ptr<std::promise<Status>> done; // fulfilled after the commit
};
} // namespace

using rowbind::insertEach;

struct SessionWriter::Impl {
    std::string path;
    sql::Db db;
    OpChunkWriter ops;
    RoutingChunkWriter routing;
    SpanChunkWriter spans;
    ActivityChunkWriter activities;
    sql::Stmt insModule, insPhase, insLeaf, insToken, insImage, insGrid, insMetric, insAttn,
        insDevice, insStep, insVision, insRunMetric, insRepetition, insEvalSet, insEvalItem,
        insEvalPhase, insEvalHeatmap, selMetric;

    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Job> queue;
    size_t queuedRows = 0;  // in queue's batches
    int queuedBarriers = 0; // jobs someone waits for: they wake the writer at once
    std::vector<std::vector<OpRecord>> spares; // emptied record buffers, for reuse
    size_t lent = 0;                           // handed out by spareRecords(), not back yet
    bool sparesWanted = false;                 // prepareRecordBuffers() asked for them
    bool stopping = false;
    std::optional<Error> failure; // sticky: the first write error
    std::atomic<int64_t> rows{0};
    std::thread thread;
    bool closed = false;

    Status prepareAll();
    Status apply(const Batch& b);
    Status writePatchMetrics(int64_t run, const std::vector<PatchMetricRow>& rows);
    Status insertEvalItems(int64_t run, const std::vector<EvalItemRow>& rows);
    void loop();
    Status waitFor(Job job);
    std::future<Status> barrier(Job job);
    void keepBuffers(std::deque<Job>& jobs);
    void fillSpares();
};

Status SessionWriter::Impl::prepareAll() {
    struct P {
        sql::Stmt* stmt;
        const char* text;
    };
    const P all[] = {
        {&insModule, "INSERT INTO module VALUES (?,?,?,?,?,?,?,?,?)"},
        {&insPhase, "INSERT OR REPLACE INTO phase VALUES (?,?,?,?,?)"},
        {&insLeaf, "INSERT OR REPLACE INTO leaf_flops VALUES (?,?,?,?,?)"},
        {&insToken, "INSERT INTO token VALUES (?,?,?,?,?,?,?)"},
        {&insStep, "INSERT OR REPLACE INTO step_output VALUES (?,?,?,?)"},
        {&insVision, "INSERT OR REPLACE INTO vision_feature VALUES (?,?,?,?)"},
        {&insRunMetric, "INSERT OR REPLACE INTO run_metric VALUES (?,?,?,?,?,?)"},
        {&insRepetition, "INSERT OR REPLACE INTO repetition VALUES (?,?,?,?,?,?)"},
        {&insImage, "INSERT OR REPLACE INTO image VALUES (?,?,?,?,?,?,?)"},
        {&insGrid, "INSERT OR REPLACE INTO patch_grid VALUES (?,?,?,?,?,?)"},
        {&insMetric, kInsertPatchMatrix},
        {&selMetric, kSelectPatchMatrix},
        {&insAttn, "INSERT OR REPLACE INTO attn_map VALUES (?,?,?,?,?,?)"},
        {&insDevice, "INSERT OR REPLACE INTO device VALUES (?,?,?,?,?,?,?)"},
        {&insEvalSet, "INSERT OR REPLACE INTO eval_set VALUES (?,?,?,?)"},
        {&insEvalItem, "INSERT OR REPLACE INTO eval_item VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"},
        {&insEvalPhase, "INSERT OR REPLACE INTO eval_item_phase VALUES (?,?,?,?)"},
        {&insEvalHeatmap, "INSERT OR REPLACE INTO eval_item_heatmap VALUES (?,?,?,?,?,?)"},
    };
    for (const auto& p : all) {
        auto s = db.prepare(p.text);
        if (!s) return s.error();
        *p.stmt = std::move(s.value());
    }
    if (auto s = routing.open(db); !s) return s;
    if (auto s = spans.open(db); !s) return s;
    if (auto s = ops.open(db); !s) return s;
    return activities.open(db, ops);
}

// Per metric: the stored matrix, its patches set from the rows (a later row
// for a patch replaces an earlier one, as each row did before v9: a live
// heatmap's rows are written again at the run's end), stored back.
Status SessionWriter::Impl::writePatchMetrics(int64_t run,
                                              const std::vector<PatchMetricRow>& rows) {
    std::map<std::string, std::map<int, std::vector<const PatchMetricRow*>>> byMetric;
    for (const auto& r : rows)
        byMetric[r.metric][r.layer].push_back(&r);
    for (const auto& [metric, byLayer] : byMetric) {
        auto layers = readPatchMatrix(selMetric, run, metric);
        if (!layers) return layers.error();
        for (const auto& [layer, members] : byLayer)
            if (auto s = setPatchValues((*layers)[layer], members); !s) return s;
        if (auto s = writePatchMatrix(insMetric, run, metric, *layers); !s) return s;
    }
    return Ok{};
}

// An item's row, then its phase times and its heatmap.
Status SessionWriter::Impl::insertEvalItems(int64_t run, const std::vector<EvalItemRow>& rows) {
    if (auto s = insertEach(insEvalItem, run, rows); !s) return s;
    for (const auto& e : rows) {
        for (const auto& t : e.times) {
            sql::Stmt& s = insEvalPhase;
            s.bind(1, run), s.bind(2, e.item), s.bind(3, t.phase), s.bind(4, t.ns);
            if (auto st = s.exec(); !st) return st;
        }
        if (!e.heatmap) continue;
        const EvalItemHeatmap& h = *e.heatmap;
        sql::Stmt& s = insEvalHeatmap;
        s.bind(1, run), s.bind(2, e.item), s.bind(3, h.image), s.bind(4, h.gridH),
            s.bind(5, h.gridW);
        s.bindBlob(6, h.answerAttention.data(), h.answerAttention.size() * sizeof(float));
        if (auto st = s.exec(); !st) return st;
    }
    return Ok{};
}

// One statement per row kind, bound in column order (see Schema.cpp).
Status SessionWriter::Impl::apply(const Batch& b) {
    const int64_t run = b.run;
    if (auto s = insertEach(insModule, run, b.modules); !s) return s;
    if (auto s = insertEach(insPhase, run, b.phases); !s) return s;
    if (auto s = spans.write(run, b.spans); !s) return s;
    if (auto s = ops.write(run, b.ops); !s) return s;
    if (auto s = ops.write(run, b.opRecords); !s) return s;
    if (auto s = insertEach(insLeaf, run, b.leafFlops); !s) return s;
    if (auto s = insertEach(insToken, run, b.tokens); !s) return s;
    if (auto s = routing.write(run, b.routing); !s) return s;
    if (auto s = insertEach(insImage, run, b.image); !s) return s;
    if (auto s = insertEach(insGrid, run, b.patchGrid); !s) return s;
    if (auto s = insertEach(insStep, run, b.stepOutputs); !s) return s;
    if (auto s = insertEach(insRunMetric, run, b.runMetrics); !s) return s;
    if (auto s = insertEach(insRepetition, run, b.repetitions); !s) return s;
    if (auto s = insertEach(insVision, run, b.visionFeatures); !s) return s;
    if (auto s = insertEach(insDevice, run, b.device); !s) return s;
    if (auto s = writePatchMetrics(run, b.patchMetrics); !s) return s;
    if (auto s = insertEach(insAttn, run, b.attnMaps); !s) return s;
    if (auto s = activities.write(run, b.activities); !s) return s;
    if (auto s = insertEach(insEvalSet, run, b.evalSet); !s) return s;
    if (auto s = insertEvalItems(run, b.evalItems); !s) return s;
    rows += int64_t(b.rowCount());
    return Ok{};
}

// Drains the queue into one transaction per wake-up, so commits happen at
// least every kCommitInterval while rows arrive, and barriers are released
// only once their rows are durable.
void SessionWriter::Impl::loop() {
    for (;;) {
        std::deque<Job> jobs;
        bool prepare = false;
        {
            std::unique_lock lock(mutex);
            wake.wait_for(lock, kCommitInterval, [&] {
                return stopping || queuedBarriers > 0 || queuedRows >= kWakeRows || sparesWanted;
            });
            if (queue.empty() && stopping) return;
            jobs.swap(queue);
            queuedRows = 0;
            queuedBarriers = 0;
            prepare = std::exchange(sparesWanted, false);
        }
        if (prepare) fillSpares();
        if (jobs.empty()) continue;

        std::optional<Error> err;
        {
            std::lock_guard lock(mutex);
            err = failure;
        }
        if (!err) {
            Status s = db.exec("BEGIN");
            for (auto& job : jobs) {
                if (!s) break;
                if (job.batch) s = apply(*job.batch);
                if (s && job.fn) s = job.fn();
            }
            if (s) s = db.exec("COMMIT");
            if (!s) {
                (void)db.exec("ROLLBACK");
                err = s.error();
                std::lock_guard lock(mutex);
                failure = err;
            }
        }
        for (auto& job : jobs)
            if (job.done) job.done->set_value(err ? Status(*err) : Status(Ok{}));
        keepBuffers(jobs);
    }
}

// A batch's records are 1.5 MB: handing the buffers back spares the capture
// thread an allocation and a page fault per few records. A buffer the pool
// did not lend (a capture that ran out, another writer's rows) joins it while
// there is room.
void SessionWriter::Impl::keepBuffers(std::deque<Job>& jobs) {
    for (auto& job : jobs) {
        if (!job.batch || job.batch->opRecords.capacity() == 0) continue;
        job.batch->opRecords.clear();
        std::lock_guard lock(mutex);
        if (lent > 0) --lent;
        if (spares.size() + lent < kPoolBuffers) spares.push_back(std::move(job.batch->opRecords));
    }
}

// Constructing a buffer's records touches every page of it, here rather than
// on the model's thread. Buffers lent out count: they come back.
void SessionWriter::Impl::fillSpares() {
    for (;;) {
        {
            std::lock_guard lock(mutex);
            if (spares.size() + lent >= kPoolBuffers) return;
        }
        std::vector<OpRecord> buffer(kRecordBufferRows);
        buffer.clear();
        std::lock_guard lock(mutex);
        spares.push_back(std::move(buffer));
    }
}

// Queues `job` and wakes the writer at once; the future is ready after the
// commit that holds it.
std::future<Status> SessionWriter::Impl::barrier(Job job) {
    job.done = std::make_shared<std::promise<Status>>();
    auto future = job.done->get_future();
    {
        std::lock_guard lock(mutex);
        if (stopping) {
            job.done->set_value(makeError(ErrorCode::Internal, "the session writer is closed"));
            return future;
        }
        queue.push_back(std::move(job));
        ++queuedBarriers;
    }
    wake.notify_one();
    return future;
}

Status SessionWriter::Impl::waitFor(Job job) {
    return barrier(std::move(job)).get();
}

SessionWriter::SessionWriter(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}

SessionWriter::~SessionWriter() {
    (void)close();
}

Status SessionWriter::checkTarget(const std::string& path, Mode mode) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    if (exists && mode == Mode::CreateNew)
        return makeError(ErrorCode::BadInput,
                         path +
                             " already exists: choose another name or pass --force to replace it");
    if (!exists && mode == Mode::Append)
        return makeError(ErrorCode::NotFound, path + " does not exist: check the path");
    const fs::path parent = fs::absolute(fs::path(path), ec).parent_path();
    if (!fs::is_directory(parent, ec))
        return makeError(ErrorCode::Io, "cannot write " + path + ": the folder " + parent.string() +
                                            " does not exist");
    if (::access(parent.c_str(), W_OK) != 0)
        return makeError(ErrorCode::Io, "cannot write " + path + ": the folder " + parent.string() +
                                            " is not writable");
    return Ok{};
}

void removeSessionFiles(const std::string& path) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(path + suffix, ec);
}

Result<std::unique_ptr<SessionWriter>> SessionWriter::open(const std::string& path, Mode mode) {
    namespace fs = std::filesystem;
    if (auto s = checkTarget(path, mode); !s) return s.error();
    std::error_code ec;
    if (mode == Mode::Overwrite && fs::exists(path, ec)) {
        removeSessionFiles(path);
        if (fs::exists(path, ec))
            return makeError(ErrorCode::Io, "cannot replace " + path + ": " + ec.message());
    }

    auto impl = std::make_unique<Impl>();
    impl->path = path;
    // The connection is used by the writer thread alone: no per-call mutex.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                      (mode == Mode::Append ? 0 : SQLITE_OPEN_CREATE);
    auto db = sql::Db::open(path, flags);
    if (!db) return db.error();
    impl->db = std::move(db.value());
    auto& d = impl->db;

    if (auto s = d.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"); !s)
        return s.error();
    if (mode == Mode::Append) {
        auto version = d.queryInt("PRAGMA user_version");
        if (!version) return version.error();
        const int v = int(version->value_or(0));
        if (v > schema::kVersion)
            return makeError(ErrorCode::NewerSchema,
                             path + " was written by a newer mvprof (format v" + std::to_string(v) +
                                 "); update mvprof to add runs to it");
        auto format = d.queryText("SELECT value FROM meta WHERE key='format'");
        if (!format || !format.value() || **format != schema::kFormatName)
            return makeError(ErrorCode::NotASession, path + " is not an mvprof session");
        if (auto s = schema::migrate(d, v); !s) return s.error();
    } else {
        if (auto s = d.exec("BEGIN"); !s) return s.error();
        if (auto s = schema::create(d, appVersion()); !s) return s.error();
        if (auto s = d.exec("COMMIT"); !s) return s.error();
    }
    if (auto s = impl->prepareAll(); !s) return s.error();

    Impl* raw = impl.get();
    impl->thread = std::thread([raw] { raw->loop(); });
    return std::unique_ptr<SessionWriter>(new SessionWriter(std::move(impl)));
}

Result<int64_t> SessionWriter::beginRun(const RunInfo& r) {
    int64_t id = 0;
    Job job;
    job.fn = [this, &r, &id]() -> Status {
        auto st = d->db.prepare(
            "INSERT INTO run(label, model, config_json, prompt, image_path, steps, device, dtype,"
            " blas, threads, probes, transform, baseline_run, writer_pid, writer_host, started_utc,"
            " status) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'live')");
        if (!st) return st.error();
        auto& s = st.value();
        s.bind(1, r.label), s.bind(2, r.model), s.bind(3, r.configJson), s.bind(4, r.prompt),
            s.bind(5, r.imagePath), s.bind(6, r.steps), s.bind(7, r.device), s.bind(8, r.dtype),
            s.bind(9, r.blas), s.bind(10, r.threads), s.bind(11, int64_t(r.probes)),
            s.bind(12, r.transform), s.bind(13, r.baselineRun), s.bind(14, r.writerPid),
            s.bind(15, r.writerHost), s.bind(16, r.startedUtc);
        if (auto e = s.exec(); !e) return e;
        id = sqlite3_last_insert_rowid(d->db.handle());
        return Ok{};
    };
    if (auto s = d->waitFor(std::move(job)); !s) return s.error();
    return id;
}

void SessionWriter::submit(Batch&& batch) {
    const size_t rows = batch.rowCount();
    if (rows == 0) return;
    bool wakeNow = false;
    {
        std::lock_guard lock(d->mutex);
        if (d->stopping) return;
        d->queue.push_back(Job{std::move(batch), {}, nullptr});
        d->queuedRows += rows;
        wakeNow = d->queuedRows >= kWakeRows;
    }
    if (wakeNow) d->wake.notify_one();
}

Status SessionWriter::flush() {
    return d->waitFor(Job{});
}

std::future<Status> SessionWriter::flushLater() {
    return d->barrier(Job{});
}

Status SessionWriter::endRun(int64_t run, const RunResult& r) {
    Job job;
    job.fn = [this, run, &r]() -> Status {
        auto st = d->db.prepare("UPDATE run SET status=?, error=?, wall_ns=?, peak_rss_bytes=?,"
                                " output_text=?, steps=COALESCE(?, steps) WHERE id=?");
        if (!st) return st.error();
        auto& s = st.value();
        s.bind(1, toString(r.status)), s.bind(2, r.error), s.bind(3, r.wallNs),
            s.bind(4, r.peakRssBytes), s.bind(5, validUtf8(r.outputText));
        s.bind(6, r.steps), s.bind(7, run);
        if (auto e = s.exec(); !e) return e;
        // Readers get the per-op totals without decoding a million op rows.
        return d->ops.writeTotals(run);
    };
    return d->waitFor(std::move(job));
}

Status SessionWriter::close() {
    if (d->closed) return Ok{};
    {
        std::lock_guard lock(d->mutex);
        d->stopping = true;
    }
    d->wake.notify_one();
    if (d->thread.joinable()) d->thread.join();
    d->closed = true;
    if (d->failure) return *d->failure;
    // A finished session is one self-contained file that can be copied or mailed.
    // A reader still attached (the GUI following a live capture) keeps the WAL
    // alive; that is harmless, so failure here is not an error.
    (void)d->db.exec("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;");
    return Ok{};
}

const std::string& SessionWriter::path() const {
    return d->path;
}

std::vector<OpRecord> SessionWriter::spareRecords() {
    std::lock_guard lock(d->mutex);
    if (d->spares.empty()) return {};
    auto out = std::move(d->spares.back());
    d->spares.pop_back();
    ++d->lent;
    return out;
}

void SessionWriter::prepareRecordBuffers() {
    {
        std::lock_guard lock(d->mutex);
        if (d->stopping || d->spares.size() + d->lent >= kPoolBuffers) return;
        d->sparesWanted = true;
    }
    d->wake.notify_one();
}

int64_t SessionWriter::rowsWritten() const {
    return d->rows.load();
}

} // namespace mvp
