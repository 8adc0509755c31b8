#pragma once
// What the packed tables of format v11 (span_chunk, activity_chunk;
// docs/format.md) share: a chunk's stored bytes checked and inflated, and
// the set of row ids a run holds, so that a writer refuses an id twice as
// the SQL key of the tables they replace did.

#include "core/Result.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

// Encodings of a chunk's data: 1, varints; 2, those bytes deflated (a zlib
// stream). Writers store 2; readers read both.
inline constexpr int kChunkPlain = 1;
inline constexpr int kChunkDeflated = 2;

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

// The chunk's bytes deflated, and their checksum as stored beside them.
struct PackedChunk {
    std::string data;
    int64_t checksum = 0;
};
PackedChunk packChunk(std::string_view plain);

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

} // namespace mvp
