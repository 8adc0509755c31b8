// Module spans packed into chunks (session format v11, docs/format.md
// "span_chunk"): every value round-trips, damage is an error and never a
// row, a span id is kept once per run, and the packed form is small.
#include "TestSql.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"
#include "core/session/SpanStore.h"

#include <QTemporaryDir>
#include <QTest>
#include <limits>

using namespace mvp;

namespace {
// A capture's spans: decoder layers of four modules each, over a prefill and
// decode steps, handed over in the order they end (children first), ids in
// the order they start.
std::vector<SpanRow> capturedSpans(int steps, int layers) {
    std::vector<SpanRow> rows;
    int64_t id = 0, clock = 1000;
    for (int step = 0; step <= steps; ++step) {
        const Phase phase = step == 0 ? Phase::Prefill : Phase::Decode;
        const int64_t model = ++id, modelStart = clock;
        std::vector<SpanRow> ended;
        for (int l = 0; l < layers; ++l) {
            const int64_t layer = ++id, layerStart = clock;
            for (int m = 0; m < 3; ++m) {
                const int64_t start = clock;
                clock += 20'000 + 137 * m;
                ended.push_back({++id, 3 + l * 4 + m, layer, phase, step, start, clock,
                                 std::nullopt, 1'000'000LL * (m + 1), 4096 * (m + 1)});
            }
            ended.push_back({layer, 2 + l * 4, model, phase, step, layerStart, clock + 5,
                             l % 2 ? std::optional<int64_t>(61'000) : std::nullopt, 6'000'000,
                             24'576});
            clock += 10;
        }
        ended.push_back({model, 1, std::nullopt, phase, step, modelStart, clock, std::nullopt,
                         6'000'000LL * layers, 24'576LL * layers});
        ended.back().flopsKnown = step % 2 == 0;
        rows.insert(rows.end(), ended.begin(), ended.end());
    }
    return rows;
}

std::vector<const SpanRow*> pointers(const std::vector<SpanRow>& rows) {
    std::vector<const SpanRow*> out;
    for (const auto& r : rows)
        out.push_back(&r);
    return out;
}

void sortById(std::vector<SpanRow>& rows) {
    std::sort(rows.begin(), rows.end(),
              [](const SpanRow& a, const SpanRow& b) { return a.id < b.id; });
}
} // namespace

class TestSpanChunks : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    std::string file(const char* name) {
        return dir.filePath(QString::fromUtf8(name)).toStdString();
    }

private slots:
    // Extremes of every field, optional ones present and absent, every
    // phase, come back exactly.
    void encodingRoundTripsEveryValue() {
        const int64_t big = std::numeric_limits<int64_t>::max(),
                      small = std::numeric_limits<int64_t>::min();
        const int bigStep = std::numeric_limits<int32_t>::max(),
                  smallStep = std::numeric_limits<int32_t>::min();
        std::vector<SpanRow> rows = {
            {1, 1, std::nullopt, Phase::None, 0, 0, 0, std::nullopt, 0, 0},
            {big, big, small, Phase::Decode, bigStep, small, big, big, big, big},
            {small, small, big, Phase::Preprocess, smallStep, big, big, 0, small, small},
            {-5, -7, -5, Phase::Vision, 3, -100, -50, std::nullopt, 1, 2},
            {7, 3, 6, Phase::H2d, 1, 10, 20, 5, 100, 200},
            {8, 4, std::nullopt, Phase::Projector, 2, 30, 40, std::nullopt, 0, 0},
            {9, 5, 1, Phase::Prefill, 0, 50, 60, std::nullopt, 0, 0},
        };
        rows[1].flopsKnown = false;
        rows[5].flopsKnown = false;
        std::vector<SpanRow> back;
        QVERIFY(decodeSpanRows(encodeSpanRows(pointers(rows)), int64_t(rows.size()), back).ok());
        QCOMPARE(back.size(), rows.size());
        for (size_t i = 0; i < rows.size() && !QTest::currentTestFailed(); ++i)
            test::compareSpans(back[i], rows[i]);
    }

    void damagedBytesAreAnErrorNeverARow() {
        const auto rows = capturedSpans(1, 2);
        const std::string data = encodeSpanRows(pointers(rows));
        // Row 0, a leaf: flags 3 (FLOPs known, a parent), id 3, module 3, parent 2
        // (its id less 1), phase 5 (prefill), as docs/format.md lays them out.
        QCOMPARE(data.substr(0, 5), std::string("\x03\x06\x06\x02\x05", 5));
        test::expectDamagedBytesRefused(
            data, int64_t(rows.size()),
            [](const std::string& bytes, int64_t n) {
                std::vector<SpanRow> out;
                return decodeSpanRows(bytes, n, out);
            },
            {{0, char(8), "unknown row flags 8"}, {4, char(7), "phase code 7"}});
    }

    // Several batches: read back ordered by id, field for field; and the
    // size this format is for.
    void sessionRowsReadBackAndStaySmall() {
        const auto path = file("spans.mvprof");
        auto rows = capturedSpans(8, 12);
        test::writeInBatches(path, &Batch::spans, rows, 3);
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        auto back = (*r)->spans(1);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        sortById(rows);
        QCOMPARE(back->size(), rows.size());
        for (size_t i = 0; i < rows.size() && !QTest::currentTestFailed(); ++i)
            test::compareSpans((*back)[i], rows[i]);
        const auto size = test::packedSize(path, "span_chunk");
        QCOMPARE(size.chunks, int64_t(3)); // a chunk per batch
        // v10's span table and index took ~90 bytes a span on disk.
        QVERIFY2(size.bytesPerRow < 12, qPrintable(QString::number(size.bytesPerRow)));
    }

    // A span id is kept once per run: the writer refuses a second, and a file
    // that holds one twice is damaged.
    void eachIdIsKeptOnce() {
        const auto rows = capturedSpans(0, 1);
        test::expectWriterRefusesTwice(file("twice.mvprof"), &Batch::spans, rows, rows[2]);
        const auto path = file("doubled.mvprof");
        test::writeInBatches(path, &Batch::spans, rows, 1);
        test::execSql(QString::fromStdString(path),
                      "INSERT INTO span_chunk(run, first_id, rows, encoding, data, checksum) "
                      "SELECT run, first_id + 100, rows, encoding, data, checksum FROM span_chunk");
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        test::expectRefusal((*r)->spans(1), ErrorCode::NotASession, "stored twice");
    }

    void damagedChunksAreRefusedWithAReason() {
        test::expectSqlDamageRefused(
            file("damaged.mvprof"),
            {{"UPDATE span_chunk SET checksum = checksum + 1", ErrorCode::NotASession, "checksum"},
             {"UPDATE span_chunk SET rows = rows + 1", ErrorCode::NotASession, "damaged"},
             {"UPDATE span_chunk SET rows = 0", ErrorCode::NotASession, "claims 0 rows"},
             {"UPDATE span_chunk SET rows = -1", ErrorCode::NotASession, "claims -1 rows"},
             {"UPDATE span_chunk SET encoding = 3", ErrorCode::NewerSchema, "update mvprof"}},
            [&](const std::string& path) {
                test::writeInBatches(path, &Batch::spans, capturedSpans(1, 2), 1);
            },
            [](SessionReader& r) { return r.spans(1); });
    }
};

QTEST_GUILESS_MAIN(TestSpanChunks)
#include "test_span_chunks.moc"
