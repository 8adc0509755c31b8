#pragma once
// Private to SessionReader*.cpp: the reader's connection and the helpers its
// row queries share.

#include "core/Result.h"
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
            out.push_back(fn(st.value()));
        }
        return out;
    }
};

} // namespace mvp
