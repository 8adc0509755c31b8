#pragma once
// Thin RAII wrappers over the SQLite C API, shared by the writer and reader.
// Failures come back as mvp::Error with SQLite's message and the caller's context.

#include "core/Phase.h"
#include "core/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace mvp::sql {

class Stmt {
public:
    Stmt() = default;
    Stmt(sqlite3* db, sqlite3_stmt* s) : db_(db), s_(s) {}
    Stmt(Stmt&& o) noexcept : db_(o.db_), s_(o.s_) { o.s_ = nullptr; }
    Stmt& operator=(Stmt&& o) noexcept;
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    ~Stmt();

    // Binding is 1-based, as in SQLite.
    void bind(int i, int64_t v);
    void bind(int i, int v) { bind(i, int64_t(v)); }
    void bind(int i, double v);
    void bind(int i, std::string_view v);
    void bind(int i, const char* v) { bind(i, std::string_view(v)); }
    void bind(int i, const std::string& v) { bind(i, std::string_view(v)); }
    void bind(int i, Phase p) { bind(i, toString(p)); }
    void bind(int i, Modality m) { bind(i, toString(m)); }
    void bindBlob(int i, const void* data, size_t bytes);
    void bindNull(int i);
    template <typename T> void bind(int i, const std::optional<T>& v) {
        if (v)
            bind(i, *v);
        else
            bindNull(i);
    }

    // Runs a statement that returns no rows, then resets it for reuse.
    Status exec();
    // Steps once: true while a row is available; an Error on failure.
    Result<bool> step();
    void reset();

    int64_t int64(int col) const;
    // An integer column narrowed to int, saturating: a value no int holds reads
    // as INT_MIN/INT_MAX (outside every range check) rather than wrapping into one.
    int int32(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    std::vector<uint8_t> blob(int col) const;
    // The column's bytes without a copy, valid until the next step or reset.
    std::string_view blobView(int col) const;
    bool isNull(int col) const;
    // An integer column that may be NULL.
    std::optional<int64_t> optInt64(int col) const {
        return isNull(col) ? std::nullopt : std::optional<int64_t>(int64(col));
    }

private:
    sqlite3* db_ = nullptr;
    sqlite3_stmt* s_ = nullptr;
};

class Db {
public:
    Db() = default;
    Db(Db&& o) noexcept : db_(o.db_) { o.db_ = nullptr; }
    Db& operator=(Db&& o) noexcept;
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    ~Db();

    // flags: SQLITE_OPEN_* values.
    static Result<Db> open(const std::string& path, int flags);

    Status exec(std::string_view sqlText);
    Result<Stmt> prepare(std::string_view sqlText);
    // Convenience for one-value queries; nullopt when there is no row.
    Result<std::optional<int64_t>> queryInt(std::string_view sqlText);
    Result<std::optional<std::string>> queryText(std::string_view sqlText);

    sqlite3* handle() const { return db_; }

private:
    explicit Db(sqlite3* db) : db_(db) {}
    sqlite3* db_ = nullptr;
};

// Maps an SQLite result code to our error kinds (full disk → Io, corrupt → NotASession).
Error errorFrom(int rc, const std::string& what, sqlite3* db);

} // namespace mvp::sql
