#include "core/session/Deflate.h"

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

Result<std::string_view> inflateBlob(std::string_view deflated, size_t limit,
                                     std::string& buffer) {
    if (buffer.size() < limit) buffer.resize(limit);
    uLongf size = uLongf(limit);
    uLong used = uLong(deflated.size());
    const int rc = uncompress2(reinterpret_cast<Bytef*>(buffer.data()), &size,
                               reinterpret_cast<const Bytef*>(deflated.data()), &used);
    // Bytes after the stream's end are damage too, not something to skip.
    if (rc == Z_OK && used != deflated.size())
        return makeError(ErrorCode::NotASession, "bytes follow the end of its deflated stream");
    if (rc == Z_BUF_ERROR)
        return makeError(ErrorCode::NotASession,
                         "its deflated bytes are cut short or inflate past " +
                             std::to_string(limit) + " bytes");
    if (rc != Z_OK) return makeError(ErrorCode::NotASession, "its deflated bytes do not inflate");
    return std::string_view(buffer.data(), size);
}

} // namespace mvp
