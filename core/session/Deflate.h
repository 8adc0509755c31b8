#pragma once
// zlib streams (RFC 1950) for a session's BLOBs that compress well: op
// chunks' varints and per-patch arrays (format v10). Pure bytes, no SQLite.

#include "core/Result.h"

#include <string>
#include <string_view>

namespace mvp {

// `plain` deflated at zlib's fastest level: nearly the size level 6 gives
// on these BLOBs, at several times the speed (the writer thread pays it).
std::string deflateBlob(std::string_view plain);

// The bytes back, in `buffer` (grown as needed, reusable from call to call);
// an Error (its message says what is wrong, for the caller to name the BLOB)
// for a damaged stream or one that would inflate past `limit` bytes.
Result<std::string_view> inflateBlob(std::string_view deflated, size_t limit,
                                     std::string& buffer);

} // namespace mvp
