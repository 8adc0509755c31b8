#pragma once
// The session file's schema (docs/format.md documents every column).

#include "core/Result.h"

namespace mvp::sql {
class Db;
}

namespace mvp::schema {

// Bump on any change to the tables, and add a forward migration in Schema.cpp.
inline constexpr int kVersion = 11;
// `meta.format` value that marks an SQLite file as an mvprof session.
inline constexpr const char* kFormatName = "mvprof-session";

// Creates every table and index of the current version in an empty database.
Status create(sql::Db& db, const char* appVersion);

// Brings an older session up to kVersion in place (forward only).
Status migrate(sql::Db& db, int fromVersion);

} // namespace mvp::schema
