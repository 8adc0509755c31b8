#pragma once
// The compact form of op rows (session format v5, docs/format.md "op_chunk"): a
// batch of rows is one BLOB of LEB128 varints, each row a handful of bytes,
// its strings (name, phase, shape list, dtype) replaced by ids into the
// session's `string` table. Pure encoding, no SQLite: OpStore.h stores it.

#include "core/Result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace mvp {

// An op row with its strings interned. Ids of rows (`id`, `span`, `parentOp`)
// are 0 for none, as string ids are never 0.
struct PackedOp {
    int64_t id = 0, span = 0, parentOp = 0;
    int64_t name = 0, phase = 0, shapes = 0, dtype = 0;
    int64_t step = 0, startNs = 0, endNs = 0, flops = 0, bytes = 0;
    bool flopsKnown = true;
};

// Encodings of op_chunk.data: 1, the varints below; 2 (v10), the same
// bytes deflated (a zlib stream). This build writes 2 and reads both;
// readers refuse others.
inline constexpr int kOpChunkPlain = 1;
inline constexpr int kOpChunkDeflated = 2;
inline constexpr int kOpChunkEncoding = kOpChunkDeflated;
// The most bytes one row takes (13 varints of up to 10 bytes): what a
// chunk of n rows may inflate to at most.
inline constexpr size_t kMaxOpRowBytes = 13 * 10;

// A chunk's varints deflated (zlib's fastest level: ~2.5× smaller, and the
// writer's thread does it at hundreds of MB/s).
std::string deflateOpChunk(std::string_view plain);
// Its varints back, in `buffer` (grown as needed, reused chunk to chunk),
// refusing a stream that is damaged or would inflate past `rows` × kMaxOpRowBytes.
Result<std::string_view> inflateOpChunk(std::string_view deflated, int64_t rows,
                                        std::string& buffer);

// FNV-1a (64 bits) of a chunk's bytes, stored beside it (op_chunk.checksum):
// a flipped bit would otherwise decode to plausible, wrong numbers.
uint64_t opChunkChecksum(std::string_view data);

// Appends rows to one chunk. Each field is stored as a difference from the
// previous row where rows of a batch are alike (ids, times, span), so a
// typical row takes 15–25 bytes.
class OpChunkEncoder {
public:
    void add(const PackedOp& row);
    int64_t rows() const { return rows_; }
    const std::string& data() const { return data_; }
    void clear();

private:
    std::string data_;
    PackedOp prev_;
    int64_t rows_ = 0;
};

// Reads a chunk back row by row. Any damage — a cut-off row, an overlong
// number, a row ending before its start, more or fewer rows than the chunk
// says — is an Error naming the chunk, never a wrong row.
class OpChunkDecoder {
public:
    OpChunkDecoder(std::string_view data, int64_t rows) : data_(data), left_(rows) {}
    // Fills `row` and returns true, false at the end, or an Error.
    Result<bool> next(PackedOp& row);

private:
    std::string_view data_;
    size_t at_ = 0;
    int64_t left_;
    PackedOp prev_;
};

} // namespace mvp
