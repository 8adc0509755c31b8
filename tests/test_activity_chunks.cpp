// Device activity packed into chunks (session format v11, docs/format.md
// "activity_chunk"): every value round-trips, damage is an error and never
// a row, an id is kept once per run, and the packed form is small.
#include "TestSql.h"
#include "core/session/ActivityStore.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <limits>

using namespace mvp;

namespace {
bool same(const DeviceActivityRow& a, const DeviceActivityRow& b) {
    return a.id == b.id && a.kind == b.kind && a.name == b.name && a.device == b.device &&
           a.stream == b.stream && a.thread == b.thread && a.startNs == b.startNs &&
           a.endNs == b.endNs && a.correlation == b.correlation && a.op == b.op &&
           a.span == b.span && a.bytes == b.bytes;
}

bool same(const PackedActivity& a, const PackedActivity& b) {
    return a.id == b.id && a.kind == b.kind && a.name == b.name && a.device == b.device &&
           a.stream == b.stream && a.thread == b.thread && a.startNs == b.startNs &&
           a.endNs == b.endNs && a.correlation == b.correlation && a.op == b.op &&
           a.span == b.span && a.bytes == b.bytes;
}

// A CUDA run's activity as a trace or CUPTI delivers it: per launch an API
// call on the host thread and the kernel it launched on a stream, sharing a
// correlation id, now and then a copy; ids in the order they were read.
std::vector<DeviceActivityRow> tracedActivity(int launches) {
    std::vector<DeviceActivityRow> rows;
    int64_t id = 0, clock = 1'000'000;
    for (int i = 0; i < launches; ++i) {
        DeviceActivityRow call, kernel;
        call.id = ++id, call.kind = ActivityKind::Runtime, call.name = "cudaLaunchKernel";
        call.thread = 81234, call.startNs = clock, call.endNs = clock + 4'000;
        call.correlation = 5000 + i, call.op = 1 + i / 3;
        kernel.id = ++id, kernel.name = i % 2 ? "void gemm_kernel<float, 128, 64>(float const*)"
                                              : "elementwise_add_kernel";
        kernel.device = 0, kernel.stream = 7, kernel.startNs = clock + 6'000;
        kernel.endNs = clock + 6'000 + 20'000 + 31 * (i % 7);
        kernel.correlation = 5000 + i, kernel.op = 1 + i / 3, kernel.span = 1 + i / 12;
        rows.push_back(call);
        rows.push_back(kernel);
        if (i % 10 == 0) {
            DeviceActivityRow copy;
            copy.id = ++id, copy.kind = ActivityKind::Memcpy, copy.name = "Memcpy HtoD";
            copy.device = 0, copy.stream = 13, copy.startNs = clock + 30'000;
            copy.endNs = copy.startNs + 2'000, copy.bytes = 1 << 20;
            rows.push_back(copy);
        }
        clock += 40'000;
    }
    return rows;
}

std::vector<const PackedActivity*> pointers(const std::vector<PackedActivity>& rows) {
    std::vector<const PackedActivity*> out;
    for (const auto& r : rows)
        out.push_back(&r);
    return out;
}
} // namespace

class TestActivityChunks : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    std::string file(const char* name) {
        return dir.filePath(QString::fromUtf8(name)).toStdString();
    }

private slots:
    // Extremes of every field, links present and absent, every kind.
    void encodingRoundTripsEveryValue() {
        const int64_t big = std::numeric_limits<int64_t>::max(),
                      small = std::numeric_limits<int64_t>::min();
        const std::vector<PackedActivity> rows = {
            {1, ActivityKind::Kernel, 1, 0, 7, -1, 0, 0, std::nullopt, std::nullopt, std::nullopt,
             0},
            {big, ActivityKind::Driver, big, big, big, big, small, big, big, big, big, big},
            {small, ActivityKind::Memset, small, small, small, small, big, big, small, small, small,
             small},
            {-3, ActivityKind::Memcpy, 4, -1, -1, -1, -10, -5, std::nullopt, 9, std::nullopt, 64},
            {4, ActivityKind::Runtime, 2, -1, -1, 77, 3, 4, 11, std::nullopt, 12, 0},
        };
        std::vector<PackedActivity> back;
        QVERIFY(decodeActivityRows(encodeActivityRows(pointers(rows)), int64_t(rows.size()), back)
                    .ok());
        QCOMPARE(back.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(same(back[i], rows[i]), qPrintable(QString::number(i)));
    }

    void damagedBytesAreAnErrorNeverARow() {
        std::vector<PackedActivity> rows;
        for (int i = 1; i <= 20; ++i)
            rows.push_back({i, ActivityKind(i % 5), 3, 0, 7, -1, 100 * i, 100 * i + 50, int64_t(i),
                            std::nullopt, std::nullopt, 0});
        const std::string data = encodeActivityRows(pointers(rows));
        // Row 0: flags 1 (a correlation follows), id 1 (zz 2), kind 1 (memcpy), as
        // docs/format.md lays them out.
        QCOMPARE(data.substr(0, 3), std::string("\x01\x02\x01", 3));
        test::expectDamagedBytesRefused(
            data, int64_t(rows.size()),
            [](const std::string& bytes, int64_t n) {
                std::vector<PackedActivity> out;
                return decodeActivityRows(bytes, n, out);
            },
            {{0, char(8), "unknown row flags 8"}, {2, char(5), "kind code 5"}});
    }

    // Several batches: read back ordered by id with their names, field for
    // field; and the size this format is for.
    void sessionRowsReadBackAndStaySmall() {
        const auto path = file("activity.mvprof");
        const auto rows = tracedActivity(3000);
        test::writeInBatches(path, &Batch::activities, rows, 3);
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        auto back = (*r)->activities(1);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(same((*back)[i], rows[i]), qPrintable(QString::number(i)));
        const auto size = test::packedSize(path, "activity_chunk");
        QCOMPARE(size.chunks, int64_t(3)); // a chunk per batch
        // v10's device_activity table took ~52 bytes a row on disk.
        QVERIFY2(size.bytesPerRow < 10, qPrintable(QString::number(size.bytesPerRow)));
    }

    // An id is kept once per run: the writer refuses a second, and a file
    // that holds one twice is damaged.
    void eachIdIsKeptOnce() {
        const auto rows = tracedActivity(2);
        test::expectWriterRefusesTwice(file("twice.mvprof"), &Batch::activities, rows, rows[1]);
        const auto path = file("doubled.mvprof");
        test::writeInBatches(path, &Batch::activities, rows, 1);
        test::execSql(QString::fromStdString(path),
                      "INSERT INTO activity_chunk(run, first_id, rows, encoding, data, checksum) "
                      "SELECT run, first_id + 100, rows, encoding, data, checksum FROM "
                      "activity_chunk");
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        test::expectRefusal((*r)->activities(1), ErrorCode::NotASession, "stored twice");
    }

    void damagedChunksAreRefusedWithAReason() {
        test::expectSqlDamageRefused(
            file("damaged.mvprof"),
            {{"UPDATE activity_chunk SET checksum = checksum + 1", ErrorCode::NotASession,
              "checksum"},
             {"UPDATE activity_chunk SET rows = rows + 1", ErrorCode::NotASession, "damaged"},
             {"UPDATE activity_chunk SET rows = 0", ErrorCode::NotASession, "claims 0 rows"},
             {"UPDATE activity_chunk SET encoding = 3", ErrorCode::NewerSchema, "update mvprof"},
             {"DELETE FROM interned WHERE text = 'Memcpy HtoD'", ErrorCode::NotASession,
              "is not an interned string"}},
            [&](const std::string& path) {
                test::writeInBatches(path, &Batch::activities, tracedActivity(3), 1);
            },
            [](SessionReader& r) { return r.activities(1); });
    }
};

QTEST_GUILESS_MAIN(TestActivityChunks)
#include "test_activity_chunks.moc"
