#pragma once
// What the packed tables of format v11 share (span_chunk, activity_chunk;
// docs/format.md): a table of (run, first_id, rows, encoding, data,
// checksum), each row a batch of rows packed by a codec. The writer refuses
// an id the run holds (as the SQL key of the tables they replace did), the
// reader checks, inflates, decodes and orders them by id, and a migration
// cuts an old table's rows into chunks. The codecs are the stores' own
// (SpanStore.h, ActivityStore.h).

#include "core/Result.h"
#include "core/session/Sqlite.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

// Encodings of a chunk's data: 1, varints; 2, those bytes deflated (a zlib
// stream). Writers store 2; readers read both.
inline constexpr int kChunkPlain = 1;
inline constexpr int kChunkDeflated = 2;

// "<rowsWhat> of this session are damaged (<what>): copy the session again
// from its source" — the one message for damage to packed rows.
Error damagedRows(const std::string& rowsWhat, const std::string& what);

// A chunk row as stored.
struct StoredChunk {
    int64_t rows = 0, encoding = 0, checksum = 0;
    std::string_view data;
};

// The chunk's varints (inflated into `buffer` for encoding 2). An unknown
// encoding is NewerSchema; a checksum that does not match, a row count
// below 1 or past what 4 GiB hold at `maxRowBytes` a row, or a stream that
// does not inflate within that is NotASession, named after `rowsWhat` ("the
// module spans").
Result<std::string_view> chunkBytes(const StoredChunk& chunk, size_t maxRowBytes,
                                    const std::string& rowsWhat, std::string& buffer);

// `rows` packed (deflated, checksummed) and inserted by `insert`, prepared
// from "INSERT INTO <table>(run, first_id, rows, encoding, data, checksum)".
Status insertChunk(sql::Stmt& insert, int64_t run, int64_t firstId, int64_t rows,
                   std::string_view plain);

// Row ids of a run: a bit per id from 0 to 2³¹ (ids count from 1 in every
// writer: a million ids take 128 KB), a set for any others.
class KeptIds {
public:
    // False when `id` is held already.
    bool insert(int64_t id);

private:
    std::vector<bool> bits_;
    std::set<int64_t> outside_;
};

// A chunk table and its codec. Row has an `int64_t id`.
template <class Row> struct ChunkTable {
    const char* table;    // "span_chunk"
    const char* rowsWhat; // "the module spans", for messages
    const char* rowName;  // "span", for messages
    size_t maxRowBytes;   // what one row may take packed
    std::string (*encode)(const std::vector<const Row*>& rows);
    Status (*decode)(std::string_view data, int64_t rows, std::vector<Row>& out);

    // Rows of one run as one chunk, ordered by id (neighbours then differ by little).
    Status insert(sql::Stmt& stmt, int64_t run, std::vector<const Row*> rows) const {
        std::sort(rows.begin(), rows.end(),
                  [](const Row* a, const Row* b) { return a->id < b->id; });
        return insertChunk(stmt, run, rows.front()->id, int64_t(rows.size()), encode(rows));
    }

    std::string insertSql() const {
        return std::string("INSERT INTO ") + table +
               "(run, first_id, rows, encoding, data, checksum) VALUES (?,?,?,?,?,?)";
    }

    // The run's rows ordered by id; a damaged chunk or an id stored twice is an Error.
    Result<std::vector<Row>> read(sql::Db& db, int64_t run) const {
        auto st = db.prepare(std::string("SELECT rows, encoding, data, checksum FROM ") + table +
                             " WHERE run=? ORDER BY first_id");
        if (!st) return st.error();
        st->bind(1, run);
        std::vector<Row> out;
        std::string inflated; // reused chunk to chunk
        for (;;) {
            auto has = st->step();
            if (!has) return has.error();
            if (!*has) break;
            const StoredChunk chunk{st->int64(0), st->int64(1), st->int64(3), st->blobView(2)};
            auto data = chunkBytes(chunk, maxRowBytes, rowsWhat, inflated);
            if (!data) return data.error();
            if (auto s = decode(*data, chunk.rows, out); !s) return s.error();
        }
        // Chunks come in order of their first ids, each in id order: sorting
        // merges sorted runs.
        std::stable_sort(out.begin(), out.end(),
                         [](const Row& a, const Row& b) { return a.id < b.id; });
        for (size_t i = 1; i < out.size(); ++i)
            if (out[i].id == out[i - 1].id)
                return damagedRows(rowsWhat, std::string(rowName) + " " +
                                                 std::to_string(out[i].id) + " is stored twice");
        return out;
    }
};

// Writes a chunk table on the writer's connection, inside its transaction.
template <class Row> class ChunkTableWriter {
public:
    explicit ChunkTableWriter(const ChunkTable<Row>& table) : table_(table) {}

    Status open(sql::Db& db) {
        db_ = &db;
        auto st = db.prepare(table_.insertSql());
        if (!st) return st.error();
        insert_ = std::move(st.value());
        return Ok{};
    }

    // The rows as one chunk (none for no rows). An id the run already holds
    // (this writer's or the file's) is refused.
    Status write(int64_t run, const std::vector<Row>& rows) {
        if (rows.empty()) return Ok{};
        auto known = ids_.find(run);
        if (known == ids_.end()) { // a run this writer has not written to: what it holds already
            auto held = table_.read(*db_, run);
            if (!held) return held.error();
            known = ids_.emplace(run, KeptIds{}).first;
            for (const auto& r : *held)
                known->second.insert(r.id);
        }
        std::vector<const Row*> pointers;
        pointers.reserve(rows.size());
        for (const auto& r : rows) {
            if (!known->second.insert(r.id))
                return makeError(ErrorCode::BadInput,
                                 std::string(table_.rowName) + " " + std::to_string(r.id) +
                                     " of run " + std::to_string(run) +
                                     " was written twice: its ids are unique within a run");
            pointers.push_back(&r);
        }
        return table_.insert(insert_, run, std::move(pointers));
    }

private:
    const ChunkTable<Row>& table_;
    sql::Db* db_ = nullptr;
    sql::Stmt insert_;
    std::map<int64_t, KeptIds> ids_; // run → its row ids
};

// An old table's rows, arriving by run, cut into chunks of at most
// `perChunk` rows: memory stays bounded whatever the table's size.
template <class Row> class ChunkMigration {
public:
    ChunkMigration(const ChunkTable<Row>& table, sql::Stmt& insert, size_t perChunk = 65536)
        : table_(table), insert_(insert), perChunk_(perChunk) {}

    Status add(int64_t run, const Row& row) {
        if (run != run_ || rows_.size() == perChunk_)
            if (auto s = finish(); !s) return s;
        run_ = run;
        rows_.push_back(row);
        return Ok{};
    }

    // Stores what is left.
    Status finish() {
        if (rows_.empty()) return Ok{};
        std::vector<const Row*> pointers;
        for (const auto& r : rows_)
            pointers.push_back(&r);
        auto s = table_.insert(insert_, run_, std::move(pointers));
        rows_.clear();
        return s;
    }

private:
    const ChunkTable<Row>& table_;
    sql::Stmt& insert_;
    size_t perChunk_;
    int64_t run_ = 0;
    std::vector<Row> rows_;
};

} // namespace mvp
