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
constexpr const char* kRowsWhat = "the device activity rows";

Error damaged(const std::string& what) {
    return damagedRows(kRowsWhat, what);
}

// A row's flags (docs/format.md): which optional links follow.
constexpr uint64_t kHasCorrelation = 1, kHasOp = 2, kHasSpan = 4;
constexpr uint64_t kAllFlags = kHasCorrelation | kHasOp | kHasSpan;
// Kind codes: ActivityKind's order, as docs/format.md lists them.
static_assert(int(ActivityKind::Kernel) == 0 && int(ActivityKind::Driver) == 4);
constexpr uint64_t kKinds = 5;

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

const ChunkTable<PackedActivity>& activityChunks() {
    static const ChunkTable<PackedActivity> table{"activity_chunk",   kRowsWhat,
                                                  "device activity",  kMaxActivityRowBytes,
                                                  encodeActivityRows, decodeActivityRows};
    return table;
}

Status ActivityChunkWriter::open(sql::Db& db, OpChunkWriter& strings) {
    strings_ = &strings;
    return chunks_.open(db);
}

Status ActivityChunkWriter::write(int64_t run, const std::vector<DeviceActivityRow>& rows) {
    packed_.clear();
    packed_.reserve(rows.size());
    for (const auto& a : rows) {
        auto name = strings_->intern(a.name);
        if (!name) return name.error();
        packed_.push_back({a.id, a.kind, *name, a.device, a.stream, a.thread, a.startNs, a.endNs,
                           a.correlation, a.op, a.span, a.bytes});
    }
    return chunks_.write(run, packed_);
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
    auto packed = activityChunks().read(db, run);
    if (!packed) return packed.error();
    std::unordered_map<int64_t, std::string> names;
    if (!packed->empty()) {
        auto strings = internedStrings(db);
        if (!strings) return strings.error();
        names = std::move(*strings);
    }
    std::vector<DeviceActivityRow> out;
    out.reserve(packed->size());
    for (const auto& p : *packed) {
        const std::string where = "device_activity " + std::to_string(p.id);
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
    auto insert = db.prepare(activityChunks().insertSql());
    if (!read) return read.error();
    if (!insert) return insert.error();
    ChunkMigration<PackedActivity> chunks(activityChunks(), *insert);
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
        if (auto st = chunks.add(read->int64(0), a); !st) return st;
    }
    if (auto st = chunks.finish(); !st) return st;
    return db.exec("DROP TABLE device_activity;");
}

} // namespace mvp
