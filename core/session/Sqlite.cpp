#include "core/session/Sqlite.h"

#include <algorithm>
#include <limits>
#include <sqlite3.h>

namespace mvp::sql {

Error errorFrom(int rc, const std::string& what, sqlite3* db) {
    const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_FULL:
        return makeError(ErrorCode::Io, what + ": the disk is full (" + detail +
                                            "); free some space and try again");
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_IOERR:
        return makeError(ErrorCode::Io, what + ": " + detail + " (check the path and permissions)");
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return makeError(ErrorCode::NotASession,
                         what + ": the file is damaged or truncated (" + detail + ")");
    default:
        return makeError(ErrorCode::Internal, what + ": " + detail);
    }
}

Stmt& Stmt::operator=(Stmt&& o) noexcept {
    if (this != &o) {
        sqlite3_finalize(s_);
        db_ = o.db_;
        s_ = o.s_;
        o.s_ = nullptr;
    }
    return *this;
}

Stmt::~Stmt() {
    sqlite3_finalize(s_);
}

void Stmt::bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
}
void Stmt::bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
}
void Stmt::bind(int i, std::string_view v) {
    sqlite3_bind_text(s_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
}
void Stmt::bindBlob(int i, const void* data, size_t bytes) {
    sqlite3_bind_blob64(s_, i, data, sqlite3_uint64(bytes), SQLITE_TRANSIENT);
}
void Stmt::bindNull(int i) {
    sqlite3_bind_null(s_, i);
}

Status Stmt::exec() {
    const int rc = sqlite3_step(s_);
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) return errorFrom(rc, "writing the session", db_);
    return Ok{};
}

Result<bool> Stmt::step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return errorFrom(rc, "reading the session", db_);
}

void Stmt::reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
}

int64_t Stmt::int64(int col) const {
    return sqlite3_column_int64(s_, col);
}
int Stmt::int32(int col) const {
    const int64_t v = sqlite3_column_int64(s_, col);
    return int(
        std::clamp<int64_t>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}
double Stmt::real(int col) const {
    return sqlite3_column_double(s_, col);
}
std::string Stmt::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return p ? std::string(p, size_t(sqlite3_column_bytes(s_, col))) : std::string();
}
std::vector<uint8_t> Stmt::blob(int col) const {
    const auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(s_, col));
    return p ? std::vector<uint8_t>(p, p + sqlite3_column_bytes(s_, col)) : std::vector<uint8_t>();
}
std::string_view Stmt::blobView(int col) const {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(s_, col));
    return p ? std::string_view(p, size_t(sqlite3_column_bytes(s_, col))) : std::string_view();
}
bool Stmt::isNull(int col) const {
    return sqlite3_column_type(s_, col) == SQLITE_NULL;
}

Db& Db::operator=(Db&& o) noexcept {
    if (this != &o) {
        sqlite3_close_v2(db_);
        db_ = o.db_;
        o.db_ = nullptr;
    }
    return *this;
}

Db::~Db() {
    sqlite3_close_v2(db_);
}

Result<Db> Db::open(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
        Error e = errorFrom(rc, "opening " + path, db);
        sqlite3_close_v2(db);
        return e;
    }
    sqlite3_extended_result_codes(db, 1);
    // Wait rather than fail when the writer holds a lock for a moment.
    sqlite3_busy_timeout(db, 5000);
    return Db(db);
}

Status Db::exec(std::string_view sqlText) {
    char* msg = nullptr;
    const std::string s(sqlText);
    const int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &msg);
    sqlite3_free(msg);
    if (rc != SQLITE_OK) return errorFrom(rc, "running SQL", db_);
    return Ok{};
}

Result<Stmt> Db::prepare(std::string_view sqlText) {
    sqlite3_stmt* s = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sqlText.data(), int(sqlText.size()),
                                      SQLITE_PREPARE_PERSISTENT, &s, nullptr);
    if (rc != SQLITE_OK) {
        // Our queries name only our tables and columns: one missing means the
        // file was changed by something other than mvprof.
        const std::string detail = sqlite3_errmsg(db_);
        if ((rc & 0xff) == SQLITE_ERROR &&
            (detail.rfind("no such table", 0) == 0 || detail.rfind("no such column", 0) == 0))
            return makeError(ErrorCode::NotASession,
                             "the session's tables are not the ones mvprof writes (" + detail +
                                 "): it is damaged or was edited by hand; copy it again from its "
                                 "source");
        return errorFrom(rc, "preparing a query", db_);
    }
    return Stmt(db_, s);
}

Result<std::optional<int64_t>> Db::queryInt(std::string_view sqlText) {
    auto st = prepare(sqlText);
    if (!st) return st.error();
    auto has = st->step();
    if (!has) return has.error();
    if (!*has || st->isNull(0)) return std::optional<int64_t>();
    return std::optional<int64_t>(st->int64(0));
}

Result<std::optional<std::string>> Db::queryText(std::string_view sqlText) {
    auto st = prepare(sqlText);
    if (!st) return st.error();
    auto has = st->step();
    if (!has) return has.error();
    if (!*has || st->isNull(0)) return std::optional<std::string>();
    return std::optional<std::string>(st->text(0));
}

} // namespace mvp::sql
