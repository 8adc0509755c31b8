#pragma once
// Runs SQL on a session file behind mvprof's back (damaging or downgrading
// it on purpose). Header-only: only tests that link SQLite include it.

#include "core/session/SessionReader.h"

#include <QByteArray>
#include <QString>
#include <QTest>
#include <sqlite3.h>

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

// Rewrites a session's packed op rows (v5) as v1–v4 stored them, one per row
// of an `op` table, read back through the current reader: the first step of
// turning a session into what an older mvprof wrote.
inline void unpackOps(const QString& path) {
    std::string sqlText =
        "CREATE TABLE op(run INTEGER NOT NULL, id INTEGER NOT NULL, span INTEGER, parent_op"
        " INTEGER, name TEXT NOT NULL, phase TEXT NOT NULL, step INTEGER NOT NULL, start_ns"
        " INTEGER NOT NULL, end_ns INTEGER NOT NULL, shapes TEXT NOT NULL, dtype TEXT NOT NULL,"
        " flops INTEGER NOT NULL, bytes INTEGER NOT NULL, flops_known INTEGER NOT NULL DEFAULT"
        " 1, PRIMARY KEY(run, id)) WITHOUT ROWID; CREATE INDEX op_by_start ON op(run, start_ns);";
    auto opt = [](const std::optional<int64_t>& v) {
        return v ? std::to_string(*v) : std::string("NULL");
    };
    {
        auto r = SessionReader::open(path.toStdString());
        QVERIFY(r.ok());
        auto runs = (*r)->runs();
        QVERIFY(runs.ok());
        for (const auto& run : *runs) {
            auto ops = (*r)->ops(run.id);
            QVERIFY(ops.ok());
            for (const auto& o : *ops)
                sqlText += "INSERT INTO op VALUES (" + std::to_string(run.id) + "," +
                           std::to_string(o.id) + "," + opt(o.span) + "," + opt(o.parentOp) + ",'" +
                           o.name + "','" + phaseName(o.phase) + "'," + std::to_string(o.step) +
                           "," + std::to_string(o.startNs) + "," + std::to_string(o.endNs) + ",'" +
                           o.shapes + "','" + o.dtype + "'," + std::to_string(o.flops) + "," +
                           std::to_string(o.bytes) + "," + std::to_string(int(o.flopsKnown)) + ");";
        }
    }
    sqlText += "DROP TABLE op_chunk; DROP TABLE interned;";
    execSql(path, sqlText.c_str());
}

} // namespace mvp::test
