#include "core/report/Report.h"

#include "core/session/SessionReader.h"

#include <algorithm>

namespace mvp {

Result<int> parseWindow(const std::string& text) {
    if (text.empty() || text == "all") return 0;
    constexpr std::string_view prefix = "tokens:";
    if (text.rfind(prefix, 0) == 0) {
        try {
            size_t used = 0;
            const int n = std::stoi(text.substr(prefix.size()), &used);
            if (n > 0 && used == text.size() - prefix.size()) return n;
        } catch (...) {
        }
    }
    return makeError(ErrorCode::BadInput,
                     "--window '" + text + "' is not valid: use all or tokens:N (e.g. tokens:128)");
}

namespace {
// An eval run's summary and, where its baseline is an eval run too, the comparison.
Status addEval(SessionReader& reader, const RunData& data, SessionReport& rep) {
    SessionReport::Eval e{*data.evalSet, summariseEval(data), std::nullopt};
    if (data.run.baselineRun) {
        auto base = loadRunData(reader, *data.run.baselineRun);
        if (!base) return base.error();
        if (base->isEval()) e.comparison = compareEval(*base, data);
    }
    rep.evals.emplace(data.run.id, std::move(e));
    return Ok{};
}
} // namespace

Result<SessionReport> buildReport(SessionReader& reader, const ReportOptions& o) {
    SessionReport rep;
    rep.path = reader.path();
    rep.schemaVersion = reader.schemaVersion();
    rep.window = o.analysis.window;
    auto runs = reader.runs();
    if (!runs) return runs.error();
    if (o.run &&
        std::none_of(runs->begin(), runs->end(), [&](const RunInfo& r) { return r.id == *o.run; }))
        return makeError(ErrorCode::NotFound, "run " + std::to_string(*o.run) + " is not in " +
                                                  reader.path() + " (it has " +
                                                  std::to_string(runs->size()) + " run(s))");
    for (const auto& run : *runs) {
        if (o.run && run.id != *o.run) continue;
        auto data = loadRunData(reader, run.id);
        if (!data) return data.error();
        if (data->isEval())
            if (auto s = addEval(reader, *data, rep); !s) return s.error();
        rep.runs.push_back(analyseRun(*data, o.analysis));
    }
    return rep;
}

} // namespace mvp
