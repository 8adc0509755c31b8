#pragma once
// Op rows in a session file (format v5): each batch one `op_chunk` row whose
// BLOB holds the rows packed (OpCodec.h), their strings once in `interned`.
// The writer, the v4 → v5 migration and the reader share this code.

#include "core/Result.h"
#include "core/session/Records.h"

#include <functional>
#include <memory>
#include <vector>

namespace mvp::sql {
class Db;
}

namespace mvp {

// Stores op rows, on the writer's connection and inside its transaction.
class OpChunkWriter {
public:
    OpChunkWriter();
    ~OpChunkWriter();
    // Prepares the statements and learns the strings a session already holds.
    Status open(sql::Db& db);
    // Each call stores its rows as one chunk (none for no rows).
    Status write(int64_t run, const std::vector<OpRecord>& rows);
    Status write(int64_t run, const std::vector<OpRow>& rows);
    // The id of `text` in `interned`, stored there if new (other tables' names:
    // device activity).
    Result<int64_t> intern(std::string_view text);
    // Replaces the run's op_total rows with sums over its stored chunks.
    Status writeTotals(int64_t run);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The run's op rows in id order, their strings resolved.
Result<std::vector<OpRow>> readOpChunks(sql::Db& db, int64_t run);
// The run's op rows as stored, chunk by chunk (each chunk in the order its
// ops ended), one at a time: memory stays bounded whatever the run's size.
// Stops at the first error `visit` returns.
Status visitOpChunks(sql::Db& db, int64_t run, const std::function<Status(OpRow&&)>& visit);
// Top-level ops (no parent op) summed by phase and name, ordered by both.
Result<std::vector<OpTotal>> sumOpChunks(sql::Db& db, int64_t run);
Result<int64_t> countOpChunks(sql::Db& db, int64_t run);

// v4 → v5: moves every row of the old `op` table into chunks.
Status migrateOpTable(sql::Db& db);

} // namespace mvp
