// `mvprof-cli diff`: any two runs of a session compared — the what-if
// comparison table (if B is not a what-if of A it is still a fair A/B) and
// the module-by-module diff sorted by impact.
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "core/compare/Comparison.h"
#include "core/report/ComparisonText.h"
#include "core/session/SessionReader.h"

#include <cstdio>

namespace mvp::cli {

namespace {
constexpr const char* kFooter =
    R"(Prints latency (total, per phase), peak memory, weight and KV bytes, QPS and fidelity of B against A,
then every module's Δ time (measured), Δ FLOPs and Δ bytes (estimated), sorted by |Δ self time|.)";
}

int diffCommand(const std::vector<std::string>& argv) {
    CommandLine cli("diff",
                    "mvprof-cli diff FILE A B [--format text|json] — compare two runs of a session",
                    kFooter);
    std::string format = "text";
    cli.app.add_option("--format", format, "text (default) or json")
        ->check(oneOf({"text", "json"}));
    if (auto exit = cli.parse(argv)) return *exit;
    const auto& positional = cli.positional;
    if (positional.size() != 3)
        return fail(2, "diff needs a session file and two run ids (see --help)");
    int64_t ids[2];
    for (int i = 0; i < 2; ++i) {
        try {
            size_t used = 0;
            ids[i] = std::stoll(positional[size_t(i + 1)], &used);
            if (used != positional[size_t(i + 1)].size() || ids[i] <= 0)
                throw std::invalid_argument("run");
        } catch (const std::exception&) {
            return fail(2, "'" + positional[size_t(i + 1)] + "' is not a run id");
        }
    }
    auto reader = SessionReader::open(positional[0]);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto runs = (*reader)->runs();
    if (!runs) return fail(runs.error().exitCode(), runs.error().message);
    for (int64_t id : ids) {
        bool found = false;
        for (const auto& r : *runs)
            found = found || r.id == id;
        if (!found) return fail(2, "run " + std::to_string(id) + " is not in " + positional[0]);
    }
    auto runA = loadRunData(**reader, ids[0]);
    if (!runA) return fail(runA.error().exitCode(), runA.error().message);
    auto runB = loadRunData(**reader, ids[1]);
    if (!runB) return fail(runB.error().exitCode(), runB.error().message);
    const Comparison c = compareRuns(*runA, *runB);
    const std::string out =
        format == "json" ? formatComparisonJson(c) + "\n" : formatComparisonText(c);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace mvp::cli
