#include "core/session/OpStore.h"

#include "core/session/OpCodec.h"
#include "core/session/RowChecks.h"
#include "core/session/Sqlite.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <sqlite3.h>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace mvp {

namespace {
struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// A chunk's extent, for the op_chunk row beside its data.
struct Extent {
    int64_t firstId = 0, startNs = 0, endNs = 0;
    void add(const PackedOp& r, bool first) {
        firstId = first ? r.id : std::min(firstId, r.id);
        startNs = first ? r.startNs : std::min(startNs, r.startNs);
        endNs = first ? r.endNs : std::max(endNs, r.endNs);
    }
};

// op_total rows by (phase, name) string ids: top-level ops only.
using TotalsByKey = std::map<std::pair<int64_t, int64_t>, OpTotal>;
void addToTotals(TotalsByKey& sums, const PackedOp& r) {
    if (r.parentOp) return;
    auto& t = sums[{r.phase, r.name}];
    t.calls += 1;
    t.flops += r.flops;
    t.bytes += r.bytes;
    t.ns += r.endNs - r.startNs;
    if (r.flopsKnown) t.knownNs += r.endNs - r.startNs;
}

// What a writer summed of a run's ops while encoding them.
struct RunTotals {
    TotalsByKey sums;
    int64_t rows = 0; // every row, nested ones too: compared with the stored count
};
} // namespace

struct OpChunkWriter::Impl {
    sql::Db* db = nullptr;
    sql::Stmt insChunk, insString, delTotals, insTotal;
    std::unordered_map<std::string, int64_t, TextHash, std::equal_to<>> ids;
    // The capture's names are interned for the life of the process, and
    // its phases' and dtypes' names are static strings: their addresses
    // find their ids without hashing the text.
    std::unordered_map<const void*, int64_t> byAddress;
    // A record's shapes by their binary form (count, ranks, dims), so that the
    // text is made once per distinct shape list, not once per row.
    std::unordered_map<std::string, int64_t, TextHash, std::equal_to<>> byDims;
    OpChunkEncoder encoder;
    Extent extent;
    std::string shapes; // reused text buffer
    // Totals as the rows go by, so a run's end need not decode what was just encoded.
    std::unordered_map<int64_t, RunTotals> totals;

    Result<int64_t> intern(std::string_view text);
    Result<int64_t> internAt(const void* key, std::string_view text);
    Result<int64_t> internShapes(const OpRecord& r);
    void add(int64_t run, const PackedOp& row);
    Status store(int64_t run);
};

Result<int64_t> OpChunkWriter::Impl::intern(std::string_view text) {
    if (auto it = ids.find(text); it != ids.end()) return it->second;
    insString.bind(1, text);
    if (auto s = insString.exec(); !s) return s.error();
    const int64_t id = sqlite3_last_insert_rowid(db->handle());
    ids.emplace(std::string(text), id);
    return id;
}

Result<int64_t> OpChunkWriter::Impl::internAt(const void* key, std::string_view text) {
    if (auto it = byAddress.find(key); it != byAddress.end()) return it->second;
    auto id = intern(text);
    if (id) byAddress.emplace(key, *id);
    return id;
}

Result<int64_t> OpChunkWriter::Impl::internShapes(const OpRecord& r) {
    if (!r.overflow.empty()) return intern(r.overflow);
    int dims = 0;
    for (int t = 0; t < r.tensors && t < OpRecord::kMaxTensors; ++t)
        dims += r.rank[t];
    // The capture never fills more than the record holds; a record that
    // claims more has no shapes to trust.
    if (r.tensors > OpRecord::kMaxTensors || dims > OpRecord::kMaxDims) return intern("[]");
    char buf[1 + OpRecord::kMaxTensors + sizeof(r.dims)];
    buf[0] = char(r.tensors);
    std::memcpy(buf + 1, r.rank, r.tensors);
    std::memcpy(buf + 1 + r.tensors, r.dims, size_t(dims) * sizeof(r.dims[0]));
    const std::string_view key(buf, 1 + r.tensors + size_t(dims) * sizeof(r.dims[0]));
    if (auto it = byDims.find(key); it != byDims.end()) return it->second;
    shapes.clear();
    r.appendShapes(shapes);
    auto id = intern(shapes);
    if (id) byDims.emplace(std::string(key), *id);
    return id;
}

void OpChunkWriter::Impl::add(int64_t run, const PackedOp& row) {
    extent.add(row, encoder.rows() == 0);
    encoder.add(row);
    auto& t = totals[run];
    addToTotals(t.sums, row);
    t.rows += 1;
}

Status OpChunkWriter::Impl::store(int64_t run) {
    if (encoder.rows() == 0) return Ok{};
    auto& s = insChunk;
    const std::string deflated = deflateOpChunk(encoder.data());
    s.bind(1, run), s.bind(2, extent.firstId), s.bind(3, encoder.rows()), s.bind(4, extent.startNs),
        s.bind(5, extent.endNs), s.bind(6, kOpChunkDeflated);
    s.bindBlob(7, deflated.data(), deflated.size());
    s.bind(8, int64_t(opChunkChecksum(deflated)));
    auto r = s.exec();
    encoder.clear();
    return r;
}

OpChunkWriter::OpChunkWriter() : d(std::make_unique<Impl>()) {}
OpChunkWriter::~OpChunkWriter() = default;

Status OpChunkWriter::open(sql::Db& db) {
    d->db = &db;
    const std::pair<sql::Stmt*, const char*> statements[] = {
        {&d->insChunk, "INSERT INTO op_chunk VALUES (?,?,?,?,?,?,?,?)"},
        {&d->insString, "INSERT INTO interned(text) VALUES (?)"},
        {&d->delTotals, "DELETE FROM op_total WHERE run=?"},
        {&d->insTotal, "INSERT INTO op_total VALUES (?,?,?,?,?,?,?,?)"},
    };
    for (const auto& [stmt, text] : statements) {
        auto s = db.prepare(text);
        if (!s) return s.error();
        *stmt = std::move(s.value());
    }
    auto known = db.prepare("SELECT id, text FROM interned");
    if (!known) return known.error();
    for (;;) {
        auto has = known->step();
        if (!has) return has.error();
        if (!*has) return Ok{};
        d->ids.emplace(known->text(1), known->int64(0));
    }
}

Status OpChunkWriter::write(int64_t run, const std::vector<OpRecord>& rows) {
    static const std::string none;
    for (const auto& o : rows) {
        const std::string& name = o.name ? *o.name : none;
        const std::string_view phase = toString(o.phase); // a literal: its address is stable
        auto nameId = d->internAt(&name, name);
        auto phaseId = d->internAt(phase.data(), phase);
        const char* dtype = o.dtype ? o.dtype : "";
        auto dtypeId = d->internAt(dtype, dtype);
        auto shapesId = d->internShapes(o);
        for (const auto* r : {&nameId, &phaseId, &dtypeId, &shapesId})
            if (!*r) return r->error();
        d->add(run, PackedOp{o.id, o.span, o.parentOp, *nameId, *phaseId, *shapesId, *dtypeId,
                             o.step, o.startNs, o.endNs, o.flops, o.bytes, o.flopsKnown});
    }
    return d->store(run);
}

Status OpChunkWriter::write(int64_t run, const std::vector<OpRow>& rows) {
    for (const auto& o : rows) {
        auto nameId = d->intern(o.name);
        auto phaseId = d->intern(toString(o.phase));
        auto dtypeId = d->intern(o.dtype);
        auto shapesId = d->intern(o.shapes);
        for (const auto* r : {&nameId, &phaseId, &dtypeId, &shapesId})
            if (!*r) return r->error();
        d->add(run, PackedOp{o.id, o.span.value_or(0), o.parentOp.value_or(0), *nameId, *phaseId,
                             *shapesId, *dtypeId, o.step, o.startNs, o.endNs, o.flops, o.bytes,
                             o.flopsKnown});
    }
    return d->store(run);
}

namespace {
using Strings = std::unordered_map<int64_t, std::string>;

Result<Strings> loadStrings(sql::Db& db) {
    auto st = db.prepare("SELECT id, text FROM interned");
    if (!st) return st.error();
    Strings out;
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) return out;
        out.emplace(st->int64(0), st->text(1));
    }
}

Error damagedOps(const std::string& what) {
    return makeError(ErrorCode::NotASession, "the op rows of this session are damaged (" + what +
                                                 "): copy the session again from its source");
}

// The codec checks a row's structure; these are the ranges docs/format.md promises.
Status checkValues(const PackedOp& r) {
    using namespace rowcheck;
    const auto within = [](int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; };
    if (!within(r.startNs, -kMaxTimeNs, kMaxTimeNs) || !within(r.endNs, -kMaxTimeNs, kMaxTimeNs) ||
        !within(r.step, 0, kMaxPositions) || !within(r.flops, 0, kMaxCount) ||
        !within(r.bytes, 0, kMaxCount))
        return damagedOps("op " + std::to_string(r.id) +
                          " has a step, time, FLOP or byte count "
                          "outside what a capture writes");
    return Ok{};
}

// Calls fn(PackedOp) for every stored op of the run, chunk by chunk, until
// it returns an error.
Status forEachOp(sql::Db& db, int64_t run, const std::function<Status(const PackedOp&)>& fn) {
    auto st = db.prepare(
        "SELECT rows, encoding, data, checksum FROM op_chunk WHERE run=? ORDER BY first_id");
    if (!st) return st.error();
    st->bind(1, run);
    std::string inflated; // a deflated chunk's varints, reused chunk to chunk
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) return Ok{};
        const int64_t encoding = st->int64(1);
        if (encoding != kOpChunkPlain && encoding != kOpChunkDeflated)
            return makeError(ErrorCode::NewerSchema,
                             "this session's op rows use encoding " + std::to_string(encoding) +
                                 ", which this mvprof cannot read: update mvprof");
        std::string_view data = st->blobView(2);
        if (int64_t(opChunkChecksum(data)) != st->int64(3))
            return makeError(ErrorCode::NotASession,
                             "an op chunk of this session is damaged (its bytes do not match their "
                             "checksum): its op rows cannot be read; copy the session again from "
                             "its source");
        if (encoding == kOpChunkDeflated) {
            auto plain = inflateOpChunk(data, st->int64(0), inflated);
            if (!plain) return plain.error();
            data = *plain;
        }
        if (st->int64(0) < 0 || st->int64(0) > int64_t(data.size()))
            return damagedOps("a chunk claims " + std::to_string(st->int64(0)) + " rows");
        OpChunkDecoder decoder(data, st->int64(0));
        PackedOp row;
        for (;;) {
            auto more = decoder.next(row);
            if (!more) return more.error();
            if (!*more) break;
            if (auto ok = checkValues(row); !ok) return ok;
            if (auto ok = fn(row); !ok) return ok;
        }
    }
}

Result<const std::string*> lookUp(const Strings& strings, int64_t id) {
    const auto it = strings.find(id);
    if (it == strings.end())
        return makeError(ErrorCode::NotASession,
                         "an op row of this session names string " + std::to_string(id) +
                             ", which the session does not hold: the file is damaged");
    return &it->second;
}

// A packed row with its strings resolved.
Result<OpRow> resolved(const Strings& strings, const PackedOp& p, int64_t run) {
    const int64_t refs[] = {p.name, p.phase, p.shapes, p.dtype};
    const std::string* text[4];
    for (int i = 0; i < 4; ++i) {
        auto t = lookUp(strings, refs[i]);
        if (!t) return t.error();
        text[i] = *t;
    }
    const auto phase = phaseFromString(*text[1]);
    if (!phase) return rowcheck::unknownPhase(run, "op " + std::to_string(p.id), *text[1]);
    OpRow r{p.id,
            p.span ? std::optional(p.span) : std::nullopt,
            p.parentOp ? std::optional(p.parentOp) : std::nullopt,
            *text[0],
            *phase,
            int(p.step),
            p.startNs,
            p.endNs,
            *text[2],
            *text[3],
            p.flops,
            p.bytes};
    r.flopsKnown = p.flopsKnown;
    return r;
}
} // namespace

Result<std::vector<OpRow>> readOpChunks(sql::Db& db, int64_t run) {
    auto strings = loadStrings(db);
    if (!strings) return strings.error();
    std::vector<PackedOp> packed;
    if (auto s = forEachOp(db, run,
                           [&](const PackedOp& r) -> Status {
                               packed.push_back(r);
                               return Ok{};
                           });
        !s)
        return s.error();
    std::sort(packed.begin(), packed.end(),
              [](const PackedOp& a, const PackedOp& b) { return a.id < b.id; });
    std::vector<OpRow> out;
    out.reserve(packed.size());
    for (const auto& p : packed) {
        auto r = resolved(*strings, p, run);
        if (!r) return r.error();
        out.push_back(std::move(r.value()));
    }
    return out;
}

Status visitOpChunks(sql::Db& db, int64_t run, const std::function<Status(OpRow&&)>& visit) {
    auto strings = loadStrings(db);
    if (!strings) return strings.error();
    return forEachOp(db, run, [&](const PackedOp& p) -> Status {
        auto r = resolved(*strings, p, run);
        if (!r) return r.error();
        return visit(std::move(r.value()));
    });
}

namespace {
Result<std::vector<OpTotal>> resolveTotals(sql::Db& db, int64_t run, TotalsByKey sums) {
    auto strings = loadStrings(db);
    if (!strings) return strings.error();
    std::vector<OpTotal> out;
    for (auto& [key, t] : sums) {
        auto phase = lookUp(*strings, key.first);
        auto name = lookUp(*strings, key.second);
        if (!phase) return phase.error();
        if (!name) return name.error();
        const auto known = phaseFromString(**phase);
        if (!known) return rowcheck::unknownPhase(run, "op_total " + **name, **phase);
        t.phase = *known;
        t.name = **name;
        out.push_back(std::move(t));
    }
    std::sort(out.begin(), out.end(), [](const OpTotal& a, const OpTotal& b) {
        return std::tie(a.phase, a.name) < std::tie(b.phase, b.name);
    });
    return out;
}
} // namespace

Result<std::vector<OpTotal>> sumOpChunks(sql::Db& db, int64_t run) {
    TotalsByKey sums;
    if (auto s = forEachOp(db, run,
                           [&](const PackedOp& r) -> Status {
                               addToTotals(sums, r);
                               return Ok{};
                           });
        !s)
        return s.error();
    return resolveTotals(db, run, std::move(sums));
}

Result<int64_t> countOpChunks(sql::Db& db, int64_t run) {
    auto st = db.prepare("SELECT COALESCE(SUM(rows), 0) FROM op_chunk WHERE run=?");
    if (!st) return st.error();
    st->bind(1, run);
    auto has = st->step();
    if (!has) return has.error();
    return *has ? st->int64(0) : int64_t(0);
}

Result<int64_t> OpChunkWriter::intern(std::string_view text) {
    return d->intern(text);
}

Status OpChunkWriter::writeTotals(int64_t run) {
    // The sums made while encoding hold when this writer wrote every chunk of
    // the run; otherwise (rows from an earlier writer) the chunks are decoded.
    const auto seen = d->totals.find(run);
    auto stored = countOpChunks(*d->db, run);
    if (!stored) return stored.error();
    const bool complete = seen != d->totals.end() && seen->second.rows == *stored;
    auto totals =
        complete ? resolveTotals(*d->db, run, seen->second.sums) : sumOpChunks(*d->db, run);
    if (seen != d->totals.end()) d->totals.erase(seen);
    if (!totals) return totals.error();
    d->delTotals.bind(1, run);
    if (auto s = d->delTotals.exec(); !s) return s;
    for (const auto& t : *totals) {
        auto& s = d->insTotal;
        s.bind(1, run), s.bind(2, t.phase), s.bind(3, t.name), s.bind(4, t.calls),
            s.bind(5, t.flops), s.bind(6, t.bytes), s.bind(7, t.ns), s.bind(8, t.knownNs);
        if (auto r = s.exec(); !r) return r;
    }
    return Ok{};
}

Status migrateOpTable(sql::Db& db) {
    OpChunkWriter writer;
    if (auto s = writer.open(db); !s) return s;
    auto st = db.prepare("SELECT run, id, span, parent_op, name, phase, step, start_ns, end_ns,"
                         " shapes, dtype, flops, bytes, flops_known FROM op ORDER BY run, id");
    if (!st) return st.error();
    constexpr size_t kChunkRows = 8192; // what the capture hands over at a time
    std::vector<OpRow> rows;
    int64_t run = 0;
    auto opt = [&](int col) {
        return st->isNull(col) ? std::nullopt : std::optional<int64_t>(st->int64(col));
    };
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has || st->int64(0) != run || rows.size() == kChunkRows) {
            if (auto s = writer.write(run, rows); !s) return s;
            rows.clear();
        }
        if (!*has) return Ok{};
        run = st->int64(0);
        const auto phase = phaseFromString(st->text(5));
        if (!phase)
            return rowcheck::unknownPhase(run, "op " + std::to_string(st->int64(1)), st->text(5));
        OpRow r{st->int64(1),      opt(2),       opt(3),       st->text(4), *phase,
                int(st->int64(6)), st->int64(7), st->int64(8), st->text(9), st->text(10),
                st->int64(11),     st->int64(12)};
        r.flopsKnown = st->int64(13) != 0;
        rows.push_back(std::move(r));
    }
}

} // namespace mvp
