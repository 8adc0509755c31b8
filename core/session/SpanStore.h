#pragma once
// Module spans in a session file (format v11, docs/format.md "span_chunk"):
// each write's spans become one `span_chunk` row whose BLOB holds them as
// varints, deflated — about 10 bytes a span where v1–v10's `span` table and
// its index took ~90. The writer, the v10 → v11 migration and the reader
// share this code; the codec below is pure bytes, no SQLite.

#include "core/Result.h"
#include "core/session/ChunkRows.h"
#include "core/session/Records.h"
#include "core/session/Sqlite.h"

#include <string>
#include <string_view>
#include <vector>

namespace mvp {

// The most bytes one row takes (eleven varints). span_chunk.encoding is
// ChunkRows.h's: 1, the rows below; 2, those bytes deflated.
inline constexpr size_t kMaxSpanRowBytes = 11 * 10;

// The rows, in the order given, as encoding 1: each field a varint, ids,
// steps and start times as differences from the row before.
std::string encodeSpanRows(const std::vector<const SpanRow*>& rows);

// Appends the chunk's `rows` rows to `out`. Damage — a cut-off row, an
// unknown phase code or flag, a value past its type, bytes left over — is
// an Error, never a row.
Status decodeSpanRows(std::string_view data, int64_t rows, std::vector<SpanRow>& out);

// The span_chunk table with the codec above.
const ChunkTable<SpanRow>& spanChunks();

// Stores spans, on the writer's connection and inside its transaction: each
// write one chunk, ordered by id; a span id the run already holds is
// refused, as the key of v1–v10's span table refused it.
class SpanChunkWriter : public ChunkTableWriter<SpanRow> {
public:
    SpanChunkWriter() : ChunkTableWriter(spanChunks()) {}
};

// The run's spans ordered by id; a damaged chunk or an id stored twice is an Error.
Result<std::vector<SpanRow>> readSpanChunks(sql::Db& db, int64_t run);

// v10 → v11: moves every row of the old `span` table into chunks and drops it.
Status migrateSpanTable(sql::Db& db);

} // namespace mvp
