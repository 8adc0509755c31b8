// Packed op rows (format v5): the encoding round-trips every value, damage
// at byte level is an error and never a number, the capture's records and
// plain rows read back field for field, and a run's totals are the sums of
// its rows whether stored at its end or summed from its chunks.
#include "TestSql.h"
#include "core/session/Deflate.h"
#include "core/session/OpCodec.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <limits>
#include <map>
#include <sqlite3.h>
#include <zlib.h>

using namespace mvp;

namespace {
PackedOp randomOp(QRandomGenerator& rng, int64_t id) {
    auto big = [&] { return int64_t(rng.generate64() >> 2); };
    PackedOp r;
    r.id = id;
    r.span = rng.bounded(4) == 0 ? 0 : int64_t(rng.bounded(100000));
    r.parentOp = id > 1 && rng.bounded(3) == 0 ? 1 + int64_t(rng.bounded(int(id - 1))) : 0;
    r.name = 1 + rng.bounded(300);
    r.phase = 1 + rng.bounded(6);
    r.shapes = 1 + int64_t(rng.bounded(1 << 20));
    r.dtype = 1 + rng.bounded(4);
    r.step = rng.bounded(64);
    r.startNs = rng.bounded(10) == 0 ? big() : int64_t(rng.bounded(1 << 30));
    r.endNs = r.startNs + int64_t(rng.bounded(1 << 24));
    r.flops = rng.bounded(5) == 0 ? big() : int64_t(rng.bounded(1000));
    r.bytes = rng.bounded(7) == 0 ? 0 : int64_t(rng.bounded(1 << 28));
    r.flopsKnown = rng.bounded(2) == 1;
    return r;
}

bool same(const PackedOp& a, const PackedOp& b) {
    return a.id == b.id && a.span == b.span && a.parentOp == b.parentOp && a.name == b.name &&
           a.phase == b.phase && a.shapes == b.shapes && a.dtype == b.dtype && a.step == b.step &&
           a.startNs == b.startNs && a.endNs == b.endNs && a.flops == b.flops &&
           a.bytes == b.bytes && a.flopsKnown == b.flopsKnown;
}

// Decodes a whole chunk: the rows, or the error's message.
Result<std::vector<PackedOp>> decodeAll(std::string_view data, int64_t rows) {
    OpChunkDecoder d(data, rows);
    std::vector<PackedOp> out;
    PackedOp r;
    for (;;) {
        auto more = d.next(r);
        if (!more) return more.error();
        if (!*more) return out;
        out.push_back(r);
    }
}

OpRecord record(int64_t id, const std::string* name, Phase phase) {
    OpRecord r;
    r.id = id;
    r.span = id % 5;
    r.parentOp = id % 4 == 0 ? id - 1 : 0;
    r.name = name;
    r.phase = phase;
    r.dtype = id % 2 ? "Float" : "Half";
    r.step = int(id / 10);
    r.startNs = 1000 * id;
    r.endNs = 1000 * id + 10 + id % 7;
    r.flops = id % 3 ? 2 * id : 0;
    r.flopsKnown = id % 3 != 0;
    r.bytes = 16 * id;
    r.tensors = 2;
    r.rank[0] = 2, r.rank[1] = 1;
    r.dims[0] = id % 4 + 1, r.dims[1] = 64, r.dims[2] = 64;
    if (id % 11 == 0) r.overflow = "[[1],[2],[3],[4],[5],[6],[7],[8],[9]]"; // a long cat
    if (id == 13) r.tensors = 200; // more than a record holds: no shapes, no overrun
    return r;
}
} // namespace

class TestOpChunks : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    std::string file(const char* name) {
        return dir.filePath(QString::fromUtf8(name)).toStdString();
    }

    // A session with one run of `n` capture records; `end`: the run is ended.
    void writeRecords(const std::string& path, int64_t n, bool end) {
        static const std::string names[] = {"aten::linear", "aten::addmm", "aten::cat"};
        static const Phase phases[] = {Phase::Prefill, Phase::Decode};
        auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
        QVERIFY(w.ok());
        RunInfo info;
        info.label = "baseline";
        auto run = (*w)->beginRun(info);
        QVERIFY(run.ok());
        for (int64_t first = 1; first <= n; first += 1000) {
            Batch b;
            b.run = *run;
            for (int64_t id = first; id < std::min(n + 1, first + 1000); ++id)
                b.opRecords.push_back(record(id, &names[id % 3], phases[id > n / 2 ? 1 : 0]));
            (*w)->submit(std::move(b));
        }
        if (end) QVERIFY((*w)->endRun(*run, RunResult{}).ok());
        QVERIFY((*w)->flush().ok());
        QVERIFY((*w)->close().ok());
    }

    // Run 1's op rows, none when the session or its rows cannot be read.
    static std::vector<OpRow> readOps(const std::string& path) {
        auto r = SessionReader::open(path);
        if (!r.ok()) return {};
        auto ops = (*r)->ops(1);
        return ops.ok() ? *ops : std::vector<OpRow>{};
    }

private slots:
    void encodingRoundTripsEveryValue() {
        QRandomGenerator rng(7);
        OpChunkEncoder e;
        std::vector<PackedOp> rows;
        for (int64_t id = 1; id <= 5000; ++id) {
            // Out of order, as a parent finishes after its nested ops.
            rows.push_back(randomOp(rng, id % 3 == 0 ? id + 1 : id % 3 == 1 ? id + 1 : id - 1));
            e.add(rows.back());
        }
        PackedOp extreme; // the ends of every range
        extreme.id = std::numeric_limits<int64_t>::max();
        extreme.startNs = std::numeric_limits<int64_t>::min() / 2;
        extreme.endNs = std::numeric_limits<int64_t>::max() / 2;
        extreme.flops = std::numeric_limits<int64_t>::max();
        extreme.bytes = -1;
        rows.push_back(extreme);
        e.add(extreme);
        auto back = decodeAll(e.data(), e.rows());
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(same((*back)[i], rows[i]), qPrintable(QString::number(i)));
    }

    void damagedBytesAreAnErrorNeverARow() {
        QRandomGenerator rng(11);
        OpChunkEncoder e;
        for (int64_t id = 1; id <= 40; ++id)
            e.add(randomOp(rng, id));
        const std::string data = e.data();
        // Cut anywhere: the chunk says 40 rows, fewer bytes cannot hold them.
        for (size_t n = 0; n < data.size(); ++n) {
            auto r = decodeAll(std::string_view(data).substr(0, n), 40);
            QVERIFY2(!r.ok(), qPrintable(QString::number(n)));
            QCOMPARE(r.error().code, ErrorCode::NotASession);
            QVERIFY(QString::fromStdString(r.error().message).contains(QStringLiteral("damaged")));
        }
        QVERIFY(!decodeAll(data + '\0', 40).ok()); // bytes after the last row
        QVERIFY(!decodeAll(data, 41).ok());        // a row count the bytes do not hold
        QVERIFY(!decodeAll(data, 39).ok());
        QVERIFY(!decodeAll(std::string(12, '\xff'), 1).ok()); // a number longer than 64 bits
        // A flipped bit may still decode: the checksum is what catches it.
        std::string flipped = data;
        flipped[data.size() / 2] = char(flipped[data.size() / 2] ^ 0x04);
        QVERIFY(opChunkChecksum(flipped) != opChunkChecksum(data));
    }

    void recordsReadBackFieldForField() {
        const auto path = file("records.mvprof");
        writeRecords(path, 2500, true);
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        auto ops = (*r)->ops(1);
        QVERIFY2(ops.ok(), ops.ok() ? "" : ops.error().message.c_str());
        QCOMPARE(ops->size(), size_t(2500));
        QCOMPARE((*r)->opCount(1).value(), int64_t(2500));
        static const std::string names[] = {"aten::linear", "aten::addmm", "aten::cat"};
        static const Phase phases[] = {Phase::Prefill, Phase::Decode};
        for (const OpRow& o : *ops) {
            const OpRecord rec = record(o.id, &names[o.id % 3], phases[o.id > 1250 ? 1 : 0]);
            OpRow want{rec.id,
                       rec.span ? std::optional(rec.span) : std::nullopt,
                       rec.parentOp ? std::optional(rec.parentOp) : std::nullopt,
                       *rec.name,
                       rec.phase,
                       rec.step,
                       rec.startNs,
                       rec.endNs,
                       {},
                       rec.dtype,
                       rec.flops,
                       rec.bytes};
            rec.appendShapes(want.shapes);
            want.flopsKnown = rec.flopsKnown;
            test::compareOps(o, want);
            if (QTest::currentTestFailed()) return;
        }
        QCOMPARE(ops->at(10).shapes, std::string("[[1],[2],[3],[4],[5],[6],[7],[8],[9]]"));
        QCOMPARE(ops->at(12).shapes, std::string("[]"));
    }

    // Sums by hand over the rows; the stored totals (ended run) and the ones
    // summed from chunks (a killed run has none stored) must both match.
    void totalsAreTheRowsSums() {
        for (const bool ended : {true, false}) {
            const auto path = file(ended ? "ended.mvprof" : "killed.mvprof");
            writeRecords(path, 3000, ended);
            auto r = SessionReader::open(path);
            QVERIFY(r.ok());
            std::map<std::pair<Phase, std::string>, OpTotal> want;
            const auto ops = (*r)->ops(1);
            QVERIFY(ops.ok());
            for (const OpRow& o : *ops) {
                if (o.parentOp) continue;
                OpTotal& t = want[{o.phase, o.name}];
                t.calls += 1, t.flops += o.flops, t.bytes += o.bytes, t.ns += o.endNs - o.startNs;
                if (o.flopsKnown) t.knownNs += o.endNs - o.startNs;
            }
            auto totals = (*r)->opTotals(1);
            QVERIFY(totals.ok());
            QCOMPARE(totals->size(), want.size());
            for (const OpTotal& t : *totals) {
                const OpTotal& w = want.at({t.phase, t.name});
                QCOMPARE(t.calls, w.calls);
                QCOMPARE(t.flops, w.flops);
                QCOMPARE(t.bytes, w.bytes);
                QCOMPARE(t.ns, w.ns);
                QCOMPARE(t.knownNs, w.knownNs);
            }
        }
    }

    // The figure the format exists for: bytes per op in the file's op data.
    void opsTakeUnderThirtyBytes() {
        const auto path = file("compact.mvprof");
        writeRecords(path, 20000, true);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "SELECT SUM(length(data)), SUM(rows) FROM op_chunk", -1,
                                    &st, nullptr),
                 SQLITE_OK);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        const double perOp =
            double(sqlite3_column_int64(st, 0)) / double(sqlite3_column_int64(st, 1));
        sqlite3_finalize(st);
        sqlite3_close(db);
        QVERIFY2(perOp < 30, qPrintable(QString::number(perOp)));
    }

    // v10 deflates chunks; an older session's plain ones (encoding 1) read
    // to the same rows. The plain bytes come from zlib itself, not from
    // mvprof's inflate.
    void plainAndDeflatedChunksReadAlike() {
        const auto path = file("plain.mvprof");
        writeRecords(path, 20000, true);
        const auto before = readOps(path);
        QCOMPARE(before.size(), size_t(20000));
        const auto [deflated, plain] = test::plainOpChunks(QString::fromStdString(path));
        QVERIFY2(deflated > 0 && deflated * 2 < plain,
                 qPrintable(QStringLiteral("%1 deflated, %2 plain").arg(deflated).arg(plain)));
        const auto after = readOps(path);
        QCOMPARE(after.size(), before.size());
        for (size_t i = 0; i < after.size() && !QTest::currentTestFailed(); ++i)
            test::compareOps(after[i], before[i]);
    }

    // Inflating grows its buffer as the stream needs (from 4× the stream's
    // size, doubling): 1 MiB of a pattern from a stream of ~4 KB comes back
    // whole; one byte less of room is a refusal; a larger reused buffer is
    // bounded by the limit, not by its size.
    void inflateGrowsToWhatTheStreamHolds() {
        std::string plain(1 << 20, '\0');
        for (size_t i = 0; i < plain.size(); ++i)
            plain[i] = char(i % 251);
        uLongf size = compressBound(uLong(plain.size()));
        std::string deflated(size, '\0');
        QCOMPARE(compress(reinterpret_cast<Bytef*>(deflated.data()), &size,
                          reinterpret_cast<const Bytef*>(plain.data()), uLong(plain.size())),
                 Z_OK);
        deflated.resize(size);
        QVERIFY(deflated.size() * 16 < plain.size()); // several doublings needed
        std::string buffer;
        const auto back = inflateBlob(deflated, plain.size() + 7, buffer);
        QVERIFY(back.ok());
        QVERIFY(*back == plain);
        std::string big(4 << 20, 'x');
        test::expectRefusal(inflateBlob(deflated, plain.size() - 1, big), ErrorCode::NotASession,
                            "inflate past");
    }

    // A deflated chunk that would inflate past what its rows can hold (a
    // "zip bomb", or a damaged row count) is refused before it is read.
    void overlongInflationIsRefused() {
        const auto path = file("bomb.mvprof");
        writeRecords(path, 1500, false);
        const std::string zeros(1 << 20, '\0');
        uLongf size = compressBound(uLong(zeros.size()));
        std::string bomb(size, '\0');
        QCOMPARE(compress(reinterpret_cast<Bytef*>(bomb.data()), &size,
                          reinterpret_cast<const Bytef*>(zeros.data()), uLong(zeros.size())),
                 Z_OK);
        bomb.resize(size);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "UPDATE op_chunk SET rows = 10, data = ?, checksum = ?",
                                    -1, &st, nullptr),
                 SQLITE_OK);
        sqlite3_bind_blob(st, 1, bomb.data(), int(bomb.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, int64_t(opChunkChecksum(bomb)));
        QCOMPARE(sqlite3_step(st), SQLITE_DONE);
        sqlite3_finalize(st);
        sqlite3_close(db);
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        test::expectRefusal((*r)->ops(1), ErrorCode::NotASession, "inflate");
    }

    void damagedChunksAreRefusedWithAReason() {
        struct Damage {
            const char* sqlText;
            ErrorCode code;
            const char* says;
        };
        const Damage cases[] = {
            {"UPDATE op_chunk SET checksum = checksum + 1 WHERE first_id = 1",
             ErrorCode::NotASession, "checksum"},
            {"UPDATE op_chunk SET data = substr(data, 1, 50) WHERE first_id = 1",
             ErrorCode::NotASession, "damaged"},
            {"UPDATE op_chunk SET encoding = 3", ErrorCode::NewerSchema, "update mvprof"},
            {"DELETE FROM interned WHERE text = 'aten::addmm'", ErrorCode::NotASession, "damaged"},
        };
        for (const auto& c : cases) {
            const auto path = file("damaged.mvprof");
            writeRecords(path, 1500, false);
            test::execSql(QString::fromStdString(path), c.sqlText);
            auto r = SessionReader::open(path);
            QVERIFY(r.ok()); // damage shows when the rows are read
            for (auto&& got :
                 {(*r)->ops(1).ok() ? std::optional<Error>() : (*r)->ops(1).error(),
                  (*r)->opTotals(1).ok() ? std::optional<Error>() : (*r)->opTotals(1).error()}) {
                QVERIFY2(got.has_value(), c.sqlText);
                QCOMPARE(got->code, c.code);
                QVERIFY2(QString::fromStdString(got->message).contains(QLatin1String(c.says)),
                         got->message.c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestOpChunks)
#include "test_op_chunks.moc"
