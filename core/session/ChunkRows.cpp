#include "core/session/ChunkRows.h"

#include "core/session/Deflate.h"
#include "core/session/Varint.h"

#include <algorithm>

namespace mvp {

Error damagedRows(const std::string& rowsWhat, const std::string& what) {
    return makeError(ErrorCode::NotASession, rowsWhat + " of this session are damaged (" + what +
                                                 "): copy the session again from its source");
}

Result<std::string_view> chunkBytes(const StoredChunk& chunk, size_t maxRowBytes,
                                    const std::string& rowsWhat, std::string& buffer) {
    const auto damaged = [&](const std::string& what) { return damagedRows(rowsWhat, what); };
    if (chunk.encoding != kChunkPlain && chunk.encoding != kChunkDeflated)
        return makeError(ErrorCode::NewerSchema,
                         rowsWhat + " of this session use encoding " +
                             std::to_string(chunk.encoding) +
                             ", which this mvprof cannot read: update mvprof");
    if (int64_t(varint::fnv1a(chunk.data)) != chunk.checksum)
        return damaged("a chunk's bytes do not match their checksum");
    if (chunk.rows < 1 || uint64_t(chunk.rows) > (uint64_t(1) << 32) / maxRowBytes)
        return damaged("a chunk claims " + std::to_string(chunk.rows) + " rows");
    if (chunk.encoding == kChunkPlain) return chunk.data;
    auto plain = inflateBlob(chunk.data, size_t(chunk.rows) * maxRowBytes, buffer);
    if (!plain) return damaged(plain.error().message);
    return plain;
}

Status insertChunk(sql::Stmt& insert, int64_t run, int64_t firstId, int64_t rows,
                   std::string_view plain) {
    const std::string data = deflateBlob(plain);
    insert.bind(1, run), insert.bind(2, firstId), insert.bind(3, rows),
        insert.bind(4, kChunkDeflated);
    insert.bindBlob(5, data.data(), data.size());
    insert.bind(6, int64_t(varint::fnv1a(data)));
    return insert.exec();
}

bool KeptIds::insert(int64_t id) {
    constexpr int64_t kBits = int64_t(1) << 31;
    if (id < 0 || id >= kBits) return outside_.insert(id).second;
    const auto at = size_t(id);
    if (at >= bits_.size()) bits_.resize(std::max(at + 1, bits_.size() * 2));
    if (bits_[at]) return false;
    bits_[at] = true;
    return true;
}

} // namespace mvp
