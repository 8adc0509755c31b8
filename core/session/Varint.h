#pragma once
// The byte-level pieces of a session's packed rows (op chunks, routing
// chunks; docs/format.md): LEB128 varints, zigzag-coded signed
// differences, and the FNV-1a checksum stored beside each chunk.

#include <cstdint>
#include <string_view>

namespace mvp::varint {

// Signed differences as unsigned varints: 0, -1, 1, -2 … → 0, 1, 2, 3 …
inline uint64_t zigzag(int64_t v) {
    return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}
inline int64_t unzigzag(uint64_t v) {
    return int64_t(v >> 1) ^ -int64_t(v & 1);
}
// Differences wrap (two's complement) rather than overflow: a damaged chunk
// decodes to values the range checks reject, never to undefined behaviour.
inline int64_t plus(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) + uint64_t(b));
}
inline int64_t minus(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) - uint64_t(b));
}

// Writes v at p, returns the byte after it (at most ten bytes).
inline char* put(char* p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = char((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = char(v);
    return p;
}

// Reads varints from a chunk; `cut` turns true (and get() returns 0) when
// one runs off the end or is longer than ten bytes.
struct Reader {
    std::string_view data;
    size_t at = 0;
    bool cut = false;
    uint64_t get() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= data.size()) break;
            const auto byte = uint8_t(data[at++]);
            v |= uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80)) return v;
        }
        cut = true;
        return 0;
    }
};

// FNV-1a (64 bits) of a chunk's bytes: a flipped bit would otherwise decode
// to plausible, wrong numbers.
inline uint64_t fnv1a(std::string_view data) {
    uint64_t h = 14695981039346656037ull;
    for (const char c : data) {
        h ^= uint8_t(c);
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace mvp::varint
