#include "core/session/SpanStore.h"

#include "core/session/Varint.h"

#include <limits>

namespace mvp {

using namespace varint;

namespace {
constexpr const char* kRowsWhat = "the module spans";

Error damaged(const std::string& what) {
    return damagedRows(kRowsWhat, what);
}

// A row's flags (docs/format.md): which optional fields follow, and whether
// its FLOPs are known.
constexpr uint64_t kFlopsKnown = 1, kHasParent = 2, kHasDeviceNs = 4;
constexpr uint64_t kAllFlags = kFlopsKnown | kHasParent | kHasDeviceNs;
} // namespace

std::string encodeSpanRows(const std::vector<const SpanRow*>& rows) {
    std::string out;
    out.reserve(rows.size() * 16);
    SpanRow prev;
    char row[kMaxSpanRowBytes];
    for (const SpanRow* r : rows) {
        char* p = row;
        p = put(p, (r->flopsKnown ? kFlopsKnown : 0) | (r->parent ? kHasParent : 0) |
                       (r->deviceNs ? kHasDeviceNs : 0));
        p = put(p, zigzag(minus(r->id, prev.id)));
        p = put(p, zigzag(minus(r->module, prev.module)));
        if (r->parent) p = put(p, zigzag(minus(r->id, *r->parent)));
        p = put(p, uint64_t(r->phase));
        p = put(p, zigzag(minus(r->step, prev.step)));
        p = put(p, zigzag(minus(r->startNs, prev.startNs)));
        p = put(p, zigzag(minus(r->endNs, r->startNs)));
        if (r->deviceNs) p = put(p, zigzag(*r->deviceNs));
        p = put(p, zigzag(r->flops));
        p = put(p, zigzag(r->bytes));
        out.append(row, size_t(p - row));
        prev = *r;
    }
    return out;
}

Status decodeSpanRows(std::string_view data, int64_t rows, std::vector<SpanRow>& out) {
    Reader in{data};
    SpanRow prev;
    int64_t step = 0;
    for (int64_t i = 0; i < rows; ++i) {
        SpanRow r;
        const uint64_t flags = in.get();
        r.id = plus(prev.id, unzigzag(in.get()));
        r.module = plus(prev.module, unzigzag(in.get()));
        if (flags & kHasParent) r.parent = minus(r.id, unzigzag(in.get()));
        const uint64_t phase = in.get();
        step = plus(step, unzigzag(in.get()));
        r.startNs = plus(prev.startNs, unzigzag(in.get()));
        r.endNs = plus(r.startNs, unzigzag(in.get()));
        if (flags & kHasDeviceNs) r.deviceNs = unzigzag(in.get());
        r.flops = unzigzag(in.get());
        r.bytes = unzigzag(in.get());
        if (in.cut) return damaged("a row is cut off");
        if (flags & ~kAllFlags) return damaged("unknown row flags " + std::to_string(flags));
        if (phase > kPhases.size()) return damaged("phase code " + std::to_string(phase));
        // Beyond int: the row checks would see a wrapped value, so refuse here.
        if (step < std::numeric_limits<int32_t>::min() ||
            step > std::numeric_limits<int32_t>::max())
            return damaged("span " + std::to_string(r.id) + "'s step is past 32 bits");
        r.phase = Phase(phase);
        r.step = int(step);
        r.flopsKnown = (flags & kFlopsKnown) != 0;
        out.push_back(r);
        prev = r;
    }
    if (in.at != data.size()) return damaged("bytes after a chunk's last row");
    return Ok{};
}

const ChunkTable<SpanRow>& spanChunks() {
    static const ChunkTable<SpanRow> table{"span_chunk",     kRowsWhat,      "span",
                                           kMaxSpanRowBytes, encodeSpanRows, decodeSpanRows};
    return table;
}

Result<std::vector<SpanRow>> readSpanChunks(sql::Db& db, int64_t run) {
    return spanChunks().read(db, run);
}

Status migrateSpanTable(sql::Db& db) {
    auto read = db.prepare("SELECT run, id, module, parent, phase, step, start_ns, end_ns, "
                           "device_ns, flops, bytes, flops_known FROM span ORDER BY run, id");
    auto insert = db.prepare(spanChunks().insertSql());
    if (!read) return read.error();
    if (!insert) return insert.error();
    ChunkMigration<SpanRow> chunks(spanChunks(), *insert);
    for (;;) {
        auto has = read->step();
        if (!has) return has.error();
        if (!*has) break;
        SpanRow s;
        s.id = read->int64(1);
        const auto phase = phaseFromString(read->text(4));
        if (!phase) return damaged("span " + std::to_string(s.id) + " names an unknown phase");
        s.module = read->int64(2), s.parent = read->optInt64(3), s.phase = *phase,
        s.step = read->int32(5), s.startNs = read->int64(6), s.endNs = read->int64(7),
        s.deviceNs = read->optInt64(8), s.flops = read->int64(9), s.bytes = read->int64(10),
        s.flopsKnown = read->int64(11) != 0;
        if (auto st = chunks.add(read->int64(0), s); !st) return st;
    }
    if (auto st = chunks.finish(); !st) return st;
    return db.exec("DROP TABLE span;");
}

} // namespace mvp
