#include "core/session/RoutingCodec.h"

#include "core/session/Varint.h"

#include <cstring>
#include <limits>

namespace mvp {

using namespace varint;

// The codes docs/format.md lists: a phase's number is its place in
// kPhases from 1, a modality's 0 (text) or 1 (visual).
static_assert(int(Phase::Preprocess) == 1 && int(Phase::Decode) == 6);
static_assert(int(Modality::Text) == 0 && int(Modality::Visual) == 1);

namespace {
Error damaged(const std::string& what) {
    return makeError(ErrorCode::NotASession,
                     "a routing chunk of this session is damaged (" + what +
                         "): its routing rows cannot be read; copy the session again from its "
                         "source");
}
} // namespace

std::string encodeRoutingRows(const std::vector<const RoutingRow*>& rows) {
    std::string out;
    out.reserve(rows.size() * 16);
    RoutingRow prev;
    char row[kMaxRoutingRowBytes];
    for (const RoutingRow* r : rows) {
        char* p = row;
        p = put(p, zigzag(minus(r->token, prev.token)));
        p = put(p, uint64_t(r->phase));
        p = put(p, zigzag(minus(r->step, prev.step)));
        p = put(p, uint64_t(r->modality));
        p = put(p, zigzag(r->rank));
        p = put(p, zigzag(r->expert));
        // Little-endian IEEE 754, as every platform mvprof builds on stores it.
        std::memcpy(p, &r->weight, sizeof r->weight);
        p += sizeof r->weight;
        out.append(row, size_t(p - row));
        prev = *r;
    }
    return out;
}

Status decodeRoutingRows(std::string_view data, int64_t rows, int layer,
                         std::vector<RoutingRow>& out) {
    Reader in{data};
    int64_t token = 0, step = 0;
    for (int64_t i = 0; i < rows; ++i) {
        RoutingRow r;
        r.layer = layer;
        token = plus(token, unzigzag(in.get()));
        const uint64_t phase = in.get();
        step = plus(step, unzigzag(in.get()));
        const uint64_t modality = in.get();
        const int64_t rank = unzigzag(in.get()), expert = unzigzag(in.get());
        if (in.cut || in.at + sizeof(double) > data.size()) return damaged("a row is cut off");
        std::memcpy(&r.weight, data.data() + in.at, sizeof r.weight);
        in.at += sizeof r.weight;
        if (phase < 1 || phase > kPhases.size())
            return damaged("phase code " + std::to_string(phase));
        if (modality > 1) return damaged("modality code " + std::to_string(modality));
        // Beyond int: the row checks would see a wrapped value, so refuse here.
        for (const int64_t v : {token, step, rank, expert})
            if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
                return damaged("a value past 32 bits");
        r.phase = Phase(phase);
        r.modality = Modality(modality);
        r.token = int(token), r.step = int(step), r.rank = int(rank), r.expert = int(expert);
        out.push_back(r);
    }
    if (in.at != data.size()) return damaged("bytes after its last row");
    return Ok{};
}

} // namespace mvp
