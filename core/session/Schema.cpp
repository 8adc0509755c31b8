#include "core/session/Schema.h"

#include "core/session/ActivityStore.h"
#include "core/session/ModuleRoles.h"
#include "core/session/OpStore.h"
#include "core/session/PatchValues.h"
#include "core/session/RoutingStore.h"
#include "core/session/SpanStore.h"
#include "core/session/Sqlite.h"

#include <string>

namespace mvp::schema {

namespace {
// v1. Composite keys start with `run` so one session holds many runs and every
// per-run query is an index range scan.
constexpr const char* kTablesV1 = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE run(
  id INTEGER PRIMARY KEY,
  label TEXT NOT NULL,
  model TEXT NOT NULL,
  config_json TEXT NOT NULL,
  prompt TEXT NOT NULL,
  image_path TEXT NOT NULL,
  steps INTEGER NOT NULL,
  device TEXT NOT NULL,
  dtype TEXT NOT NULL,
  blas TEXT NOT NULL,
  threads INTEGER NOT NULL,
  probes INTEGER NOT NULL,
  transform TEXT NOT NULL,
  baseline_run INTEGER REFERENCES run(id),
  writer_pid INTEGER NOT NULL,
  writer_host TEXT NOT NULL,
  started_utc TEXT NOT NULL,
  status TEXT NOT NULL CHECK(status IN ('live','complete','incomplete','failed')),
  error TEXT NOT NULL DEFAULT '',
  wall_ns INTEGER NOT NULL DEFAULT 0,
  peak_rss_bytes INTEGER NOT NULL DEFAULT 0,
  output_text TEXT NOT NULL DEFAULT ''
);
CREATE TABLE module(
  run INTEGER NOT NULL, id INTEGER NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL,
  parent INTEGER, params INTEGER NOT NULL,
  PRIMARY KEY(run, id)) WITHOUT ROWID;
CREATE TABLE phase(
  run INTEGER NOT NULL, phase TEXT NOT NULL, step INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  PRIMARY KEY(run, phase, step)) WITHOUT ROWID;
CREATE TABLE span(
  run INTEGER NOT NULL, id INTEGER NOT NULL, module INTEGER NOT NULL, parent INTEGER,
  phase TEXT NOT NULL, step INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  device_ns INTEGER, flops INTEGER NOT NULL, bytes INTEGER NOT NULL,
  PRIMARY KEY(run, id)) WITHOUT ROWID;
CREATE TABLE op(
  run INTEGER NOT NULL, id INTEGER NOT NULL, span INTEGER, parent_op INTEGER, name TEXT NOT NULL,
  phase TEXT NOT NULL, step INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  shapes TEXT NOT NULL, dtype TEXT NOT NULL, flops INTEGER NOT NULL, bytes INTEGER NOT NULL,
  PRIMARY KEY(run, id)) WITHOUT ROWID;
CREATE TABLE token(
  run INTEGER NOT NULL, position INTEGER NOT NULL, phase TEXT NOT NULL, step INTEGER NOT NULL,
  modality TEXT NOT NULL, token_id INTEGER NOT NULL, patch INTEGER NOT NULL,
  PRIMARY KEY(run, position)) WITHOUT ROWID;
CREATE TABLE step_output(
  run INTEGER NOT NULL, step INTEGER NOT NULL, token INTEGER NOT NULL, logits BLOB NOT NULL,
  PRIMARY KEY(run, step)) WITHOUT ROWID;
CREATE TABLE vision_feature(
  run INTEGER PRIMARY KEY, rows INTEGER NOT NULL, cols INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE routing(
  run INTEGER NOT NULL, layer INTEGER NOT NULL, phase TEXT NOT NULL, step INTEGER NOT NULL,
  token INTEGER NOT NULL, modality TEXT NOT NULL, rank INTEGER NOT NULL, expert INTEGER NOT NULL,
  weight REAL NOT NULL,
  PRIMARY KEY(run, layer, token, rank)) WITHOUT ROWID;
CREATE TABLE image(
  run INTEGER PRIMARY KEY, source_path TEXT NOT NULL, width INTEGER NOT NULL,
  height INTEGER NOT NULL, orig_width INTEGER NOT NULL, orig_height INTEGER NOT NULL,
  png BLOB NOT NULL);
CREATE TABLE patch_grid(
  run INTEGER PRIMARY KEY, grid_h INTEGER NOT NULL, grid_w INTEGER NOT NULL,
  patch INTEGER NOT NULL, input_size INTEGER NOT NULL, first_position INTEGER NOT NULL);
CREATE TABLE patch_metric(
  run INTEGER NOT NULL, metric TEXT NOT NULL, layer INTEGER NOT NULL, patch INTEGER NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY(run, metric, layer, patch)) WITHOUT ROWID;
CREATE TABLE attn_map(
  run INTEGER NOT NULL, layer INTEGER NOT NULL, head INTEGER NOT NULL,
  rows INTEGER NOT NULL, cols INTEGER NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY(run, layer, head)) WITHOUT ROWID;
CREATE TABLE device(
  run INTEGER PRIMARY KEY, name TEXT NOT NULL, peak_flops REAL NOT NULL,
  peak_bytes_per_s REAL NOT NULL, source TEXT NOT NULL, memory_total_bytes INTEGER NOT NULL,
  memory_available_bytes INTEGER NOT NULL);
CREATE TABLE op_total(
  run INTEGER NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL, flops INTEGER NOT NULL,
  bytes INTEGER NOT NULL, ns INTEGER NOT NULL,
  PRIMARY KEY(run, name)) WITHOUT ROWID;
CREATE INDEX span_by_start ON span(run, start_ns);
CREATE INDEX op_by_start ON op(run, start_ns);
)sql";

// v2: run-level figures (weight bytes, KV bytes, what-if statistics), each
// labelled measured or predicted.
constexpr const char* kTablesV2 = R"sql(
CREATE TABLE run_metric(
  run INTEGER NOT NULL, name TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('measured','predicted')), note TEXT NOT NULL,
  PRIMARY KEY(run, name)) WITHOUT ROWID;
)sql";

// v3: modules carry a role, layer and expert index, so analyses never parse
// module paths; FLOPs counted where the arithmetic happens. "No formula" is kept apart
// from 0 (flops_known), per-op totals are split by phase and carry the time
// whose FLOPs are known (the coverage figure), and leaf_flops holds the FLOPs
// by the innermost op that computed them. Creating a session runs the same
// statements as migrating one, so the two cannot drift apart.
constexpr const char* kTablesV3 = R"sql(
ALTER TABLE module ADD COLUMN role TEXT NOT NULL DEFAULT '';
ALTER TABLE module ADD COLUMN layer INTEGER;
ALTER TABLE module ADD COLUMN expert INTEGER;
ALTER TABLE op ADD COLUMN flops_known INTEGER NOT NULL DEFAULT 1;
ALTER TABLE span ADD COLUMN flops_known INTEGER NOT NULL DEFAULT 1;
DROP TABLE op_total;
CREATE TABLE op_total(
  run INTEGER NOT NULL, phase TEXT NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL,
  flops INTEGER NOT NULL, bytes INTEGER NOT NULL, ns INTEGER NOT NULL, known_ns INTEGER NOT NULL,
  PRIMARY KEY(run, phase, name)) WITHOUT ROWID;
CREATE TABLE leaf_flops(
  run INTEGER NOT NULL, phase TEXT NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL,
  flops INTEGER NOT NULL,
  PRIMARY KEY(run, phase, name)) WITHOUT ROWID;
)sql";

// v4: the A/B repetitions of a what-if (Records.h RepetitionRow), kept per
// repetition so an interval can be recomputed and drawn.
constexpr const char* kTablesV4 = R"sql(
CREATE TABLE repetition(
  run INTEGER NOT NULL, arm TEXT NOT NULL CHECK(arm IN ('baseline','whatif')),
  rep INTEGER NOT NULL, phase TEXT NOT NULL, ns INTEGER NOT NULL,
  control INTEGER NOT NULL,
  PRIMARY KEY(run, arm, rep, phase)) WITHOUT ROWID;
)sql";

// v5: op rows packed (OpStore.h): per batch one op_chunk row, the strings of
// all runs once in `interned`. The old `op` table's rows move into chunks
// (migrateOpTable) before it is dropped; a new session runs the same steps.
constexpr const char* kTablesV5 = R"sql(
CREATE TABLE interned(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE op_chunk(
  run INTEGER NOT NULL, first_id INTEGER NOT NULL, rows INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, encoding INTEGER NOT NULL,
  data BLOB NOT NULL, checksum INTEGER NOT NULL,
  PRIMARY KEY(run, first_id));
)sql";
constexpr const char* kDropOpTable = "DROP TABLE op;";

// v6: GPU work and CUDA API calls (Records.h DeviceActivityRow), their names
// interned like op names: a trace repeats a few kernel names a million times.
constexpr const char* kTablesV6 = R"sql(
CREATE TABLE device_activity(
  run INTEGER NOT NULL, id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('kernel','memcpy','memset','runtime','driver')),
  name INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  thread INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  correlation INTEGER, op INTEGER, span INTEGER, bytes INTEGER NOT NULL,
  PRIMARY KEY(run, id)) WITHOUT ROWID;
)sql";

// v7: eval runs (Records.h EvalSetRow, EvalItemRow): the set a run went
// over, and per item its answer, match, fidelity, what was kept and the
// phase times of its pass. Answers and kept patches are JSON arrays.
constexpr const char* kTablesV7 = R"sql(
CREATE TABLE eval_set(
  run INTEGER PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL, items INTEGER NOT NULL);
CREATE TABLE eval_item(
  run INTEGER NOT NULL, item INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL,
  prompt TEXT NOT NULL, answers TEXT NOT NULL, output TEXT NOT NULL, correct INTEGER,
  kl_mean REAL, kl_max REAL, top1 REAL, token_match REAL,
  visual_tokens INTEGER NOT NULL, kept_patches TEXT NOT NULL,
  PRIMARY KEY(run, item)) WITHOUT ROWID;
CREATE TABLE eval_item_phase(
  run INTEGER NOT NULL, item INTEGER NOT NULL, phase TEXT NOT NULL, ns INTEGER NOT NULL,
  PRIMARY KEY(run, item, phase)) WITHOUT ROWID;
)sql";

// An eval item's answer_attention grid (float32 blob) and its image.
constexpr const char* kTablesV8 = R"sql(
CREATE TABLE eval_item_heatmap(
  run INTEGER NOT NULL, item INTEGER NOT NULL, image TEXT NOT NULL,
  grid_h INTEGER NOT NULL, grid_w INTEGER NOT NULL, answer_attention BLOB NOT NULL,
  PRIMARY KEY(run, item)) WITHOUT ROWID;
)sql";

// v9: a run's per-patch figures, one float64 array per (metric, layer)
// (PatchValues.h): patch_metric's rows move into them (migratePatchMetrics)
// before it is dropped; a new session runs the same steps.
constexpr const char* kTablesV9 = R"sql(
CREATE TABLE patch_values(
  run INTEGER NOT NULL, metric TEXT NOT NULL, layer INTEGER NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY(run, metric, layer)) WITHOUT ROWID;
)sql";
constexpr const char* kDropPatchMetricTable = "DROP TABLE patch_metric;";

Status createV9(sql::Db& db) {
    if (auto s = db.exec(kTablesV9); !s) return s;
    if (auto s = migratePatchMetrics(db); !s) return s;
    return db.exec(kDropPatchMetricTable);
}

// v10: a patch array may be deflated; v9's are plain (encoding 1). And a
// rowid table: in v9's WITHOUT ROWID one every array past ~1 KB spilled
// into an overflow page of its own, so a smaller array took no less room.
constexpr const char* kTablesV10 = R"sql(
CREATE TABLE patch_values_v10(
  run INTEGER NOT NULL, metric TEXT NOT NULL, layer INTEGER NOT NULL, data BLOB NOT NULL,
  encoding INTEGER NOT NULL DEFAULT 1, UNIQUE(run, metric, layer));
INSERT INTO patch_values_v10(run, metric, layer, data)
  SELECT run, metric, layer, data FROM patch_values;
DROP TABLE patch_values;
ALTER TABLE patch_values_v10 RENAME TO patch_values;
CREATE TABLE routing_chunk(
  run INTEGER NOT NULL, layer INTEGER NOT NULL, rows INTEGER NOT NULL, encoding INTEGER NOT NULL,
  data BLOB NOT NULL, checksum INTEGER NOT NULL);
CREATE INDEX routing_chunk_by_run ON routing_chunk(run, layer);
)sql";

// v10 also packs routing rows, a chunk per layer per write (RoutingStore.h):
// routing's rows move into chunks (migrateRoutingTable) before it is
// dropped; a new session runs the same steps.
Status createV10(sql::Db& db) {
    if (auto s = db.exec(kTablesV10); !s) return s;
    return migrateRoutingTable(db);
}

// v11: a metric's per-patch arrays become one matrix per run (PatchValues.h;
// a page per layer's array of 2–3 KB was a third of what a capture stored),
// and spans and device activity are packed into chunks like op rows
// (SpanStore.h, ActivityStore.h; the span table and its index took ~90
// bytes a span, device_activity ~52 a row and most of a trace import's
// time). The old tables' rows move over (migratePatchArrays,
// migrateSpanTable, migrateActivityTable) before they are dropped; a new
// session runs the same steps.
constexpr const char* kTablesV11 = R"sql(
ALTER TABLE patch_values RENAME TO patch_arrays_v10;
CREATE TABLE patch_values(
  run INTEGER NOT NULL, metric TEXT NOT NULL, first_layer INTEGER NOT NULL,
  layers INTEGER NOT NULL, patches INTEGER NOT NULL, encoding INTEGER NOT NULL,
  data BLOB NOT NULL, UNIQUE(run, metric));
CREATE TABLE span_chunk(
  run INTEGER NOT NULL, first_id INTEGER NOT NULL, rows INTEGER NOT NULL,
  encoding INTEGER NOT NULL, data BLOB NOT NULL, checksum INTEGER NOT NULL,
  PRIMARY KEY(run, first_id));
CREATE TABLE activity_chunk(
  run INTEGER NOT NULL, first_id INTEGER NOT NULL, rows INTEGER NOT NULL,
  encoding INTEGER NOT NULL, data BLOB NOT NULL, checksum INTEGER NOT NULL,
  PRIMARY KEY(run, first_id));
)sql";

Status createV11(sql::Db& db) {
    if (auto s = db.exec(kTablesV11); !s) return s;
    if (auto s = migratePatchArrays(db); !s) return s;
    if (auto s = db.exec("DROP TABLE patch_arrays_v10;"); !s) return s;
    if (auto s = migrateSpanTable(db); !s) return s;
    return migrateActivityTable(db);
}

Status createV5(sql::Db& db) {
    if (auto s = db.exec(kTablesV5); !s) return s;
    if (auto s = migrateOpTable(db); !s) return s;
    return db.exec(kDropOpTable);
}

// Runs written before v3 counted no FLOPs for an op without a formula: their
// zeros become "unknown", and their per-op totals are summed again by phase.
constexpr const char* kMigrateV2Rows = R"sql(
UPDATE op SET flops_known = 0 WHERE flops = 0;
UPDATE span SET flops_known = 0 WHERE flops = 0;
INSERT INTO op_total
  SELECT run, phase, name, COUNT(*), SUM(flops), SUM(bytes), SUM(end_ns - start_ns),
         SUM(CASE WHEN flops_known THEN end_ns - start_ns ELSE 0 END)
  FROM op WHERE parent_op IS NULL GROUP BY run, phase, name;
)sql";
// Old runs came from the built-in model, whose kinds imply the roles.
Status migrateModuleRoles(sql::Db& db) {
    auto read = db.prepare("SELECT run, id, path, kind FROM module");
    auto write = db.prepare("UPDATE module SET role=?, layer=?, expert=? WHERE run=? AND id=?");
    if (!read) return read.error();
    if (!write) return write.error();
    for (;;) {
        auto has = read->step();
        if (!has) return has.error();
        if (!*has) return Ok{};
        ModuleRow m;
        m.id = read->int64(1);
        m.path = read->text(2);
        m.kind = read->text(3);
        inferLegacyRole(m);
        write->bind(1, toString(m.role));
        write->bind(2, m.layer);
        write->bind(3, m.expert);
        write->bind(4, read->int64(0));
        write->bind(5, m.id);
        if (auto s = write->exec(); !s) return s;
    }
}
} // namespace

Status create(sql::Db& db, const char* appVersion) {
    if (auto s = db.exec(kTablesV1); !s) return s;
    if (auto s = db.exec(kTablesV2); !s) return s;
    if (auto s = db.exec(kTablesV3); !s) return s;
    if (auto s = db.exec(kTablesV4); !s) return s;
    if (auto s = createV5(db); !s) return s;
    if (auto s = db.exec(kTablesV6); !s) return s;
    if (auto s = db.exec(kTablesV7); !s) return s;
    if (auto s = db.exec(kTablesV8); !s) return s;
    if (auto s = createV9(db); !s) return s;
    if (auto s = createV10(db); !s) return s;
    if (auto s = createV11(db); !s) return s;
    auto st = db.prepare("INSERT INTO meta(key, value) VALUES (?, ?)");
    if (!st) return st.error();
    const std::pair<const char*, std::string> rows[] = {
        {"format", kFormatName},
        {"schema_version", std::to_string(kVersion)},
        {"app_version", appVersion},
    };
    for (const auto& [k, v] : rows) {
        st->bind(1, k);
        st->bind(2, v);
        if (auto s = st->exec(); !s) return s;
    }
    return db.exec("PRAGMA user_version = " + std::to_string(kVersion));
}

Status migrate(sql::Db& db, int fromVersion) {
    if (fromVersion == kVersion) return Ok{};
    if (fromVersion < 1 || fromVersion > kVersion)
        return makeError(ErrorCode::NotASession,
                         "unknown session format version " + std::to_string(fromVersion));
    // One transaction: a failure leaves the file as it was.
    if (auto s = db.exec("BEGIN"); !s) return s;
    auto step = [&]() -> Status {
        // v1 → v2 only adds a table: old runs simply have no run metrics.
        if (fromVersion < 2)
            if (auto s = db.exec(kTablesV2); !s) return s;
        if (fromVersion < 3) {
            if (auto s = db.exec(kTablesV3); !s) return s;
            if (auto s = db.exec(kMigrateV2Rows); !s) return s;
            if (auto s = migrateModuleRoles(db); !s) return s;
        }
        // v3 → v4 only adds a table: older what-ifs have no repetitions.
        if (fromVersion < 4)
            if (auto s = db.exec(kTablesV4); !s) return s;
        if (fromVersion < 5)
            if (auto s = createV5(db); !s) return s;
        // v5 → v6 only adds a table: older runs have no device activity.
        if (fromVersion < 6)
            if (auto s = db.exec(kTablesV6); !s) return s;
        // v6 → v7 only adds tables: older sessions hold no eval runs.
        if (fromVersion < 7)
            if (auto s = db.exec(kTablesV7); !s) return s;
        // v7 → v8 only adds a table: older eval items have no heatmaps.
        if (fromVersion < 8)
            if (auto s = db.exec(kTablesV8); !s) return s;
        if (fromVersion < 9)
            if (auto s = createV9(db); !s) return s;
        // v9 → v10: op chunks and patch arrays may now be deflated
        // (op_chunk.encoding 2, the new patch_values.encoding 2; older ones
        // read as before), and routing rows are packed into chunks.
        if (fromVersion < 10)
            if (auto s = createV10(db); !s) return s;
        // v10 → v11: per-patch arrays become a matrix per metric; spans and
        // device activity are packed into chunks.
        if (fromVersion < 11)
            if (auto s = createV11(db); !s) return s;
        const std::string v = std::to_string(kVersion);
        if (auto s = db.exec("UPDATE meta SET value='" + v + "' WHERE key='schema_version'"); !s)
            return s;
        return db.exec("PRAGMA user_version = " + v);
    }();
    if (!step) {
        (void)db.exec("ROLLBACK");
        return step;
    }
    return db.exec("COMMIT");
}

} // namespace mvp::schema
