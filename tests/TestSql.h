#pragma once
// Runs SQL on a session file behind mvprof's back (damaging or downgrading
// it on purpose). Header-only: only tests that link SQLite include it.

#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QByteArray>
#include <QString>
#include <QTest>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sqlite3.h>
#include <string>
#include <tuple>
#include <vector>
#include <zlib.h>

namespace mvp::test {

inline void execSql(const QString& path, const char* sqlText) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sqlText, nullptr, nullptr, &err);
    const QByteArray message = err ? QByteArray(err) : QByteArray();
    sqlite3_free(err);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, message.constData());
}

// A refusal: not ok, with `code` and a message that says `says`.
template <typename R> void expectRefusal(const R& result, ErrorCode code, const char* says) {
    QVERIFY2(!result.ok(), says);
    QCOMPARE(result.error().code, code);
    QVERIFY2(QString::fromStdString(result.error().message).contains(QLatin1String(says)),
             result.error().message.c_str());
}

// Damage done in SQL to a file `write(path)` makes afresh, and the words
// that reading it with `read(reader)` must be refused with; the file itself
// still opens (damage shows when the rows are read).
struct SqlDamage {
    const char* sqlText;
    ErrorCode code;
    const char* says;
};
template <class Write, class Read>
void expectSqlDamageRefused(const std::string& path, std::initializer_list<SqlDamage> cases,
                            Write write, Read read) {
    for (const auto& c : cases) {
        write(path);
        execSql(QString::fromStdString(path), c.sqlText);
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        expectRefusal(read(**r), c.code, c.says);
        if (QTest::currentTestFailed()) return;
    }
}

// A packed table's size: its chunks and the bytes of data per row.
struct PackedSize {
    int64_t chunks = 0;
    double bytesPerRow = 0;
};
inline PackedSize packedSize(const std::string& path, const char* table) {
    PackedSize out;
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        QTest::qFail("cannot open the session", __FILE__, __LINE__);
        return out;
    }
    sqlite3_stmt* st = nullptr;
    const std::string sqlText =
        std::string("SELECT COUNT(*), SUM(length(data)), SUM(rows) FROM ") + table;
    if (sqlite3_prepare_v2(db, sqlText.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 2) > 0) {
        out.chunks = sqlite3_column_int64(st, 0);
        out.bytesPerRow = double(sqlite3_column_int64(st, 1)) / double(sqlite3_column_int64(st, 2));
    } else {
        QTest::qFail("no packed rows", __FILE__, __LINE__);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

// A codec's `data` of `rows` rows is refused, never read as rows, cut at any
// byte, with a byte left over, and with each poke (offset, byte, words the
// refusal says). `decode(bytes, rows)` returns the codec's Status.
struct BytePoke {
    int at;
    char byte;
    const char* says;
};
template <class Decode>
void expectDamagedBytesRefused(const std::string& data, int64_t rows, Decode decode,
                               std::initializer_list<BytePoke> pokes) {
    for (size_t cut = 0; cut < data.size(); ++cut) // every shorter chunk
        QVERIFY2(!decode(data.substr(0, cut), rows).ok(), qPrintable(QString::number(cut)));
    QVERIFY(!decode(data + '\0', rows).ok());
    for (const auto& p : pokes) {
        std::string bad = data;
        bad[size_t(p.at)] = p.byte;
        expectRefusal(decode(bad, rows), ErrorCode::NotASession, p.says);
    }
}

// A session at `path` of one run whose `rows` (`member`: the batch's rows of
// that kind) arrive in `batches` consecutive batches.
template <class Row>
void writeInBatches(const std::string& path, std::vector<Row> Batch::*member,
                    const std::vector<Row>& rows, int batches) {
    auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
    QVERIFY(w.ok());
    auto run = (*w)->beginRun(RunInfo{});
    QVERIFY(run.ok());
    const size_t per = (rows.size() + size_t(batches) - 1) / size_t(batches);
    for (size_t from = 0; from < rows.size(); from += per) {
        Batch batch;
        batch.run = *run;
        (batch.*member)
            .assign(rows.begin() + ptrdiff_t(from),
                    rows.begin() + ptrdiff_t(std::min(rows.size(), from + per)));
        (*w)->submit(std::move(batch));
    }
    QVERIFY((*w)->endRun(*run, RunResult{}).ok());
    QVERIFY((*w)->close().ok());
}

// The writer refuses a row whose key the run holds: `again` sent after
// `rows`, in the same batch and in a later one (`member`: the batch's rows of that kind).
template <class Row>
void expectWriterRefusesTwice(const std::string& path, std::vector<Row> Batch::*member,
                              const std::vector<Row>& rows, const Row& again) {
    for (const bool sameBatch : {true, false}) {
        auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(RunInfo{});
        QVERIFY(run.ok());
        Batch b;
        b.run = *run;
        b.*member = rows;
        if (sameBatch) (b.*member).push_back(again);
        (*w)->submit(std::move(b));
        if (!sameBatch) {
            Batch later;
            later.run = *run;
            later.*member = {again};
            (*w)->submit(std::move(later));
        }
        expectRefusal((*w)->close(), ErrorCode::BadInput, "twice");
    }
}

// Compares an op row read back with the one expected, field by field; the
// caller checks QTest::currentTestFailed(). flopsKnown: compare that too.
inline void compareOps(const OpRow& got, const OpRow& want, bool flopsKnown = true) {
    QCOMPARE(got.id, want.id);
    QCOMPARE(got.span, want.span);
    QCOMPARE(got.parentOp, want.parentOp);
    QCOMPARE(got.name, want.name);
    QVERIFY(got.phase == want.phase);
    QCOMPARE(got.step, want.step);
    QCOMPARE(got.startNs, want.startNs);
    QCOMPARE(got.endNs, want.endNs);
    QCOMPARE(got.shapes, want.shapes);
    QCOMPARE(got.dtype, want.dtype);
    QCOMPARE(got.flops, want.flops);
    QCOMPARE(got.bytes, want.bytes);
    if (flopsKnown) QCOMPARE(got.flopsKnown, want.flopsKnown);
}

// A zlib stream's bytes, inflated by zlib itself (not by mvprof's reader);
// empty, and the test failed, when it does not inflate.
inline std::string zlibInflated(const void* data, int bytes) {
    std::string plain(size_t(bytes) * 64 + (1 << 20), '\0');
    uLongf size = uLongf(plain.size());
    if (uncompress(reinterpret_cast<Bytef*>(plain.data()), &size, static_cast<const Bytef*>(data),
                   uLong(bytes)) != Z_OK) {
        QTest::qFail("a deflated BLOB does not inflate", __FILE__, __LINE__);
        return {};
    }
    plain.resize(size);
    return plain;
}

// Rewrites a session's deflated op chunks (encoding 2, v10) as v5–v9 stored
// them (encoding 1), inflated by zlib itself rather than by mvprof's reader.
// Returns the bytes of op data before and after (deflated, plain).
inline std::pair<size_t, size_t> plainOpChunks(const QString& path) {
    std::pair<size_t, size_t> bytes{0, 0};
    sqlite3* db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK) {
        QTest::qFail("cannot open the session", __FILE__, __LINE__);
        return bytes;
    }
    std::vector<std::tuple<int64_t, int64_t, std::string>> chunks; // run, first id, data
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT run, first_id, data FROM op_chunk WHERE encoding = 2", -1, &st,
                       nullptr);
    while (sqlite3_step(st) == SQLITE_ROW)
        chunks.emplace_back(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                            std::string(static_cast<const char*>(sqlite3_column_blob(st, 2)),
                                        size_t(sqlite3_column_bytes(st, 2))));
    sqlite3_finalize(st);
    for (const auto& [run, firstId, data] : chunks) {
        const std::string plain = zlibInflated(data.data(), int(data.size()));
        if (QTest::currentTestFailed()) break;
        bytes.first += data.size();
        bytes.second += plain.size();
        uint64_t fnv = 14695981039346656037ull; // the checksum docs/format.md defines
        for (const char c : plain)
            fnv = (fnv ^ uint8_t(c)) * 1099511628211ull;
        sqlite3_prepare_v2(db,
                           "UPDATE op_chunk SET encoding = 1, data = ?, checksum = ? "
                           "WHERE run = ? AND first_id = ?",
                           -1, &st, nullptr);
        sqlite3_bind_blob(st, 1, plain.data(), int(plain.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, int64_t(fnv));
        sqlite3_bind_int64(st, 3, run);
        sqlite3_bind_int64(st, 4, firstId);
        if (sqlite3_step(st) != SQLITE_DONE)
            QTest::qFail("cannot rewrite a chunk", __FILE__, __LINE__);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return bytes;
}

// SQL text of an optional id: the number, or NULL.
inline std::string sqlOpt(const std::optional<int64_t>& v) {
    return v ? std::to_string(*v) : std::string("NULL");
}

// Rewrites a session's packed rows of one kind as an older mvprof stored
// them, a row of a table each: `createSql` makes the table, `rows(reader,
// run)` reads a run's rows through the current reader, `values(run, row)`
// is a row's "(…)" for `INSERT INTO table VALUES`, and `dropSql` drops the
// packed form.
template <class Rows, class Values>
void rewriteAsTable(const QString& path, const std::string& createSql, const char* table, Rows rows,
                    Values values, const char* dropSql) {
    std::string sqlText = createSql;
    {
        auto r = SessionReader::open(path.toStdString());
        QVERIFY(r.ok());
        auto runs = (*r)->runs();
        QVERIFY(runs.ok());
        for (const auto& run : *runs) {
            auto got = rows(**r, run.id);
            QVERIFY(got.ok());
            for (const auto& x : *got)
                sqlText +=
                    std::string("INSERT INTO ") + table + " VALUES " + values(run.id, x) + ";";
        }
    }
    execSql(path, (sqlText + dropSql).c_str());
}

// Rewrites a session's routing chunks (v10) as v1–v9 stored them, a row of a
// `routing` table per (layer, token, rank), read back through the current
// reader.
inline void unpackRouting(const QString& path) {
    rewriteAsTable(
        path,
        "CREATE TABLE routing(run INTEGER NOT NULL, layer INTEGER NOT NULL, phase TEXT NOT NULL,"
        " step INTEGER NOT NULL, token INTEGER NOT NULL, modality TEXT NOT NULL, rank INTEGER NOT"
        " NULL, expert INTEGER NOT NULL, weight REAL NOT NULL, PRIMARY KEY(run, layer, token,"
        " rank)) WITHOUT ROWID;",
        "routing", [](SessionReader& r, int64_t run) { return r.routing(run); },
        [](int64_t run, const RoutingRow& x) {
            char weight[32];
            std::snprintf(weight, sizeof weight, "%.17g", x.weight);
            return "(" + std::to_string(run) + "," + std::to_string(x.layer) + ",'" +
                   phaseName(x.phase) + "'," + std::to_string(x.step) + "," +
                   std::to_string(x.token) + ",'" + modalityName(x.modality) + "'," +
                   std::to_string(x.rank) + "," + std::to_string(x.expert) + "," + weight + ")";
        },
        "DROP TABLE routing_chunk;");
}

// Rewrites a session's per-patch matrices (v11) as v10 stored them, a
// plain array per (run, metric, layer), decoding the matrices as
// docs/format.md describes them (zlib itself, not mvprof's reader).
inline void unpackPatchMatrices(const QString& path) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    struct Array {
        int64_t run;
        std::string metric;
        int64_t layer;
        std::string data;
    };
    std::vector<Array> arrays;
    sqlite3_stmt* st = nullptr;
    QCOMPARE(sqlite3_prepare_v2(db,
                                "SELECT run, metric, first_layer, layers, patches, encoding, data "
                                "FROM patch_values",
                                -1, &st, nullptr),
             SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const auto* blob = static_cast<const char*>(sqlite3_column_blob(st, 6));
        std::string all(blob, size_t(sqlite3_column_bytes(st, 6)));
        if (sqlite3_column_int(st, 5) == 2) all = zlibInflated(all.data(), int(all.size()));
        const int64_t layers = sqlite3_column_int64(st, 3), patches = sqlite3_column_int64(st, 4);
        QCOMPARE(int64_t(all.size()), layers * patches * 8);
        for (int64_t l = 0; l < layers; ++l)
            arrays.push_back({sqlite3_column_int64(st, 0),
                              reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                              sqlite3_column_int64(st, 2) + l,
                              all.substr(size_t(l * patches * 8), size_t(patches * 8))});
    }
    sqlite3_finalize(st);
    QCOMPARE(sqlite3_exec(db,
                          "DROP TABLE patch_values; CREATE TABLE patch_values(run INTEGER NOT "
                          "NULL, metric TEXT NOT NULL, layer INTEGER NOT NULL, data BLOB NOT NULL, "
                          "encoding INTEGER NOT NULL DEFAULT 1, UNIQUE(run, metric, layer));",
                          nullptr, nullptr, nullptr),
             SQLITE_OK);
    QCOMPARE(
        sqlite3_prepare_v2(db, "INSERT INTO patch_values VALUES (?,?,?,?,1)", -1, &st, nullptr),
        SQLITE_OK);
    for (const auto& a : arrays) {
        sqlite3_bind_int64(st, 1, a.run);
        sqlite3_bind_text(st, 2, a.metric.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 3, a.layer);
        sqlite3_bind_blob(st, 4, a.data.data(), int(a.data.size()), SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE)
            QTest::qFail("cannot write an array", __FILE__, __LINE__);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

// Rewrites a session's span chunks (v11) as v1–v10 stored them, a row of a
// `span` table per span (with v3's flops_known), read back through the
// current reader.
inline void unpackSpans(const QString& path) {
    rewriteAsTable(
        path,
        "CREATE TABLE span(run INTEGER NOT NULL, id INTEGER NOT NULL, module INTEGER NOT NULL,"
        " parent INTEGER, phase TEXT NOT NULL, step INTEGER NOT NULL, start_ns INTEGER NOT NULL,"
        " end_ns INTEGER NOT NULL, device_ns INTEGER, flops INTEGER NOT NULL, bytes INTEGER NOT"
        " NULL, flops_known INTEGER NOT NULL DEFAULT 1, PRIMARY KEY(run, id)) WITHOUT ROWID;"
        " CREATE INDEX span_by_start ON span(run, start_ns);",
        "span", [](SessionReader& r, int64_t run) { return r.spans(run); },
        [](int64_t run, const SpanRow& x) {
            return "(" + std::to_string(run) + "," + std::to_string(x.id) + "," +
                   std::to_string(x.module) + "," + sqlOpt(x.parent) + ",'" + phaseName(x.phase) +
                   "'," + std::to_string(x.step) + "," + std::to_string(x.startNs) + "," +
                   std::to_string(x.endNs) + "," + sqlOpt(x.deviceNs) + "," +
                   std::to_string(x.flops) + "," + std::to_string(x.bytes) + "," +
                   std::to_string(int(x.flopsKnown)) + ")";
        },
        "DROP TABLE span_chunk;");
}

// Rewrites a session's activity chunks (v11) as v6–v10 stored them, a row of
// a `device_activity` table each, its name an id of `interned`, read back
// through the current reader.
inline void unpackActivities(const QString& path) {
    rewriteAsTable(
        path,
        "CREATE TABLE device_activity(run INTEGER NOT NULL, id INTEGER NOT NULL, kind TEXT NOT"
        " NULL CHECK(kind IN ('kernel','memcpy','memset','runtime','driver')), name INTEGER NOT"
        " NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL, thread INTEGER NOT NULL,"
        " start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER, op INTEGER,"
        " span INTEGER, bytes INTEGER NOT NULL, PRIMARY KEY(run, id)) WITHOUT ROWID;",
        "device_activity", [](SessionReader& r, int64_t run) { return r.activities(run); },
        [](int64_t run, const DeviceActivityRow& a) {
            return "(" + std::to_string(run) + "," + std::to_string(a.id) + ",'" +
                   toString(a.kind) + "',(SELECT id FROM interned WHERE text = '" + a.name + "')," +
                   std::to_string(a.device) + "," + std::to_string(a.stream) + "," +
                   std::to_string(a.thread) + "," + std::to_string(a.startNs) + "," +
                   std::to_string(a.endNs) + "," + sqlOpt(a.correlation) + "," + sqlOpt(a.op) +
                   "," + sqlOpt(a.span) + "," + std::to_string(a.bytes) + ")";
        },
        "DROP TABLE activity_chunk;");
}

// Compares a span read back with the one expected, field by field; the
// caller checks QTest::currentTestFailed(). flopsKnown: compare that too.
inline void compareSpans(const SpanRow& got, const SpanRow& want, bool flopsKnown = true) {
    QCOMPARE(got.id, want.id);
    QCOMPARE(got.module, want.module);
    QCOMPARE(got.parent, want.parent);
    QVERIFY(got.phase == want.phase);
    QCOMPARE(got.step, want.step);
    QCOMPARE(got.startNs, want.startNs);
    QCOMPARE(got.endNs, want.endNs);
    QCOMPARE(got.deviceNs, want.deviceNs);
    QCOMPARE(got.flops, want.flops);
    QCOMPARE(got.bytes, want.bytes);
    if (flopsKnown) QCOMPARE(got.flopsKnown, want.flopsKnown);
}

// Rewrites a session's per-patch arrays (v10, see unpackPatchMatrices) as v9
// stored them: deflated ones (patch_values.encoding 2) inflated by zlib, and
// no encoding column.
inline void plainPatchArrays(const QString& path) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    std::vector<std::tuple<int64_t, std::string, int64_t, std::string>> arrays;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT run, metric, layer, data FROM patch_values WHERE encoding = 2",
                       -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW)
        arrays.emplace_back(sqlite3_column_int64(st, 0),
                            reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                            sqlite3_column_int64(st, 2),
                            zlibInflated(sqlite3_column_blob(st, 3), sqlite3_column_bytes(st, 3)));
    sqlite3_finalize(st);
    for (const auto& [run, metric, layer, plain] : arrays) {
        sqlite3_prepare_v2(db,
                           "UPDATE patch_values SET data = ?, encoding = 1 "
                           "WHERE run = ? AND metric = ? AND layer = ?",
                           -1, &st, nullptr);
        sqlite3_bind_blob(st, 1, plain.data(), int(plain.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, run);
        sqlite3_bind_text(st, 3, metric.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, layer);
        if (sqlite3_step(st) != SQLITE_DONE)
            QTest::qFail("cannot rewrite an array", __FILE__, __LINE__);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    execSql(path, "ALTER TABLE patch_values DROP COLUMN encoding;");
}

// Rewrites a session's packed op rows (v5) as v1–v4 stored them, one per row
// of an `op` table, read back through the current reader: the first step of
// turning a session into what an older mvprof wrote.
inline void unpackOps(const QString& path) {
    rewriteAsTable(
        path,
        "CREATE TABLE op(run INTEGER NOT NULL, id INTEGER NOT NULL, span INTEGER, parent_op"
        " INTEGER, name TEXT NOT NULL, phase TEXT NOT NULL, step INTEGER NOT NULL, start_ns"
        " INTEGER NOT NULL, end_ns INTEGER NOT NULL, shapes TEXT NOT NULL, dtype TEXT NOT NULL,"
        " flops INTEGER NOT NULL, bytes INTEGER NOT NULL, flops_known INTEGER NOT NULL DEFAULT"
        " 1, PRIMARY KEY(run, id)) WITHOUT ROWID; CREATE INDEX op_by_start ON op(run, start_ns);",
        "op", [](SessionReader& r, int64_t run) { return r.ops(run); },
        [](int64_t run, const OpRow& o) {
            return "(" + std::to_string(run) + "," + std::to_string(o.id) + "," + sqlOpt(o.span) +
                   "," + sqlOpt(o.parentOp) + ",'" + o.name + "','" + phaseName(o.phase) + "'," +
                   std::to_string(o.step) + "," + std::to_string(o.startNs) + "," +
                   std::to_string(o.endNs) + ",'" + o.shapes + "','" + o.dtype + "'," +
                   std::to_string(o.flops) + "," + std::to_string(o.bytes) + "," +
                   std::to_string(int(o.flopsKnown)) + ")";
        },
        "DROP TABLE op_chunk; DROP TABLE interned;");
}

// Rewrites a session's per-patch arrays (v9 `patch_values`) as v1–v8 stored
// them, a `patch_metric` row per patch, decoding the arrays as
// docs/format.md describes them (not through mvprof's reader).
inline void unpackPatchValues(const QString& path) {
    std::string sqlText =
        "CREATE TABLE patch_metric(run INTEGER NOT NULL, metric TEXT NOT NULL, layer INTEGER NOT"
        " NULL, patch INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY(run, metric, layer,"
        " patch)) WITHOUT ROWID;";
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    // v10 has an encoding column (2: deflated); v9 none.
    const bool encoded = sqlite3_prepare_v2(db, "SELECT encoding FROM patch_values LIMIT 0", -1,
                                            &st, nullptr) == SQLITE_OK;
    sqlite3_finalize(st);
    QCOMPARE(sqlite3_prepare_v2(db,
                                encoded
                                    ? "SELECT run, metric, layer, data, encoding FROM patch_values"
                                    : "SELECT run, metric, layer, data, 1 FROM patch_values",
                                -1, &st, nullptr),
             SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::string inflated;
        if (sqlite3_column_int(st, 4) == 2)
            inflated = zlibInflated(sqlite3_column_blob(st, 3), sqlite3_column_bytes(st, 3));
        const auto* data = sqlite3_column_int(st, 4) == 2
                               ? reinterpret_cast<const unsigned char*>(inflated.data())
                               : static_cast<const unsigned char*>(sqlite3_column_blob(st, 3));
        const int bytes =
            sqlite3_column_int(st, 4) == 2 ? int(inflated.size()) : sqlite3_column_bytes(st, 3);
        for (int patch = 0; patch * 8 + 8 <= bytes; ++patch) {
            uint64_t bits = 0; // little-endian float64
            for (int b = 7; b >= 0; --b)
                bits = bits << 8 | data[patch * 8 + b];
            double value = 0;
            std::memcpy(&value, &bits, sizeof value);
            if (value != value) continue; // NaN: no value for this patch
            char number[32];
            std::snprintf(number, sizeof number, "%.17g", value);
            sqlText += "INSERT INTO patch_metric VALUES (" +
                       std::to_string(sqlite3_column_int64(st, 0)) + ",'" +
                       reinterpret_cast<const char*>(sqlite3_column_text(st, 1)) + "'," +
                       std::to_string(sqlite3_column_int(st, 2)) + "," + std::to_string(patch) +
                       "," + number + ");";
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    sqlText += "DROP TABLE patch_values;";
    execSql(path, sqlText.c_str());
}

} // namespace mvp::test
