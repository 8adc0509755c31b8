#include "core/session/SessionReader.h"

#include "core/session/ModuleRoles.h"
#include "core/session/OpStore.h"
#include "core/session/ReaderImpl.h"
#include "core/session/RowChecks.h"
#include "core/session/Schema.h"
#include "core/session/SpanStore.h"
#include "core/session/Sqlite.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sqlite3.h>
#include <type_traits>
#include <unistd.h>

namespace mvp {

using reader::checked;
using reader::optInt;
using reader::smallInt;

std::string hostName() {
    std::array<char, 256> buf{};
    if (gethostname(buf.data(), buf.size() - 1) != 0) return "unknown";
    return buf.data();
}

bool processAlive(int64_t pid, const std::string& host) {
    if (pid <= 0 || host != hostName()) return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

namespace {

uint32_t bigEndian(const unsigned char* p, int n) {
    uint32_t v = 0;
    for (int i = 0; i < n; ++i)
        v = (v << 8) | p[i];
    return v;
}

// Checks what can be checked before SQLite sees the file, so that the common
// mistakes (wrong file, empty file, cut-off copy) get a precise message.
Status checkFile(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec))
        return makeError(ErrorCode::NotFound, path + " does not exist: check the path");
    if (fs::is_directory(path, ec))
        return makeError(ErrorCode::BadInput, path + " is a folder, not a session file");
    const auto size = fs::file_size(path, ec);
    if (ec) return makeError(ErrorCode::Io, "cannot read " + path + ": " + ec.message());
    if (size == 0)
        return makeError(ErrorCode::NotASession,
                         path + " is empty (0 bytes): it is not an mvprof session");
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::Io, "cannot read " + path + ": permission denied?");
    std::array<unsigned char, 100> h{};
    in.read(reinterpret_cast<char*>(h.data()), h.size());
    if (in.gcount() < 100 || std::memcmp(h.data(), "SQLite format 3", 16) != 0)
        return makeError(ErrorCode::NotASession,
                         path + " is not an mvprof session (it is not an SQLite file)");
    uint64_t pageSize = bigEndian(&h[16], 2);
    if (pageSize == 1) pageSize = 65536;
    const uint32_t pages = bigEndian(&h[28], 4);
    const bool countValid = bigEndian(&h[24], 4) == bigEndian(&h[92], 4);
    // With a WAL beside it the main file may legitimately lag behind.
    if (countValid && !fs::exists(path + "-wal", ec) && uint64_t(pages) * pageSize > size)
        return makeError(ErrorCode::NotASession, path + " is truncated (" + std::to_string(size) +
                                                     " of " +
                                                     std::to_string(uint64_t(pages) * pageSize) +
                                                     " bytes): copy it again from its source");
    return Ok{};
}

RunInfo readRun(const sql::Stmt& s) {
    RunInfo r;
    int c = 0;
    r.id = s.int64(c++);
    r.label = s.text(c++);
    r.model = s.text(c++);
    r.configJson = s.text(c++);
    r.prompt = s.text(c++);
    r.imagePath = s.text(c++);
    r.steps = s.int32((c++));
    r.device = s.text(c++);
    r.dtype = s.text(c++);
    r.blas = s.text(c++);
    r.threads = s.int32((c++));
    r.probes = s.int64(c++) != 0;
    r.transform = s.text(c++);
    if (!s.isNull(c)) r.baselineRun = s.int64(c);
    ++c;
    r.writerPid = s.int64(c++);
    r.writerHost = s.text(c++);
    r.startedUtc = s.text(c++);
    r.status = runStatusFromString(s.text(c++)).value_or(RunStatus::Failed);
    r.error = s.text(c++);
    r.wallNs = s.int64(c++);
    r.peakRssBytes = s.int64(c++);
    r.outputText = s.text(c++);
    if (r.status == RunStatus::Live && !processAlive(r.writerPid, r.writerHost))
        r.status = RunStatus::Incomplete;
    return r;
}

constexpr const char* kRunColumns =
    "SELECT id, label, model, config_json, prompt, image_path, steps, device, dtype, blas,"
    " threads, probes, transform, baseline_run, writer_pid, writer_host, started_utc, status,"
    " error, wall_ns, peak_rss_bytes, output_text FROM run";

} // namespace

SessionReader::SessionReader(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}
SessionReader::~SessionReader() = default;

Result<std::unique_ptr<SessionReader>> SessionReader::open(const std::string& path) {
    if (auto s = checkFile(path); !s) return s.error();
    // One connection per reader, used by one thread at a time: no per-call mutex.
    auto db = sql::Db::open(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
    if (!db) return db.error();
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->db = std::move(db.value());
    sqlite3* h = impl->db.handle();
    // A session may come from anyone: never run SQL functions stored in it.
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);

    auto version = impl->db.queryInt("PRAGMA user_version");
    if (!version) return version.error();
    auto format = impl->db.queryText("SELECT value FROM meta WHERE key='format'");
    if (!format || !format.value() || **format != schema::kFormatName)
        return makeError(ErrorCode::NotASession,
                         path + " is an SQLite database but not an mvprof session");
    impl->version = int(version->value_or(0));
    if (impl->version > schema::kVersion)
        return makeError(ErrorCode::NewerSchema,
                         path + " was written by a newer mvprof (session format v" +
                             std::to_string(impl->version) + "; this build reads up to v" +
                             std::to_string(schema::kVersion) + "): update mvprof to open it");
    if (impl->version < 1)
        return makeError(ErrorCode::NotASession, path + " has no session format version");
    return std::unique_ptr<SessionReader>(new SessionReader(std::move(impl)));
}

const std::string& SessionReader::path() const {
    return d->path;
}
int SessionReader::schemaVersion() const {
    return d->version;
}

Result<std::vector<RunInfo>> SessionReader::runs() {
    auto st = d->db.prepare(std::string(kRunColumns) + " ORDER BY id");
    if (!st) return st.error();
    std::vector<RunInfo> out;
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) break;
        out.push_back(readRun(st.value()));
        if (auto ok = rowcheck::runInfo(out.back()); !ok) return ok.error();
    }
    return out;
}

Result<RunInfo> SessionReader::run(int64_t id) {
    auto st = d->db.prepare(std::string(kRunColumns) + " WHERE id=?");
    if (!st) return st.error();
    st->bind(1, id);
    auto has = st->step();
    if (!has) return has.error();
    if (!*has)
        return makeError(ErrorCode::NotFound, "run " + std::to_string(id) + " is not in " +
                                                  d->path + ": `mvprof-cli report` lists the runs");
    auto info = readRun(st.value());
    if (auto ok = rowcheck::runInfo(info); !ok) return ok.error();
    return info;
}

Result<std::vector<ModuleRow>> SessionReader::modules(int64_t run) {
    const bool hasRoles = d->version >= 3; // before v3 roles are inferred from kind and path
    auto rows = d->query<ModuleRow>(
        hasRoles ? "SELECT id, path, kind, parent, params, role, layer, expert FROM module"
                   " WHERE run=? ORDER BY id"
                 : "SELECT id, path, kind, parent, params FROM module WHERE run=? ORDER BY id",
        run, [hasRoles](const sql::Stmt& s) {
            ModuleRow m{s.int64(0), s.text(1), s.text(2), optInt(s, 3), s.int64(4)};
            if (!hasRoles) {
                inferLegacyRole(m);
                return m;
            }
            // An unknown role (a damaged or newer file) is no role.
            m.role = moduleRoleFromString(s.text(5)).value_or(ModuleRole::None);
            m.layer = smallInt(s, 6);
            m.expert = smallInt(s, 7);
            return m;
        });
    return checked(std::move(rows), [&](const auto& r) { return rowcheck::modules(run, r); });
}

Result<std::vector<PhaseRow>> SessionReader::phases(int64_t run) {
    return checked(
        d->query<PhaseRow>(
            "SELECT phase, step, start_ns, end_ns FROM phase WHERE run=? ORDER BY start_ns", run,
            [&](const sql::Stmt& s) -> Result<PhaseRow> {
                auto phase = reader::phaseAt(s, 0, run, "a phase row");
                if (!phase) return phase.error();
                return PhaseRow{*phase, s.int32(1), s.int64(2), s.int64(3)};
            }),
        [&](const auto& rows) { return rowcheck::phases(run, rows); });
}

Result<std::vector<SpanRow>> SessionReader::spans(int64_t run) {
    auto rows = d->version >= 11 ? readSpanChunks(d->db, run) : spanTable(run);
    return checked(std::move(rows), [&](const auto& r) { return rowcheck::spans(run, r); });
}

// v1–v10: a row of the span table per span.
Result<std::vector<SpanRow>> SessionReader::spanTable(int64_t run) {
    // One allocation for a million rows rather than twenty growing ones.
    auto count = d->query<int64_t>("SELECT COUNT(*) FROM span WHERE run=?", run,
                                   [](const sql::Stmt& s) { return s.int64(0); });
    if (!count) return count.error();
    // Before v3 FLOPs without a formula were stored as 0: read those as unknown.
    const std::string sqlText =
        std::string("SELECT id, module, parent, phase, step, start_ns, end_ns, device_ns, flops, "
                    "bytes, ") +
        (d->version >= 3 ? "flops_known" : "(flops != 0)") + " FROM span WHERE run=? ORDER BY id";
    return d->query<SpanRow>(
        sqlText.c_str(), run,
        [&](const sql::Stmt& s) -> Result<SpanRow> {
            auto phase = reader::phaseAt(s, 3, run, "span " + std::to_string(s.int64(0)));
            if (!phase) return phase.error();
            SpanRow r{s.int64(0), s.int64(1), optInt(s, 2), *phase,     s.int32(4),
                      s.int64(5), s.int64(6), optInt(s, 7), s.int64(8), s.int64(9)};
            r.flopsKnown = s.int64(10) != 0;
            return r;
        },
        nullptr, count->empty() ? 0 : size_t(std::clamp<int64_t>(count->front(), 0, 1 << 24)));
}

namespace {
// Before v3 an op without a formula was stored with 0 FLOPs: read those as unknown.
const char* opFlopsKnown(int version) {
    return version >= 3 ? "flops_known" : "(flops != 0)";
}
} // namespace

Result<std::vector<OpRow>> SessionReader::ops(int64_t run) {
    if (d->version >= 5) return readOpChunks(d->db, run);
    const std::string sqlText =
        std::string("SELECT id, span, parent_op, name, phase, step, start_ns, end_ns, shapes, "
                    "dtype, flops, bytes, ") +
        opFlopsKnown(d->version) + " FROM op WHERE run=? ORDER BY id";
    return d->query<OpRow>(sqlText.c_str(), run, [&](const sql::Stmt& s) -> Result<OpRow> {
        auto phase = reader::phaseAt(s, 4, run, "op " + std::to_string(s.int64(0)));
        if (!phase) return phase.error();
        OpRow r{s.int64(0), optInt(s, 1), optInt(s, 2), s.text(3), *phase,      s.int32(5),
                s.int64(6), s.int64(7),   s.text(8),    s.text(9), s.int64(10), s.int64(11)};
        r.flopsKnown = s.int64(12) != 0;
        return r;
    });
}

Status SessionReader::forEachOp(int64_t run, const std::function<Status(OpRow&&)>& visit) {
    if (d->version >= 5) return visitOpChunks(d->db, run, visit);
    auto rows = ops(run); // before v5: one row per op, small sessions
    if (!rows) return rows.error();
    for (auto& r : *rows)
        if (auto s = visit(std::move(r)); !s) return s;
    return Ok{};
}

Result<std::vector<OpTotal>> SessionReader::opTotals(int64_t run) {
    return checked(readOpTotals(run), [&](const auto& r) { return rowcheck::opTotals(run, r); });
}

Result<std::vector<OpTotal>> SessionReader::readOpTotals(int64_t run) {
    auto row = [&](const sql::Stmt& s) -> Result<OpTotal> {
        auto phase = reader::phaseAt(s, 0, run, "op_total " + s.text(1));
        if (!phase) return phase.error();
        return OpTotal{*phase,     s.text(1),  s.int64(2), s.int64(3),
                       s.int64(4), s.int64(5), s.int64(6)};
    };
    // A completed v3 run has its totals stored; a live or killed one, or an
    // older file (whose totals have no phase), is summed here.
    if (d->version >= 3) {
        auto stored = d->query<OpTotal>("SELECT phase, name, calls, flops, bytes, ns, known_ns"
                                        " FROM op_total WHERE run=? ORDER BY phase, name",
                                        run, row);
        if (!stored) return stored.error();
        if (!stored->empty()) return stored;
    }
    if (d->version >= 5) return sumOpChunks(d->db, run);
    const std::string sqlText =
        std::string("SELECT phase, name, COUNT(*), SUM(flops), SUM(bytes), SUM(end_ns - start_ns),"
                    " SUM(CASE WHEN ") +
        opFlopsKnown(d->version) +
        " THEN end_ns - start_ns ELSE 0 END) FROM op WHERE run=? AND parent_op IS NULL"
        " GROUP BY phase, name ORDER BY phase, name";
    return d->query<OpTotal>(sqlText.c_str(), run, row);
}

Result<std::vector<LeafFlopsRow>> SessionReader::leafFlops(int64_t run) {
    if (d->version < 3) return std::vector<LeafFlopsRow>(); // not recorded before v3
    return checked(
        d->query<LeafFlopsRow>(
            "SELECT phase, name, calls, flops FROM leaf_flops WHERE run=? ORDER BY phase, name",
            run,
            [&](const sql::Stmt& s) -> Result<LeafFlopsRow> {
                auto phase = reader::phaseAt(s, 0, run, "leaf_flops " + s.text(1));
                if (!phase) return phase.error();
                return LeafFlopsRow{*phase, s.text(1), s.int64(2), s.int64(3)};
            }),
        [&](const auto& r) { return rowcheck::leafFlops(run, r); });
}

Result<int64_t> SessionReader::opCount(int64_t run) {
    if (d->version >= 5) return countOpChunks(d->db, run);
    auto n = d->query<int64_t>("SELECT COUNT(*) FROM op WHERE run=?", run,
                               [](const sql::Stmt& s) { return s.int64(0); });
    if (!n) return n.error();
    return n->empty() ? int64_t(0) : n->front();
}

} // namespace mvp
