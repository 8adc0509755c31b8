#pragma once
// GPU work and CUDA API calls in a session file (format v11, docs/format.md
// "activity_chunk"): each write's rows become one `activity_chunk` row whose
// BLOB holds them as varints, deflated, their names interned. A CUDA
// capture or an imported trace holds millions; as rows of v6–v10's
// `device_activity` table each took ~52 bytes, and inserting them was most
// of a trace import's time. The writer, the v10 → v11 migration and the
// reader share this code; the codec below is pure bytes, no SQLite.

#include "core/Result.h"
#include "core/session/ChunkRows.h"
#include "core/session/Records.h"
#include "core/session/Sqlite.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

class OpChunkWriter;

// A row with its name interned (an id of the session's `interned` table).
struct PackedActivity {
    int64_t id = 0;
    ActivityKind kind = ActivityKind::Kernel;
    int64_t name = 0;
    int64_t device = -1, stream = -1, thread = -1;
    int64_t startNs = 0, endNs = 0;
    std::optional<int64_t> correlation, op, span;
    int64_t bytes = 0;
};

// The most bytes one row takes (thirteen varints).
inline constexpr size_t kMaxActivityRowBytes = 13 * 10;

// The rows, in the order given, as encoding 1 (ChunkRows.h): each field a
// varint, ids, streams, threads, times and links as differences from the
// row before.
std::string encodeActivityRows(const std::vector<const PackedActivity*>& rows);

// Appends the chunk's `rows` rows to `out`. Damage — a cut-off row, an
// unknown kind code or flag, bytes left over — is an Error, never a row.
Status decodeActivityRows(std::string_view data, int64_t rows, std::vector<PackedActivity>& out);

// The activity_chunk table with the codec above.
const ChunkTable<PackedActivity>& activityChunks();

// Stores device activity, on the writer's connection and inside its
// transaction, its names interned by `strings`: each write one chunk,
// ordered by id; an id the run already holds is refused, as the key of
// v6–v10's table refused it.
class ActivityChunkWriter {
public:
    ActivityChunkWriter() : chunks_(activityChunks()) {}
    Status open(sql::Db& db, OpChunkWriter& strings);
    Status write(int64_t run, const std::vector<DeviceActivityRow>& rows);

private:
    ChunkTableWriter<PackedActivity> chunks_;
    OpChunkWriter* strings_ = nullptr;
    std::vector<PackedActivity> packed_; // reused write to write
};

// The run's rows ordered by id, their names resolved; a damaged chunk, a
// name the session does not hold or an id stored twice is an Error.
Result<std::vector<DeviceActivityRow>> readActivityChunks(sql::Db& db, int64_t run);

// v10 → v11: moves every row of the old `device_activity` table into chunks
// and drops it.
Status migrateActivityTable(sql::Db& db);

} // namespace mvp
