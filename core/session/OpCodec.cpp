#include "core/session/OpCodec.h"

#include "core/session/Deflate.h"
#include "core/session/Varint.h"

namespace mvp {

namespace {
using namespace varint;

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
    return fnv1a(data);
}

void OpChunkEncoder::add(const PackedOp& r) {
    char row[13 * 10]; // one row at most: appended in one go, not byte by byte
    char* p = row;
    p = put(p, zigzag(minus(r.id, prev_.id)));
    p = put(p, zigzag(minus(r.span, prev_.span)));
    p = put(p, r.parentOp ? zigzag(minus(r.id, r.parentOp)) + 1 : 0);
    p = put(p, uint64_t(r.name));
    p = put(p, uint64_t(r.phase));
    p = put(p, uint64_t(r.shapes));
    p = put(p, uint64_t(r.dtype));
    p = put(p, zigzag(minus(r.step, prev_.step)));
    p = put(p, zigzag(minus(r.startNs, prev_.startNs)));
    p = put(p, zigzag(minus(r.endNs, r.startNs)));
    p = put(p, zigzag(r.flops));
    p = put(p, zigzag(r.bytes));
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
    Reader in{data_, at_};
    auto get = [&] { return in.get(); };
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
    at_ = in.at;
    if (in.cut) return damaged("a row is cut off");
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
