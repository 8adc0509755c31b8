// Routing rows packed per layer (session format v10, docs/format.md
// "routing_chunk"): every value round-trips, damage is an error and never a
// row, a (layer, token, rank) is kept once, and the packed form is small.
#include "TestSql.h"
#include "core/session/RoutingCodec.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <limits>

using namespace mvp;

namespace {
bool sameRow(const RoutingRow& a, const RoutingRow& b) {
    return a.layer == b.layer && a.phase == b.phase && a.step == b.step && a.token == b.token &&
           a.modality == b.modality && a.rank == b.rank && a.expert == b.expert &&
           std::memcmp(&a.weight, &b.weight, sizeof a.weight) == 0;
}

// A capture's routing: each token of a prefill, then decode steps, top-2 of 8
// experts, weights born float32 as a router's softmax makes them.
std::vector<RoutingRow> capturedRouting(int layers, int tokens) {
    QRandomGenerator rng(7);
    std::vector<RoutingRow> rows;
    for (int layer = 0; layer < layers; ++layer)
        for (int t = 0; t < tokens; ++t) {
            const bool decode = t >= tokens - 8;
            const float top = 0.5f + float(rng.generateDouble()) * 0.5f;
            const int first = int(rng.bounded(8)), second = (first + 1 + int(rng.bounded(7))) % 8;
            for (int rank = 0; rank < 2; ++rank)
                rows.push_back({layer, decode ? Phase::Decode : Phase::Prefill,
                                decode ? t - (tokens - 8) + 1 : 0, t,
                                t >= 1 && t < 1 + 64 ? Modality::Visual : Modality::Text, rank,
                                rank ? second : first, double(rank ? 1.0f - top : top)});
        }
    return rows;
}

std::vector<const RoutingRow*> pointers(const std::vector<RoutingRow>& rows) {
    std::vector<const RoutingRow*> out;
    for (const auto& r : rows)
        out.push_back(&r);
    return out;
}
} // namespace

class TestRoutingChunks : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    std::string file(const char* name) {
        return dir.filePath(QString::fromUtf8(name)).toStdString();
    }

    // A session with one run whose routing arrives in `batches` batches.
    void writeRouting(const std::string& path, const std::vector<RoutingRow>& rows, int batches) {
        auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(RunInfo{});
        QVERIFY(run.ok());
        for (int b = 0; b < batches; ++b) {
            Batch batch;
            batch.run = *run;
            for (size_t i = size_t(b); i < rows.size(); i += size_t(batches))
                batch.routing.push_back(rows[i]);
            (*w)->submit(std::move(batch));
        }
        QVERIFY((*w)->endRun(*run, RunResult{}).ok());
        QVERIFY((*w)->close().ok());
    }

    static std::vector<RoutingRow> readRouting(const std::string& path) {
        auto r = SessionReader::open(path);
        if (!r) return {};
        auto rows = (*r)->routing(1);
        return rows ? *rows : std::vector<RoutingRow>{};
    }

private slots:
    // Extremes of every field (signed ones negative too) come back bit for bit.
    void encodingRoundTripsEveryValue() {
        const int big = std::numeric_limits<int32_t>::max(),
                  small = std::numeric_limits<int32_t>::min();
        const std::vector<RoutingRow> rows = {
            {3, Phase::Prefill, 0, 0, Modality::Text, 0, 0, 0.0},
            {3, Phase::Decode, big, big, Modality::Visual, big, big, 1e300},
            {3, Phase::Preprocess, small, small, Modality::Text, small, small, -0.0},
            {3, Phase::Vision, 5, 17, Modality::Visual, -1, -5,
             std::numeric_limits<double>::denorm_min()},
            {3, Phase::H2d, 1, 2, Modality::Text, 1, 2, std::numeric_limits<double>::quiet_NaN()},
            {3, Phase::Projector, 2, 1, Modality::Visual, 0, 7, 0.1},
        };
        std::vector<RoutingRow> back;
        QVERIFY(decodeRoutingRows(encodeRoutingRows(pointers(rows)), int64_t(rows.size()), 3, back)
                    .ok());
        QCOMPARE(back.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(sameRow(back[i], rows[i]), qPrintable(QString::number(i)));
    }

    void damagedBytesAreAnErrorNeverARow() {
        const auto rows = capturedRouting(1, 20);
        const std::string data = encodeRoutingRows(pointers(rows));
        // Row 0's phase (its second byte: the token's difference is 0) and modality codes.
        test::expectDamagedBytesRefused(data, int64_t(rows.size()),
                                        [](const std::string& bytes, int64_t n) {
                                            std::vector<RoutingRow> out;
                                            return decodeRoutingRows(bytes, n, 0, out);
                                        },
                                        {{1, char(7), "phase code 7"},
                                         {1, char(0), "phase code 0"},
                                         {3, char(2), "modality code 2"}});
    }

    // Several batches, several layers: read back ordered by layer, token and
    // rank, field for field; and the size this format is for.
    void sessionRowsReadBackAndStaySmall() {
        const auto path = file("routing.mvprof");
        auto rows = capturedRouting(4, 600);
        writeRouting(path, rows, 3);
        const auto back = readRouting(path);
        std::sort(rows.begin(), rows.end(), [](const RoutingRow& a, const RoutingRow& b) {
            return std::tuple(a.layer, a.token, a.rank) < std::tuple(b.layer, b.token, b.rank);
        });
        QCOMPARE(back.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(sameRow(back[i], rows[i]), qPrintable(QString::number(i)));
        const auto size = test::packedSize(path, "routing_chunk");
        QCOMPARE(size.chunks, int64_t(4 * 3)); // a chunk per layer per batch
        // v9 stored ~42 bytes a row on disk.
        QVERIFY2(size.bytesPerRow < 10, qPrintable(QString::number(size.bytesPerRow)));
    }

    // A token's choice at a rank is kept once: the writer refuses a second,
    // and a file that holds one twice is damaged.
    void eachKeyIsKeptOnce() {
        const auto rows = capturedRouting(1, 4);
        test::expectWriterRefusesTwice(file("twice.mvprof"), &Batch::routing, rows, rows[3]);
        const auto path = file("doubled.mvprof");
        writeRouting(path, rows, 1);
        test::execSql(QString::fromStdString(path),
                      "INSERT INTO routing_chunk(run, layer, rows, encoding, data, checksum) "
                      "SELECT run, layer, rows, encoding, data, checksum FROM routing_chunk");
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        test::expectRefusal((*r)->routing(1), ErrorCode::NotASession, "twice");
    }

    void damagedChunksAreRefusedWithAReason() {
        test::expectSqlDamageRefused(
            file("damaged.mvprof"),
            {{"UPDATE routing_chunk SET checksum = checksum + 1", ErrorCode::NotASession,
              "checksum"},
             {"UPDATE routing_chunk SET rows = rows + 1", ErrorCode::NotASession, "damaged"},
             {"UPDATE routing_chunk SET rows = -1", ErrorCode::NotASession, "damaged"},
             {"UPDATE routing_chunk SET encoding = 3", ErrorCode::NewerSchema, "update mvprof"}},
            [&](const std::string& path) { writeRouting(path, capturedRouting(2, 10), 1); },
            [](SessionReader& r) { return r.routing(1); });
    }
};

QTEST_GUILESS_MAIN(TestRoutingChunks)
#include "test_routing_chunks.moc"
