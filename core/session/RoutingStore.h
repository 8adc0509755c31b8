#pragma once
// Routing rows in a session file (format v10): each write's rows of one
// layer become one `routing_chunk` row whose BLOB holds them packed
// (RoutingCodec.h), deflated. The writer, the v9 → v10 migration and the
// reader share this code.

#include "core/Result.h"
#include "core/session/Records.h"
#include "core/session/Sqlite.h"

#include <map>
#include <set>
#include <vector>

namespace mvp {

// The (token, rank) pairs a run holds in one layer: a bit per token for
// each rank used (a run of 4 000 tokens, top-8: 4 KB a layer).
class KeptSlots {
public:
    // False when the pair is held already.
    bool insert(int token, int rank);

private:
    std::vector<std::vector<bool>> byRank_;
    std::set<std::pair<int, int>>
        outside_; // pairs past the format's ranges (the reader refuses them)
};

// Stores routing rows, on the writer's connection and inside its transaction.
class RoutingChunkWriter {
public:
    Status open(sql::Db& db);
    // One chunk per layer of `rows`. A (layer, token, rank) the run already
    // holds is refused, as the key of v1–v9's routing table refused it.
    Status write(int64_t run, const std::vector<RoutingRow>& rows);

private:
    sql::Db* db_ = nullptr;
    sql::Stmt insert_;
    std::map<int64_t, std::map<int, KeptSlots>> kept_; // run → layer → its slots
};

// The run's routing rows ordered by layer, token and rank; a damaged chunk
// or a (layer, token, rank) stored twice is an Error.
Result<std::vector<RoutingRow>> readRoutingChunks(sql::Db& db, int64_t run);

// v9 → v10: moves every row of the old `routing` table into chunks and drops it.
Status migrateRoutingTable(sql::Db& db);

} // namespace mvp
