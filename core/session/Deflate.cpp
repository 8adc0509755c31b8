#include "core/session/Deflate.h"

#include <algorithm>
#include <zlib.h>

namespace mvp {

std::string deflateBlob(std::string_view plain) {
    uLongf size = compressBound(uLong(plain.size()));
    std::string out(size, '\0');
    const int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                             reinterpret_cast<const Bytef*>(plain.data()), uLong(plain.size()), 1);
    if (rc != Z_OK) return {}; // cannot happen with compressBound's room
    out.resize(size);
    return out;
}

// Inflated in steps, the buffer doubling from a few times the stream's size:
// a limit is a bound for damage, not a size to allocate (a patch array's is
// 8 MB, a 2 KB array needs 4 KB).
Result<std::string_view> inflateBlob(std::string_view deflated, size_t limit, std::string& buffer) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return makeError(ErrorCode::Internal, "zlib cannot start");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
    z.avail_in = uInt(deflated.size());
    size_t size = 0;
    int rc = Z_OK;
    for (;;) {
        if (size == buffer.size() && size < limit)
            buffer.resize(
                std::min(limit, std::max<size_t>(4 * deflated.size() + 64, 2 * buffer.size())));
        z.next_out = reinterpret_cast<Bytef*>(buffer.data() + size);
        z.avail_out = uInt(std::min(buffer.size(), limit) - size);
        rc = inflate(&z, Z_NO_FLUSH);
        size = size_t(z.total_out);
        if (rc == Z_OK) continue; // progress: go on, with more room if it is full
        // No progress: the input ran out before the stream's end, or the
        // output reached the limit; otherwise only the room ran out.
        if (rc == Z_BUF_ERROR && z.avail_in > 0 && size < limit) continue;
        break;
    }
    const bool whole = z.avail_in == 0;
    inflateEnd(&z);
    if (rc == Z_STREAM_END && !whole)
        return makeError(ErrorCode::NotASession, "bytes follow the end of its deflated stream");
    if (rc == Z_STREAM_END) return std::string_view(buffer.data(), size);
    if (rc == Z_BUF_ERROR)
        return makeError(ErrorCode::NotASession,
                         "its deflated bytes are cut short or inflate past " +
                             std::to_string(limit) + " bytes");
    return makeError(ErrorCode::NotASession, "its deflated bytes do not inflate");
}

} // namespace mvp
