#include "core/session/SpanStore.h"

#include "core/session/Varint.h"

#include <algorithm>
#include <limits>

namespace mvp {

using namespace varint;

namespace {
const std::string kRowsWhat = "the module spans";

Error damaged(const std::string& what) {
    return makeError(ErrorCode::NotASession, kRowsWhat + " of this session are damaged (" + what +
                                                 "): copy the session again from its source");
}

// A row's flags (docs/format.md): which optional fields follow, and whether
// its FLOPs are known.
constexpr uint64_t kFlopsKnown = 1, kHasParent = 2, kHasDeviceNs = 4;
constexpr uint64_t kAllFlags = kFlopsKnown | kHasParent | kHasDeviceNs;

// Rows per chunk when the migration moves a run's span table.
constexpr size_t kMigratedRowsPerChunk = 65536;

constexpr const char* kInsertChunk =
    "INSERT INTO span_chunk(run, first_id, rows, encoding, data, checksum) VALUES (?,?,?,?,?,?)";

// The rows (ordered by id here: neighbours then differ by little) as one chunk.
Status insertChunk(sql::Stmt& insert, int64_t run, std::vector<const SpanRow*> rows) {
    std::sort(rows.begin(), rows.end(),
              [](const SpanRow* a, const SpanRow* b) { return a->id < b->id; });
    const PackedChunk chunk = packChunk(encodeSpanRows(rows));
    insert.bind(1, run), insert.bind(2, rows.front()->id), insert.bind(3, int64_t(rows.size())),
        insert.bind(4, kChunkDeflated);
    insert.bindBlob(5, chunk.data.data(), chunk.data.size());
    insert.bind(6, chunk.checksum);
    return insert.exec();
}
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

Status SpanChunkWriter::open(sql::Db& db) {
    db_ = &db;
    auto st = db.prepare(kInsertChunk);
    if (!st) return st.error();
    insert_ = std::move(st.value());
    return Ok{};
}

Status SpanChunkWriter::write(int64_t run, const std::vector<SpanRow>& rows) {
    if (rows.empty()) return Ok{};
    auto known = ids_.find(run);
    if (known == ids_.end()) { // a run this writer has not written to: what it holds already
        auto held = readSpanChunks(*db_, run);
        if (!held) return held.error();
        known = ids_.emplace(run, KeptIds{}).first;
        for (const auto& s : *held)
            known->second.insert(s.id);
    }
    std::vector<const SpanRow*> pointers;
    pointers.reserve(rows.size());
    for (const auto& s : rows) {
        if (!known->second.insert(s.id))
            return makeError(ErrorCode::BadInput, "span " + std::to_string(s.id) + " of run " +
                                                      std::to_string(run) +
                                                      " was written twice: span ids are unique "
                                                      "within a run");
        pointers.push_back(&s);
    }
    return insertChunk(insert_, run, std::move(pointers));
}

Result<std::vector<SpanRow>> readSpanChunks(sql::Db& db, int64_t run) {
    auto st = db.prepare("SELECT rows, encoding, data, checksum FROM span_chunk WHERE run=? "
                         "ORDER BY first_id");
    if (!st) return st.error();
    st->bind(1, run);
    std::vector<SpanRow> out;
    std::string inflated; // reused chunk to chunk
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) break;
        const StoredChunk chunk{st->int64(0), st->int64(1), st->int64(3), st->blobView(2)};
        auto data = chunkBytes(chunk, kMaxSpanRowBytes, kRowsWhat, inflated);
        if (!data) return data.error();
        if (auto s = decodeSpanRows(*data, chunk.rows, out); !s) return s.error();
    }
    // Chunks come in order of their first ids, and each in id order: sorting is
    // a merge of already sorted runs.
    std::stable_sort(out.begin(), out.end(),
                     [](const SpanRow& a, const SpanRow& b) { return a.id < b.id; });
    for (size_t i = 1; i < out.size(); ++i)
        if (out[i].id == out[i - 1].id)
            return damaged("span " + std::to_string(out[i].id) + " is stored twice");
    return out;
}

Status migrateSpanTable(sql::Db& db) {
    auto read = db.prepare("SELECT run, id, module, parent, phase, step, start_ns, end_ns, "
                           "device_ns, flops, bytes, flops_known FROM span ORDER BY run, id");
    auto insert = db.prepare(kInsertChunk);
    if (!read) return read.error();
    if (!insert) return insert.error();
    // A chunk at a time (rows come by run, then id): memory stays bounded.
    std::vector<SpanRow> chunk;
    int64_t chunkRun = 0;
    const auto flush = [&]() -> Status {
        if (chunk.empty()) return Ok{};
        std::vector<const SpanRow*> pointers;
        for (const auto& s : chunk)
            pointers.push_back(&s);
        auto st = insertChunk(*insert, chunkRun, std::move(pointers));
        chunk.clear();
        return st;
    };
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
        if (read->int64(0) != chunkRun || chunk.size() == kMigratedRowsPerChunk)
            if (auto st = flush(); !st) return st;
        chunkRun = read->int64(0);
        chunk.push_back(s);
    }
    if (auto st = flush(); !st) return st;
    return db.exec("DROP TABLE span;");
}

} // namespace mvp
