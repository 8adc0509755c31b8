#include "core/session/ActivityStore.h"

#include "core/session/OpStore.h"
#include "core/session/RowChecks.h"
#include "core/session/Varint.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace mvp {

using namespace varint;

namespace {
const std::string kRowsWhat = "the device activity";

Error damaged(const std::string& what) {
    return makeError(ErrorCode::NotASession, kRowsWhat + " of this session is damaged (" + what +
                                                 "): copy the session again from its source");
}

// A row's flags (docs/format.md): which optional links follow.
constexpr uint64_t kHasCorrelation = 1, kHasOp = 2, kHasSpan = 4;
constexpr uint64_t kAllFlags = kHasCorrelation | kHasOp | kHasSpan;
// Kind codes: ActivityKind's order, as docs/format.md lists them.
static_assert(int(ActivityKind::Kernel) == 0 && int(ActivityKind::Driver) == 4);
constexpr uint64_t kKinds = 5;

// Rows per chunk when the migration moves a run's table.
constexpr size_t kMigratedRowsPerChunk = 65536;

constexpr const char* kInsertChunk = "INSERT INTO activity_chunk(run, first_id, rows, encoding, "
                                     "data, checksum) VALUES (?,?,?,?,?,?)";

// The rows (ordered by id here) as one chunk.
Status insertChunk(sql::Stmt& insert, int64_t run, std::vector<const PackedActivity*> rows) {
    std::sort(rows.begin(), rows.end(),
              [](const PackedActivity* a, const PackedActivity* b) { return a->id < b->id; });
    const PackedChunk chunk = packChunk(encodeActivityRows(rows));
    insert.bind(1, run), insert.bind(2, rows.front()->id), insert.bind(3, int64_t(rows.size())),
        insert.bind(4, kChunkDeflated);
    insert.bindBlob(5, chunk.data.data(), chunk.data.size());
    insert.bind(6, chunk.checksum);
    return insert.exec();
}

// The last value of each optional link, for the next row's difference.
struct Links {
    int64_t correlation = 0, op = 0, span = 0;
};

// What each difference starts from (docs/format.md: all zero before the first
// row; a PackedActivity's defaults are -1 for none).
PackedActivity zeroRow() {
    PackedActivity r;
    r.device = r.stream = r.thread = 0;
    return r;
}

int saturatedInt(int64_t v) {
    return int(
        std::clamp<int64_t>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}
} // namespace

std::string encodeActivityRows(const std::vector<const PackedActivity*>& rows) {
    std::string out;
    out.reserve(rows.size() * 20);
    PackedActivity prev = zeroRow();
    Links last;
    char row[kMaxActivityRowBytes];
    for (const PackedActivity* r : rows) {
        char* p = row;
        p = put(p, (r->correlation ? kHasCorrelation : 0) | (r->op ? kHasOp : 0) |
                       (r->span ? kHasSpan : 0));
        p = put(p, zigzag(minus(r->id, prev.id)));
        p = put(p, uint64_t(r->kind));
        p = put(p, zigzag(r->name));
        p = put(p, zigzag(r->device));
        p = put(p, zigzag(minus(r->stream, prev.stream)));
        p = put(p, zigzag(minus(r->thread, prev.thread)));
        p = put(p, zigzag(minus(r->startNs, prev.startNs)));
        p = put(p, zigzag(minus(r->endNs, r->startNs)));
        for (const auto& [link, lastValue] :
             {std::pair{&r->correlation, &last.correlation}, std::pair{&r->op, &last.op},
              std::pair{&r->span, &last.span}})
            if (*link) {
                p = put(p, zigzag(minus(**link, *lastValue)));
                *lastValue = **link;
            }
        p = put(p, zigzag(r->bytes));
        out.append(row, size_t(p - row));
        prev = *r;
    }
    return out;
}

Status decodeActivityRows(std::string_view data, int64_t rows, std::vector<PackedActivity>& out) {
    Reader in{data};
    PackedActivity prev = zeroRow();
    Links last;
    for (int64_t i = 0; i < rows; ++i) {
        PackedActivity r;
        const uint64_t flags = in.get();
        r.id = plus(prev.id, unzigzag(in.get()));
        const uint64_t kind = in.get();
        r.name = unzigzag(in.get());
        r.device = unzigzag(in.get());
        r.stream = plus(prev.stream, unzigzag(in.get()));
        r.thread = plus(prev.thread, unzigzag(in.get()));
        r.startNs = plus(prev.startNs, unzigzag(in.get()));
        r.endNs = plus(r.startNs, unzigzag(in.get()));
        for (const auto& [bit, link, lastValue] :
             {std::tuple{kHasCorrelation, &r.correlation, &last.correlation},
              std::tuple{kHasOp, &r.op, &last.op}, std::tuple{kHasSpan, &r.span, &last.span}})
            if (flags & bit) {
                *lastValue = plus(*lastValue, unzigzag(in.get()));
                *link = *lastValue;
            }
        r.bytes = unzigzag(in.get());
        if (in.cut) return damaged("a row is cut off");
        if (flags & ~kAllFlags) return damaged("unknown row flags " + std::to_string(flags));
        if (kind >= kKinds) return damaged("kind code " + std::to_string(kind));
        r.kind = ActivityKind(kind);
        out.push_back(r);
        prev = r;
    }
    if (in.at != data.size()) return damaged("bytes after a chunk's last row");
    return Ok{};
}

Status ActivityChunkWriter::open(sql::Db& db, OpChunkWriter& strings) {
    db_ = &db;
    strings_ = &strings;
    auto st = db.prepare(kInsertChunk);
    if (!st) return st.error();
    insert_ = std::move(st.value());
    return Ok{};
}

Status ActivityChunkWriter::write(int64_t run, const std::vector<DeviceActivityRow>& rows) {
    if (rows.empty()) return Ok{};
    auto known = ids_.find(run);
    if (known == ids_.end()) { // a run this writer has not written to: what it holds already
        auto held = readActivityChunks(*db_, run);
        if (!held) return held.error();
        known = ids_.emplace(run, KeptIds{}).first;
        for (const auto& a : *held)
            known->second.insert(a.id);
    }
    std::vector<PackedActivity> packed;
    packed.reserve(rows.size());
    for (const auto& a : rows) {
        if (!known->second.insert(a.id))
            return makeError(ErrorCode::BadInput, "device activity " + std::to_string(a.id) +
                                                      " of run " + std::to_string(run) +
                                                      " was written twice: its ids are unique "
                                                      "within a run");
        auto name = strings_->intern(a.name);
        if (!name) return name.error();
        packed.push_back({a.id, a.kind, *name, a.device, a.stream, a.thread, a.startNs, a.endNs,
                          a.correlation, a.op, a.span, a.bytes});
    }
    std::vector<const PackedActivity*> pointers;
    pointers.reserve(packed.size());
    for (const auto& a : packed)
        pointers.push_back(&a);
    return insertChunk(insert_, run, std::move(pointers));
}

namespace {
Result<std::unordered_map<int64_t, std::string>> internedStrings(sql::Db& db) {
    auto st = db.prepare("SELECT id, text FROM interned");
    if (!st) return st.error();
    std::unordered_map<int64_t, std::string> out;
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) return out;
        out.emplace(st->int64(0), st->text(1));
    }
}
} // namespace

Result<std::vector<DeviceActivityRow>> readActivityChunks(sql::Db& db, int64_t run) {
    auto st = db.prepare("SELECT rows, encoding, data, checksum FROM activity_chunk WHERE run=? "
                         "ORDER BY first_id");
    if (!st) return st.error();
    st->bind(1, run);
    std::vector<PackedActivity> packed;
    std::string inflated; // reused chunk to chunk
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) break;
        const StoredChunk chunk{st->int64(0), st->int64(1), st->int64(3), st->blobView(2)};
        auto data = chunkBytes(chunk, kMaxActivityRowBytes, kRowsWhat, inflated);
        if (!data) return data.error();
        if (auto s = decodeActivityRows(*data, chunk.rows, packed); !s) return s.error();
    }
    // Chunks come in order of their first ids, each in id order.
    std::stable_sort(packed.begin(), packed.end(),
                     [](const PackedActivity& a, const PackedActivity& b) { return a.id < b.id; });
    std::unordered_map<int64_t, std::string> names;
    if (!packed.empty()) {
        auto strings = internedStrings(db);
        if (!strings) return strings.error();
        names = std::move(*strings);
    }
    std::vector<DeviceActivityRow> out;
    out.reserve(packed.size());
    for (const auto& p : packed) {
        const std::string where = "device_activity " + std::to_string(p.id);
        if (!out.empty() && out.back().id == p.id)
            return rowcheck::damaged(run, where, "it is stored twice");
        const auto name = names.find(p.name);
        if (name == names.end())
            return rowcheck::damaged(
                run, where, "its name id " + std::to_string(p.name) + " is not an interned string");
        out.push_back({p.id, p.kind, name->second, saturatedInt(p.device), p.stream, p.thread,
                       p.startNs, p.endNs, p.correlation, p.op, p.span, p.bytes});
    }
    return out;
}

Status migrateActivityTable(sql::Db& db) {
    auto read = db.prepare("SELECT run, id, kind, name, device, stream, thread, start_ns, end_ns, "
                           "correlation, op, span, bytes FROM device_activity ORDER BY run, id");
    auto insert = db.prepare(kInsertChunk);
    if (!read) return read.error();
    if (!insert) return insert.error();
    // A chunk at a time (rows come by run, then id): memory stays bounded.
    std::vector<PackedActivity> chunk;
    int64_t chunkRun = 0;
    const auto flush = [&]() -> Status {
        if (chunk.empty()) return Ok{};
        std::vector<const PackedActivity*> pointers;
        for (const auto& a : chunk)
            pointers.push_back(&a);
        auto st = insertChunk(*insert, chunkRun, std::move(pointers));
        chunk.clear();
        return st;
    };
    for (;;) {
        auto has = read->step();
        if (!has) return has.error();
        if (!*has) break;
        PackedActivity a;
        a.id = read->int64(1);
        const auto kind = activityKindFromString(read->text(2));
        if (!kind)
            return damaged("device activity " + std::to_string(a.id) + " has kind '" +
                           read->text(2) + "'");
        a.kind = *kind, a.name = read->int64(3), a.device = read->int64(4),
        a.stream = read->int64(5), a.thread = read->int64(6), a.startNs = read->int64(7),
        a.endNs = read->int64(8), a.correlation = read->optInt64(9), a.op = read->optInt64(10),
        a.span = read->optInt64(11), a.bytes = read->int64(12);
        if (read->int64(0) != chunkRun || chunk.size() == kMigratedRowsPerChunk)
            if (auto st = flush(); !st) return st;
        chunkRun = read->int64(0);
        chunk.push_back(a);
    }
    if (auto st = flush(); !st) return st;
    return db.exec("DROP TABLE device_activity;");
}

} // namespace mvp
