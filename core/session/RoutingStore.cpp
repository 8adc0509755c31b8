#include "core/session/RoutingStore.h"

#include "core/session/Deflate.h"
#include "core/session/RoutingCodec.h"
#include "core/session/RowChecks.h"
#include "core/session/Varint.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace mvp {

namespace {
Error damaged(const std::string& what) {
    return makeError(ErrorCode::NotASession, "the routing rows of this session are damaged (" +
                                                 what +
                                                 "): copy the session again from its source");
}

// Rows grouped by layer, each group in the order given.
std::map<int, std::vector<const RoutingRow*>> byLayer(const std::vector<RoutingRow>& rows) {
    std::map<int, std::vector<const RoutingRow*>> layers;
    for (const auto& r : rows)
        layers[r.layer].push_back(&r);
    return layers;
}

Status insertChunk(sql::Stmt& insert, int64_t run, int layer,
                   const std::vector<const RoutingRow*>& rows) {
    const std::string data = deflateBlob(encodeRoutingRows(rows));
    insert.bind(1, run), insert.bind(2, layer), insert.bind(3, int64_t(rows.size())),
        insert.bind(4, kRoutingDeflated);
    insert.bindBlob(5, data.data(), data.size());
    insert.bind(6, int64_t(varint::fnv1a(data)));
    return insert.exec();
}

constexpr const char* kInsertChunk =
    "INSERT INTO routing_chunk(run, layer, rows, encoding, data, checksum) VALUES (?,?,?,?,?,?)";
} // namespace

Status RoutingChunkWriter::open(sql::Db& db) {
    db_ = &db;
    auto st = db.prepare(kInsertChunk);
    if (!st) return st.error();
    insert_ = std::move(st.value());
    return Ok{};
}

bool KeptSlots::insert(int token, int rank) {
    if (token < 0 || token >= rowcheck::kMaxPositions || rank < 0 || rank >= rowcheck::kMaxTopK)
        return outside_.emplace(token, rank).second;
    if (size_t(rank) >= byRank_.size()) byRank_.resize(size_t(rank) + 1);
    auto& bits = byRank_[size_t(rank)];
    if (size_t(token) >= bits.size()) bits.resize(std::max(size_t(token) + 1, bits.size() * 2));
    if (bits[size_t(token)]) return false;
    bits[size_t(token)] = true;
    return true;
}

Status RoutingChunkWriter::write(int64_t run, const std::vector<RoutingRow>& rows) {
    if (rows.empty()) return Ok{};
    auto known = kept_.find(run);
    if (known == kept_.end()) { // a run this writer has not written to: what it holds already
        auto held = readRoutingChunks(*db_, run);
        if (!held) return held.error();
        known = kept_.emplace(run, std::map<int, KeptSlots>{}).first;
        for (const auto& r : *held)
            known->second[r.layer].insert(r.token, r.rank);
    }
    for (const auto& r : rows)
        if (!known->second[r.layer].insert(r.token, r.rank))
            return makeError(ErrorCode::BadInput,
                             "routing of layer " + std::to_string(r.layer) + ", token " +
                                 std::to_string(r.token) + ", rank " + std::to_string(r.rank) +
                                 " of run " + std::to_string(run) +
                                 " was written twice: a token's expert choice is recorded once");
    for (const auto& [layer, group] : byLayer(rows))
        if (auto s = insertChunk(insert_, run, layer, group); !s) return s;
    return Ok{};
}

Result<std::vector<RoutingRow>> readRoutingChunks(sql::Db& db, int64_t run) {
    auto st = db.prepare("SELECT layer, rows, encoding, data, checksum FROM routing_chunk "
                         "WHERE run=? ORDER BY layer, rowid");
    if (!st) return st.error();
    st->bind(1, run);
    std::vector<RoutingRow> out;
    std::string inflated;
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) break;
        const int64_t layer = st->int64(0), rows = st->int64(1), encoding = st->int64(2);
        if (encoding != kRoutingPlain && encoding != kRoutingDeflated)
            return makeError(ErrorCode::NewerSchema,
                             "this session's routing rows use encoding " +
                                 std::to_string(encoding) +
                                 ", which this mvprof cannot read: update mvprof");
        std::string_view data = st->blobView(3);
        if (int64_t(varint::fnv1a(data)) != st->int64(4))
            return damaged("a chunk's bytes do not match their checksum");
        if (rows < 0 || uint64_t(rows) > (uint64_t(1) << 32) / kMaxRoutingRowBytes ||
            layer < std::numeric_limits<int32_t>::min() ||
            layer > std::numeric_limits<int32_t>::max())
            return damaged("a chunk claims " + std::to_string(rows) + " rows of layer " +
                           std::to_string(layer));
        if (encoding == kRoutingDeflated) {
            auto plain = inflateBlob(data, size_t(rows) * kMaxRoutingRowBytes, inflated);
            if (!plain) return damaged(plain.error().message);
            data = *plain;
        }
        if (auto s = decodeRoutingRows(data, rows, int(layer), out); !s) return s.error();
    }
    const auto key = [](const RoutingRow& r) { return std::tuple(r.layer, r.token, r.rank); };
    std::stable_sort(out.begin(), out.end(),
                     [&](const RoutingRow& a, const RoutingRow& b) { return key(a) < key(b); });
    for (size_t i = 1; i < out.size(); ++i)
        if (key(out[i]) == key(out[i - 1]))
            return damaged("layer " + std::to_string(out[i].layer) + ", token " +
                           std::to_string(out[i].token) + ", rank " + std::to_string(out[i].rank) +
                           " is stored twice");
    return out;
}

Status migrateRoutingTable(sql::Db& db) {
    auto read = db.prepare("SELECT run, layer, phase, step, token, modality, rank, expert, weight "
                           "FROM routing ORDER BY run, layer, token, rank");
    auto insert = db.prepare(kInsertChunk);
    if (!read) return read.error();
    if (!insert) return insert.error();
    std::map<std::pair<int64_t, int>, std::vector<RoutingRow>> groups;
    for (;;) {
        auto has = read->step();
        if (!has) return has.error();
        if (!*has) break;
        RoutingRow r;
        r.layer = read->int32(1);
        const auto phase = phaseFromString(read->text(2));
        const auto modality = modalityFromString(read->text(5));
        if (!phase || *phase == Phase::None || !modality)
            return damaged("a routing row of layer " + std::to_string(r.layer) +
                           " names an unknown phase or modality");
        r.phase = *phase, r.modality = *modality;
        r.step = read->int32(3), r.token = read->int32(4), r.rank = read->int32(6),
        r.expert = read->int32(7), r.weight = read->real(8);
        groups[{read->int64(0), r.layer}].push_back(r);
    }
    for (const auto& [key, rows] : groups) {
        std::vector<const RoutingRow*> pointers;
        for (const auto& r : rows)
            pointers.push_back(&r);
        if (auto s = insertChunk(*insert, key.first, key.second, pointers); !s) return s;
    }
    return db.exec("DROP TABLE routing;");
}

} // namespace mvp
