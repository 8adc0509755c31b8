#pragma once
// Runs SQL on a session file behind mvprof's back (damaging or downgrading
// it on purpose). Header-only: only tests that link SQLite include it.

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

} // namespace mvp::test
