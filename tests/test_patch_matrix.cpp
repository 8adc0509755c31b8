// A metric's per-patch figures as one matrix per run (session format v11,
// docs/format.md "patch_values"): layers with gaps and a write that replaces
// some patches read back as written; shapes past the limits are refused on
// the way in and on the way out.
#include "TestSql.h"
#include "core/session/PatchValues.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <sqlite3.h>

using namespace mvp;

namespace {
const double none = kNoPatchValue;

// (layer, patch, value) of rows, for comparing with lists worked by hand.
using Cell = std::tuple<int, int, double>;
std::vector<Cell> cells(const std::vector<PatchMetricRow>& rows) {
    std::vector<Cell> out;
    for (const auto& r : rows)
        out.emplace_back(r.layer, r.patch, r.value);
    return out;
}

bool sameLayers(const PatchLayers& a, const PatchLayers& b) {
    if (a.size() != b.size()) return false;
    for (const auto& [layer, values] : a) {
        const auto it = b.find(layer);
        if (it == b.end() || it->second.size() != values.size()) return false;
        for (size_t p = 0; p < values.size(); ++p)
            if (!(values[p] == it->second[p] ||
                  (std::isnan(values[p]) && std::isnan(it->second[p]))))
                return false;
    }
    return true;
}
} // namespace

class TestPatchMatrix : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    std::string file(const char* name) {
        return dir.filePath(QString::fromUtf8(name)).toStdString();
    }

private slots:
    // Layer -1 (the vision side), a gap, arrays of different lengths and
    // trailing NaN: the matrix spans layers -1 … 5 and 4 patches; what comes
    // back is each layer up to its last value, empty layers gone.
    void layersWithGapsRoundTrip() {
        const PatchLayers layers = {{-1, {0.5, none, 0.25}},
                                    {2, {none, 1e-300, none, -3.0, none}},
                                    {3, {none}},
                                    {5, {7.0}}};
        auto m = encodePatchMatrix(layers);
        QVERIFY(m.ok());
        QCOMPARE(m->firstLayer, -1);
        QCOMPARE(m->layers, 7);
        QCOMPARE(m->patches, int64_t(4));
        auto back =
            decodePatchMatrix(m->blob.data, m->blob.encoding, m->firstLayer, m->layers, m->patches);
        QVERIFY(back);
        const PatchLayers expected = {
            {-1, {0.5, none, 0.25}}, {2, {none, 1e-300, none, -3.0}}, {5, {7.0}}};
        QVERIFY(sameLayers(*back, expected));
        // No values at all: an empty matrix, which reads back as none.
        auto empty = encodePatchMatrix({{4, {none, none}}});
        QVERIFY(empty.ok());
        QCOMPARE(empty->layers, 0);
        auto nothing = decodePatchMatrix(empty->blob.data, empty->blob.encoding, empty->firstLayer,
                                         empty->layers, empty->patches);
        QVERIFY(nothing && nothing->empty());
    }

    // Through the writer and reader: two batches, the second replacing one
    // patch and adding a layer; one row per (run, metric) in the file.
    void writesMergeIntoOneMatrixPerMetric() {
        const auto path = file("matrix.mvprof");
        {
            auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
            QVERIFY(w.ok());
            auto run = (*w)->beginRun(RunInfo{});
            QVERIFY(run.ok());
            Batch first;
            first.run = *run;
            first.patchMetrics = {{0, "attention", 0, 0.5},
                                  {0, "attention", 3, 0.125},
                                  {2, "attention", 1, 2.0},
                                  {1, "tokens.kept", 0, 1.0}};
            (*w)->submit(std::move(first));
            Batch second;
            second.run = *run;
            second.patchMetrics = {{0, "attention", 3, 0.75}, {-1, "attention", 2, 9.0}};
            (*w)->submit(std::move(second));
            QVERIFY((*w)->endRun(*run, RunResult{}).ok());
            QVERIFY((*w)->close().ok());
        }
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        auto attention = (*r)->patchMetrics(1, "attention");
        QVERIFY2(attention.ok(), attention.ok() ? "" : attention.error().message.c_str());
        QCOMPARE(cells(*attention),
                 (std::vector<Cell>{{-1, 2, 9.0}, {0, 0, 0.5}, {0, 3, 0.75}, {2, 1, 2.0}}));
        auto kept = (*r)->patchMetrics(1, "tokens.kept");
        QVERIFY(kept.ok());
        QCOMPARE(cells(*kept), (std::vector<Cell>{{1, 0, 1.0}}));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db,
                           "SELECT first_layer, layers, patches FROM patch_values WHERE "
                           "metric = 'attention'",
                           -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(st, 0), -1);
        QCOMPARE(sqlite3_column_int(st, 1), 4);
        QCOMPARE(sqlite3_column_int(st, 2), 4);
        QCOMPARE(sqlite3_step(st), SQLITE_DONE); // one row for the metric
        sqlite3_finalize(st);
        sqlite3_close(db);
    }

    // A layer outside -1 … 4095, or layers × patches past the limit, is
    // refused before anything is stored.
    void writerRefusesWhatAReaderWouldRefuse() {
        test::expectRefusal(encodePatchMatrix({{4096, {1.0}}}), ErrorCode::BadInput, "layer 4096");
        test::expectRefusal(encodePatchMatrix({{-2, {1.0}}}), ErrorCode::BadInput, "layer -2");
        std::vector<double> wide(4097, 0.0);
        test::expectRefusal(encodePatchMatrix({{0, {1.0}}, {4095, wide}}), ErrorCode::BadInput,
                            "values one metric holds");
        auto w = SessionWriter::open(file("refused.mvprof"), SessionWriter::Mode::Overwrite);
        QVERIFY(w.ok());
        auto run = (*w)->beginRun(RunInfo{});
        QVERIFY(run.ok());
        Batch b;
        b.run = *run;
        b.patchMetrics = {{5000, "attention", 0, 1.0}};
        (*w)->submit(std::move(b));
        test::expectRefusal((*w)->close(), ErrorCode::BadInput, "layer 5000");
    }

    // Stored shapes a writer never makes are refused, never read as rows.
    void decodeRefusesImpossibleShapes() {
        const std::string plain(4 * sizeof(double), '\0');
        uLongf size = compressBound(uLong(plain.size()));
        std::string deflated(size, '\0'); // by zlib itself
        QCOMPARE(compress(reinterpret_cast<Bytef*>(deflated.data()), &size,
                          reinterpret_cast<const Bytef*>(plain.data()), uLong(plain.size())),
                 Z_OK);
        deflated.resize(size);
        struct Shape {
            const char* what;
            std::string data;
            int64_t encoding, first, layers, patches;
        };
        const Shape shapes[] = {
            {"too few values", plain.substr(8), 1, 0, 2, 2},
            {"too many values", plain + plain, 1, 0, 2, 2},
            {"layer before -1", plain, 1, -2, 2, 2},
            {"layers past 4095", plain, 1, 4095, 2, 2},
            {"negative patches", plain, 1, 0, 2, -2},
            {"patches past the largest grid", plain, 1, 0, 1, (1 << 20) + 1},
            {"past the matrix limit", plain, 1, 0, 4096, 1 << 20},
            {"unknown encoding", plain, 3, 0, 2, 2},
            {"not a zlib stream", plain, 2, 0, 2, 2},
            {"bytes after the stream", deflated + '\0', 2, 0, 2, 2},
            {"a stream of too few values", deflated, 2, 0, 3, 2},
        };
        QVERIFY(decodePatchMatrix(plain, 1, 0, 2, 2));
        QVERIFY(decodePatchMatrix(deflated, 2, 0, 2, 2));
        for (const auto& s : shapes)
            QVERIFY2(!decodePatchMatrix(s.data, s.encoding, s.first, s.layers, s.patches), s.what);
        // Through the reader: an Error naming the metric, not rows.
        const auto path = file("damaged.mvprof");
        {
            auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
            QVERIFY(w.ok());
            auto run = (*w)->beginRun(RunInfo{});
            QVERIFY(run.ok());
            Batch b;
            b.run = *run;
            b.patchMetrics = {{0, "attention", 1, 0.5}};
            (*w)->submit(std::move(b));
            QVERIFY((*w)->close().ok());
        }
        test::execSql(QString::fromStdString(path), "UPDATE patch_values SET layers = 2");
        auto r = SessionReader::open(path);
        QVERIFY(r.ok());
        test::expectRefusal((*r)->patchMetrics(1, "attention"), ErrorCode::NotASession,
                            "patch_values attention of run 1");
    }
};

QTEST_GUILESS_MAIN(TestPatchMatrix)
#include "test_patch_matrix.moc"
