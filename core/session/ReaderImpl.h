#pragma once
// Private to SessionReader*.cpp: the reader's connection and the helpers its
// row queries share.

#include "core/Result.h"
#include "core/session/RowChecks.h"
#include "core/session/SessionReader.h"
#include "core/session/Sqlite.h"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mvp {

namespace reader {
inline std::optional<int64_t> optInt(const sql::Stmt& s, int col) {
    return s.isNull(col) ? std::nullopt : std::optional<int64_t>(s.int64(col));
}

// A layer or expert index: NULL, or a value outside 0..2^20 (a damaged file), is none.
inline std::optional<int> smallInt(const sql::Stmt& s, int col) {
    const auto v = optInt(s, col);
    if (!v || *v < 0 || *v > (1 << 20)) return std::nullopt;
    return int(*v);
}

// A phase or modality column; a name that is none is an error naming `where`.
inline Result<Phase> phaseAt(const sql::Stmt& s, int col, int64_t run, const std::string& where) {
    const std::string name = s.text(col);
    if (const auto p = phaseFromString(name)) return *p;
    return rowcheck::unknownPhase(run, where, name);
}
inline Result<Modality> modalityAt(const sql::Stmt& s, int col, int64_t run,
                                   const std::string& where) {
    const std::string name = s.text(col);
    if (const auto m = modalityFromString(name)) return *m;
    return rowcheck::unknownModality(run, where, name);
}

template <typename R> struct IsResult : std::false_type {};
template <typename T> struct IsResult<Result<T>> : std::true_type {};

// Rows read, then checked for content a damaged file could hold (RowChecks.h).
template <typename T, typename Check> Result<T> checked(Result<T> rows, Check check) {
    if (!rows) return rows;
    if (auto s = check(*rows); !s) return s.error();
    return rows;
}
} // namespace reader

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
            // A mapper returns a row, or a Result when a column may hold no valid value.
            auto row = fn(st.value());
            if constexpr (reader::IsResult<decltype(row)>::value) {
                if (!row) return row.error();
                out.push_back(std::move(*row));
            } else {
                out.push_back(std::move(row));
            }
        }
        return out;
    }
};

} // namespace mvp
