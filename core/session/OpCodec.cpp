#include "core/session/OpCodec.h"

#include "core/session/Deflate.h"

namespace mvp {

namespace {
// Signed differences as unsigned varints: 0, -1, 1, -2 … → 0, 1, 2, 3 …
uint64_t zigzag(int64_t v) {
    return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}
int64_t unzigzag(uint64_t v) {
    return int64_t(v >> 1) ^ -int64_t(v & 1);
}
// Differences wrap (two's complement) rather than overflow: a damaged chunk
// decodes to values the range checks reject, never to undefined behaviour.
int64_t plus(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) + uint64_t(b));
}
int64_t minus(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) - uint64_t(b));
}

// Writes v at p, returns the byte after it (at most ten bytes).
char* putVarint(char* p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = char((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = char(v);
    return p;
}

Error damaged(const std::string& what) {
    return makeError(ErrorCode::NotASession,
                     "an op chunk of this session is damaged (" + what +
                         "): its op rows cannot be read; copy the session again from its source");
}
} // namespace

std::string deflateOpChunk(std::string_view plain) {
    return deflateBlob(plain);
}

Result<std::string_view> inflateOpChunk(std::string_view deflated, int64_t rows,
                                        std::string& buffer) {
    if (rows < 0 || uint64_t(rows) > (uint64_t(1) << 32) / kMaxOpRowBytes)
        return damaged("it claims " + std::to_string(rows) + " rows");
    auto plain = inflateBlob(deflated, size_t(rows) * kMaxOpRowBytes, buffer);
    if (!plain) return damaged(plain.error().message);
    return plain;
}

uint64_t opChunkChecksum(std::string_view data) {
    uint64_t h = 14695981039346656037ull;
    for (const char c : data) {
        h ^= uint8_t(c);
        h *= 1099511628211ull;
    }
    return h;
}

void OpChunkEncoder::add(const PackedOp& r) {
    char row[13 * 10]; // one row at most: appended in one go, not byte by byte
    char* p = row;
    p = putVarint(p, zigzag(minus(r.id, prev_.id)));
    p = putVarint(p, zigzag(minus(r.span, prev_.span)));
    p = putVarint(p, r.parentOp ? zigzag(minus(r.id, r.parentOp)) + 1 : 0);
    p = putVarint(p, uint64_t(r.name));
    p = putVarint(p, uint64_t(r.phase));
    p = putVarint(p, uint64_t(r.shapes));
    p = putVarint(p, uint64_t(r.dtype));
    p = putVarint(p, zigzag(minus(r.step, prev_.step)));
    p = putVarint(p, zigzag(minus(r.startNs, prev_.startNs)));
    p = putVarint(p, zigzag(minus(r.endNs, r.startNs)));
    p = putVarint(p, zigzag(r.flops));
    p = putVarint(p, zigzag(r.bytes));
    *p++ = char(r.flopsKnown ? 1 : 0);
    data_.append(row, size_t(p - row));
    prev_ = r;
    ++rows_;
}

void OpChunkEncoder::clear() {
    data_.clear();
    prev_ = PackedOp{};
    rows_ = 0;
}

Result<bool> OpChunkDecoder::next(PackedOp& r) {
    if (left_ == 0) {
        if (at_ != data_.size()) return damaged("bytes after its last row");
        return false;
    }
    bool cut = false;
    auto get = [&]() -> uint64_t {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at_ >= data_.size()) break;
            const auto byte = uint8_t(data_[at_++]);
            v |= uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80)) return v;
        }
        cut = true; // ran off the end, or more than ten bytes
        return 0;
    };
    r.id = plus(prev_.id, unzigzag(get()));
    r.span = plus(prev_.span, unzigzag(get()));
    const uint64_t parent = get();
    r.parentOp = parent ? minus(r.id, unzigzag(parent - 1)) : 0;
    r.name = int64_t(get());
    r.phase = int64_t(get());
    r.shapes = int64_t(get());
    r.dtype = int64_t(get());
    r.step = plus(prev_.step, unzigzag(get()));
    r.startNs = plus(prev_.startNs, unzigzag(get()));
    r.endNs = plus(r.startNs, unzigzag(get()));
    r.flops = unzigzag(get());
    r.bytes = unzigzag(get());
    const uint64_t flags = get();
    if (cut) return damaged("a row is cut off");
    if (flags > 1) return damaged("unknown row flags");
    // An enclosing op started first, so its id is lower.
    if (r.id <= 0 || r.span < 0 || r.parentOp < 0 || r.parentOp >= r.id || r.endNs < r.startNs)
        return damaged("a row with an impossible id or time");
    r.flopsKnown = flags == 1;
    prev_ = r;
    --left_;
    return true;
}

} // namespace mvp
