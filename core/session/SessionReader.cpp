#include "core/session/SessionReader.h"

#include "core/session/ModuleRoles.h"
#include "core/session/OpStore.h"
#include "core/session/RowChecks.h"
#include "core/session/Schema.h"
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
    r.steps = int(s.int64(c++));
    r.device = s.text(c++);
    r.dtype = s.text(c++);
    r.blas = s.text(c++);
    r.threads = int(s.int64(c++));
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

std::optional<int64_t> optInt(const sql::Stmt& s, int col) {
    return s.isNull(col) ? std::nullopt : std::optional<int64_t>(s.int64(col));
}

// A layer or expert index: NULL, or a value outside 0..2^20 (a damaged file), is none.
std::optional<int> smallInt(const sql::Stmt& s, int col) {
    const auto v = optInt(s, col);
    if (!v || *v < 0 || *v > (1 << 20)) return std::nullopt;
    return int(*v);
}

} // namespace

namespace {
// Rows read, then checked for content a damaged file could hold (RowChecks.h).
template <typename T, typename Check> Result<T> checked(Result<T> rows, Check check) {
    if (!rows) return rows;
    if (auto s = check(*rows); !s) return s.error();
    return rows;
}
} // namespace

struct SessionReader::Impl {
    std::string path;
    sql::Db db;
    int version = 0;

    // Runs `sqlText` with the run id bound to ?1 (and `second`, if any, to ?2)
    // and maps each row with `fn`.
    template <typename T, typename F, typename Second = std::nullptr_t>
    Result<std::vector<T>> query(const char* sqlText, int64_t run, F fn, Second second = nullptr,
                                 size_t reserve = 0) {
        auto st = db.prepare(sqlText);
        if (!st) return st.error();
        st->bind(1, run);
        if constexpr (!std::is_same_v<Second, std::nullptr_t>) st->bind(2, second);
        std::vector<T> out;
        if (reserve > 0) out.reserve(reserve);
        for (;;) {
            auto has = st->step();
            if (!has) return has.error();
            if (!*has) break;
            out.push_back(fn(st.value()));
        }
        return out;
    }
};

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
    return readRun(st.value());
}

Result<std::vector<ModuleRow>> SessionReader::modules(int64_t run) {
    if (d->version < 3)
        return d->query<ModuleRow>(
            "SELECT id, path, kind, parent, params FROM module WHERE run=? ORDER BY id", run,
            [](const sql::Stmt& s) {
                ModuleRow m{s.int64(0), s.text(1), s.text(2), optInt(s, 3), s.int64(4)};
                inferLegacyRole(m);
                return m;
            });
    return d->query<ModuleRow>(
        "SELECT id, path, kind, parent, params, role, layer, expert FROM module WHERE run=?"
        " ORDER BY id",
        run, [](const sql::Stmt& s) {
            ModuleRow m{s.int64(0), s.text(1), s.text(2), optInt(s, 3), s.int64(4)};
            // An unknown role (a damaged or newer file) is no role.
            m.role = moduleRoleFromString(s.text(5)).value_or(ModuleRole::None);
            m.layer = smallInt(s, 6);
            m.expert = smallInt(s, 7);
            return m;
        });
}

Result<std::vector<PhaseRow>> SessionReader::phases(int64_t run) {
    return checked(
        d->query<PhaseRow>(
            "SELECT phase, step, start_ns, end_ns FROM phase WHERE run=? ORDER BY start_ns", run,
            [](const sql::Stmt& s) {
                return PhaseRow{s.text(0), int(s.int64(1)), s.int64(2), s.int64(3)};
            }),
        [&](const auto& rows) { return rowcheck::phases(run, rows); });
}

Result<std::vector<SpanRow>> SessionReader::spans(int64_t run) {
    // One allocation for a million rows rather than twenty growing ones.
    auto count = d->query<int64_t>("SELECT COUNT(*) FROM span WHERE run=?", run,
                                   [](const sql::Stmt& s) { return s.int64(0); });
    if (!count) return count.error();
    // Before v3 FLOPs without a formula were stored as 0: read those as unknown.
    const std::string sqlText =
        std::string("SELECT id, module, parent, phase, step, start_ns, end_ns, device_ns, flops, "
                    "bytes, ") +
        (d->version >= 3 ? "flops_known" : "(flops != 0)") + " FROM span WHERE run=? ORDER BY id";
    auto rows = d->query<SpanRow>(
        sqlText.c_str(), run,
        [](const sql::Stmt& s) {
            SpanRow r{s.int64(0), s.int64(1), optInt(s, 2), s.text(3),  int(s.int64(4)),
                      s.int64(5), s.int64(6), optInt(s, 7), s.int64(8), s.int64(9)};
            r.flopsKnown = s.int64(10) != 0;
            return r;
        },
        nullptr, count->empty() ? 0 : size_t(std::clamp<int64_t>(count->front(), 0, 1 << 24)));
    return checked(std::move(rows), [&](const auto& r) { return rowcheck::spans(run, r); });
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
    return d->query<OpRow>(sqlText.c_str(), run, [](const sql::Stmt& s) {
        OpRow r{s.int64(0), optInt(s, 1), optInt(s, 2), s.text(3), s.text(4),   int(s.int64(5)),
                s.int64(6), s.int64(7),   s.text(8),    s.text(9), s.int64(10), s.int64(11)};
        r.flopsKnown = s.int64(12) != 0;
        return r;
    });
}

Result<std::vector<OpTotal>> SessionReader::opTotals(int64_t run) {
    auto row = [](const sql::Stmt& s) {
        return OpTotal{s.text(0),  s.text(1),  s.int64(2), s.int64(3),
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
    return d->query<LeafFlopsRow>(
        "SELECT phase, name, calls, flops FROM leaf_flops WHERE run=? ORDER BY phase, name", run,
        [](const sql::Stmt& s) {
            return LeafFlopsRow{s.text(0), s.text(1), s.int64(2), s.int64(3)};
        });
}

Result<int64_t> SessionReader::opCount(int64_t run) {
    if (d->version >= 5) return countOpChunks(d->db, run);
    auto n = d->query<int64_t>("SELECT COUNT(*) FROM op WHERE run=?", run,
                               [](const sql::Stmt& s) { return s.int64(0); });
    if (!n) return n.error();
    return n->empty() ? int64_t(0) : n->front();
}

Result<std::vector<TokenRow>> SessionReader::tokens(int64_t run) {
    return checked(
        d->query<TokenRow>("SELECT position, phase, step, modality, token_id, patch FROM token "
                           "WHERE run=? ORDER BY position",
                           run,
                           [](const sql::Stmt& s) {
                               return TokenRow{int(s.int64(0)), s.text(1),       int(s.int64(2)),
                                               s.text(3),       int(s.int64(4)), int(s.int64(5))};
                           }),
        [&](const auto& rows) { return rowcheck::tokens(run, rows); });
}

Result<std::vector<RoutingRow>> SessionReader::routing(int64_t run) {
    return checked(
        d->query<RoutingRow>(
            "SELECT layer, phase, step, token, modality, rank, expert, weight FROM routing"
            " WHERE run=? ORDER BY layer, token, rank",
            run,
            [](const sql::Stmt& s) {
                return RoutingRow{int(s.int64(0)), s.text(1), int(s.int64(2)),
                                  int(s.int64(3)), s.text(4), int(s.int64(5)),
                                  int(s.int64(6)), s.real(7)};
            }),
        [&](const auto& rows) { return rowcheck::routing(run, rows); });
}

Result<std::optional<ImageRow>> SessionReader::image(int64_t run) {
    auto rows = d->query<ImageRow>(
        "SELECT source_path, width, height, orig_width, orig_height, png FROM image WHERE run=?",
        run, [](const sql::Stmt& s) {
            return ImageRow{s.text(0),       int(s.int64(1)), int(s.int64(2)),
                            int(s.int64(3)), int(s.int64(4)), s.blob(5)};
        });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<ImageRow>();
    return std::optional<ImageRow>(std::move(rows->front()));
}

Result<std::optional<PatchGridRow>> SessionReader::patchGrid(int64_t run) {
    auto rows = d->query<PatchGridRow>(
        "SELECT grid_h, grid_w, patch, input_size, first_position FROM patch_grid WHERE run=?", run,
        [](const sql::Stmt& s) {
            return PatchGridRow{int(s.int64(0)), int(s.int64(1)), int(s.int64(2)), int(s.int64(3)),
                                int(s.int64(4))};
        });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<PatchGridRow>();
    if (auto ok = rowcheck::patchGrid(run, rows->front()); !ok) return ok.error();
    return std::optional<PatchGridRow>(rows->front());
}

Result<std::optional<DeviceRow>> SessionReader::device(int64_t run) {
    auto rows = d->query<DeviceRow>("SELECT name, peak_flops, peak_bytes_per_s, source, "
                                    "memory_total_bytes, memory_available_bytes"
                                    " FROM device WHERE run=?",
                                    run, [](const sql::Stmt& s) {
                                        return DeviceRow{s.text(0), s.real(1),  s.real(2),
                                                         s.text(3), s.int64(4), s.int64(5)};
                                    });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<DeviceRow>();
    return std::optional<DeviceRow>(rows->front());
}

namespace {
// A float32 blob of `count` values, or empty when the blob does not match (a damaged file).
std::vector<float> floats(const std::vector<uint8_t>& bytes, size_t count) {
    std::vector<float> out;
    if (bytes.size() != count * sizeof(float)) return out;
    out.resize(count);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}
} // namespace

Result<std::vector<StepOutputRow>> SessionReader::stepOutputs(int64_t run) {
    return checked(d->query<StepOutputRow>(
                       "SELECT step, token, logits FROM step_output WHERE run=? ORDER BY step", run,
                       [](const sql::Stmt& s) {
                           const auto bytes = s.blob(2);
                           return StepOutputRow{int(s.int64(0)), int(s.int64(1)),
                                                floats(bytes, bytes.size() / sizeof(float))};
                       }),
                   [&](const auto& rows) { return rowcheck::stepOutputs(run, rows); });
}

Result<std::vector<RunMetricRow>> SessionReader::runMetrics(int64_t run) {
    if (d->version < 2) return std::vector<RunMetricRow>(); // v1 had no run metrics
    return d->query<RunMetricRow>(
        "SELECT name, value, unit, kind, note FROM run_metric WHERE run=? ORDER BY name", run,
        [](const sql::Stmt& s) {
            return RunMetricRow{s.text(0), s.real(1), s.text(2), s.text(3), s.text(4)};
        });
}

Result<std::vector<RepetitionRow>> SessionReader::repetitions(int64_t run) {
    if (d->version < 4) return std::vector<RepetitionRow>(); // no A/B repetitions before v4
    auto rows = d->query<std::optional<RepetitionRow>>(
        "SELECT arm, rep, phase, ns, control FROM repetition WHERE run=? ORDER BY rep, arm, phase",
        run, [](const sql::Stmt& s) -> std::optional<RepetitionRow> {
            const auto arm = armFromString(s.text(0));
            if (!arm) return std::nullopt;
            return RepetitionRow{*arm, int(s.int64(1)), s.text(2), s.int64(3), s.int64(4) != 0};
        });
    if (!rows) return rows.error();
    std::vector<RepetitionRow> out;
    for (auto& r : *rows)
        if (r) out.push_back(std::move(*r));
    return out;
}

Result<std::optional<VisionFeatureRow>> SessionReader::visionFeatures(int64_t run) {
    auto rows = d->query<VisionFeatureRow>(
        "SELECT rows, cols, data FROM vision_feature WHERE run=?", run, [](const sql::Stmt& s) {
            VisionFeatureRow v{int(s.int64(0)), int(s.int64(1)), {}};
            const auto bytes = s.blob(2);
            v.data = floats(bytes, bytes.size() / sizeof(float));
            return v;
        });
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<VisionFeatureRow>();
    const auto& v = rows->front();
    if (auto ok = rowcheck::floatBlob(run, "vision_feature", v.rows, v.cols, v.data.size()); !ok)
        return ok.error();
    return std::optional<VisionFeatureRow>(std::move(rows->front()));
}

Result<std::vector<PatchMetricRow>> SessionReader::patchMetrics(int64_t run,
                                                                const std::string& metric) {
    return checked(
        d->query<PatchMetricRow>(
            "SELECT layer, metric, patch, value FROM patch_metric WHERE run=?1 AND metric=?2"
            " ORDER BY layer, patch",
            run,
            [](const sql::Stmt& s) {
                return PatchMetricRow{int(s.int64(0)), s.text(1), int(s.int64(2)), s.real(3)};
            },
            metric),
        [&](const auto& rows) { return rowcheck::patchMetrics(run, rows); });
}

Result<std::vector<AttnMapRow>> SessionReader::attnMaps(int64_t run, int layer) {
    auto maps = d->query<AttnMapRow>(
        "SELECT layer, head, rows, cols, data FROM attn_map WHERE run=?1 AND layer=?2 ORDER BY "
        "head",
        run,
        [](const sql::Stmt& s) {
            AttnMapRow a{int(s.int64(0)), int(s.int64(1)), int(s.int64(2)), int(s.int64(3)), {}};
            const auto bytes = s.blob(4);
            a.data = floats(bytes, bytes.size() / sizeof(float));
            return a;
        },
        layer);
    return checked(std::move(maps), [&](const std::vector<AttnMapRow>& rows) -> Status {
        for (const auto& a : rows)
            if (auto ok = rowcheck::floatBlob(run, "attn_map", a.rows, a.cols, a.data.size()); !ok)
                return ok;
        return Ok{};
    });
}

Result<std::vector<int>> SessionReader::attnMapLayers(int64_t run) {
    return d->query<int>("SELECT DISTINCT layer FROM attn_map WHERE run=? ORDER BY layer", run,
                         [](const sql::Stmt& s) { return int(s.int64(0)); });
}

} // namespace mvp
