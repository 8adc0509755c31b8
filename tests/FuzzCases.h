#pragma once
// The fuzz corpus's content mutations (test_fuzz_session runs them all, the
// GUI test a sample): seeded, so every run makes the same cases.

#include <QRandomGenerator>
#include <string>
#include <vector>

namespace mvp::test {

namespace fuzz {
// Columns the analyses read, with a column to pick rows by (all rows when it is empty).
struct Target {
    const char* table;
    const char* column;
    const char* key;
};
const Target kTargets[] = {
    {"run", "steps", ""},
    {"run", "threads", ""},
    {"run", "wall_ns", ""},
    {"run", "config_json", ""},
    {"run", "status", ""},
    {"run", "baseline_run", ""},
    {"module", "id", "id"},
    {"module", "parent", "id"},
    {"module", "params", "id"},
    {"module", "role", "id"},
    {"module", "layer", "id"},
    {"module", "expert", "id"},
    {"module", "path", "id"},
    {"phase", "start_ns", "step"},
    {"phase", "end_ns", "step"},
    {"phase", "phase", "step"},
    {"span_chunk", "first_id", "first_id"},
    {"span_chunk", "rows", "first_id"},
    {"span_chunk", "data", "first_id"},
    {"span_chunk", "encoding", "first_id"},
    {"span_chunk", "checksum", "first_id"},
    {"activity_chunk", "rows", "first_id"},
    {"activity_chunk", "data", "first_id"},
    {"activity_chunk", "encoding", "first_id"},
    {"op_chunk", "rows", "first_id"},
    {"op_chunk", "data", "first_id"},
    {"op_chunk", "encoding", ""},
    {"interned", "text", "id"},
    {"token", "position", "position"},
    {"token", "patch", "position"},
    {"token", "modality", "position"},
    {"step_output", "logits", "step"},
    {"step_output", "token", "step"},
    {"step_output", "step", "step"},
    {"vision_feature", "rows", ""},
    {"vision_feature", "data", ""},
    {"routing_chunk", "layer", "layer"},
    {"routing_chunk", "rows", "layer"},
    {"routing_chunk", "data", "layer"},
    {"routing_chunk", "encoding", "layer"},
    {"image", "png", ""},
    {"image", "width", ""},
    {"patch_grid", "grid_h", ""},
    {"patch_grid", "grid_w", ""},
    {"patch_grid", "first_position", ""},
    {"patch_values", "data", ""},
    {"patch_values", "first_layer", ""},
    {"patch_values", "layers", ""},
    {"patch_values", "patches", ""},
    {"patch_values", "metric", ""},
    {"patch_values", "encoding", ""},
    {"device", "peak_flops", ""},
    {"device", "peak_bytes_per_s", ""},
    {"op_total", "calls", ""},
    {"op_total", "ns", ""},
    {"op_total", "known_ns", ""},
    {"leaf_flops", "flops", ""},
    {"run_metric", "value", ""},
    {"run_metric", "kind", ""},
    {"meta", "value", ""},
};
const char* const kValues[] = {
    "-1",     "-5",   "0",  "1",   "2147483647", "-9223372036854775808", "1e308",
    "-1e308", "NULL", "''", "'x'", "X'00'",      "zeroblob(64)",         "'{\"llm\": 3}'"};
const char* const kStructural[] = {
    "DROP TABLE routing_chunk",
    "DROP TABLE op_chunk",
    "DROP TABLE interned",
    "DROP TABLE patch_grid",
    "DROP TABLE span_chunk",
    "DROP TABLE activity_chunk",
    "DROP TABLE patch_values",
    "DROP TABLE run_metric",
    "DELETE FROM phase",
    "DELETE FROM module",
    "DELETE FROM token",
    "DELETE FROM interned",
    "DELETE FROM op_total",
    "DELETE FROM run",
    "UPDATE span_chunk SET rows = first_id, first_id = rows",
    "UPDATE patch_values SET layers = patches, patches = layers",
    "UPDATE routing_chunk SET layer = rows, rows = layer",
    "UPDATE phase SET start_ns = end_ns, end_ns = start_ns",
    "ALTER TABLE span_chunk ADD COLUMN extra TEXT",
    "CREATE TABLE unknown_table(x)",
    "UPDATE module SET parent = id",
    "UPDATE module SET parent = id + 1",
    "INSERT INTO run SELECT id + 100, label, model, config_json, prompt, image_path, steps, device,"
    " dtype, blas, threads, probes, transform, id, writer_pid, writer_host, started_utc, status,"
    " error, wall_ns, peak_rss_bytes, output_text FROM run",
    "UPDATE run SET baseline_run = id",
    "UPDATE run SET status = 'live'",
};

} // namespace fuzz

// SQL statements, each one case: every target column set to every odd value
// (`passes` times, each with other rows picked by the seeded generator),
// then the structural mutations.
inline std::vector<std::string> contentMutations(quint32 seed, int passes = 2) {
    using namespace fuzz;
    QRandomGenerator rng(seed);
    std::vector<std::string> out;
    for (int pass = 0; pass < passes; ++pass)
        for (const auto& t : kTargets)
            for (const char* v : kValues) {
                std::string where;
                if (*t.key) {
                    const int k = 2 + int(rng.bounded(5)), r = int(rng.bounded(k));
                    where = std::string(" WHERE abs(") + t.key + ") % " + std::to_string(k) +
                            " = " + std::to_string(r);
                }
                out.push_back(std::string("UPDATE ") + t.table + " SET " + t.column + " = " + v +
                              where);
            }
    for (const char* s : kStructural)
        out.emplace_back(s);
    return out;
}

} // namespace mvp::test
