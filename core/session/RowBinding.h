#pragma once
// A row of each kind bound to its table's INSERT, in column order (see
// Schema.cpp): what the session writer runs per row, apart from how it
// queues and commits them (SessionWriter.cpp). Internal to core/session.

#include "core/Result.h"
#include "core/session/Records.h"
#include "core/session/Sqlite.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mvp::rowbind {

// One row's values bound to `s`; false: not stored (a non-finite metric).
bool bindRow(sql::Stmt& s, int64_t run, const ModuleRow& m);
bool bindRow(sql::Stmt& s, int64_t run, const PhaseRow& p);
bool bindRow(sql::Stmt& s, int64_t run, const LeafFlopsRow& l);
bool bindRow(sql::Stmt& s, int64_t run, const TokenRow& t);
bool bindRow(sql::Stmt& s, int64_t run, const ImageRow& i);
bool bindRow(sql::Stmt& s, int64_t run, const PatchGridRow& g);
bool bindRow(sql::Stmt& s, int64_t run, const StepOutputRow& o);
bool bindRow(sql::Stmt& s, int64_t run, const RunMetricRow& m);
bool bindRow(sql::Stmt& s, int64_t run, const RepetitionRow& x);
bool bindRow(sql::Stmt& s, int64_t run, const VisionFeatureRow& v);
bool bindRow(sql::Stmt& s, int64_t run, const DeviceRow& d);
bool bindRow(sql::Stmt& s, int64_t run, const AttnMapRow& a);
bool bindRow(sql::Stmt& s, int64_t run, const EvalSetRow& e);
bool bindRow(sql::Stmt& s, int64_t run, const EvalItemRow& e);

// Binds and runs `s` for each row that is stored.
template <typename Row> Status insertEach(sql::Stmt& s, int64_t run, const std::vector<Row>& rows) {
    for (const auto& r : rows)
        if (bindRow(s, run, r))
            if (auto st = s.exec(); !st) return st;
    return Ok{};
}

template <typename Row>
Status insertEach(sql::Stmt& s, int64_t run, const std::optional<Row>& row) {
    if (row && bindRow(s, run, *row)) return s.exec();
    return Ok{};
}

} // namespace mvp::rowbind
