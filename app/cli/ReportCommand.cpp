#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "core/report/Report.h"
#include "core/session/SessionReader.h"

#include <cstdio>

namespace mvp::cli {

namespace {
constexpr const char* kFooter =
    R"(Prints each run: phases, modules by self time, expert balance by layer,
modality and phase, gate vs expert time, head redundancy, roofline, KV
regions, batch advice and the findings with their suggestions. Times and
memory are measured; FLOPs and bytes are estimated; advice is predicted.)";
} // namespace

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "mvprof-cli: %s\n", message.c_str());
    return code;
}

int reportCommand(const std::vector<std::string>& argv) {
    CommandLine cli("report", "mvprof-cli report FILE [options] — analyse a session", kFooter);
    std::string format = "text", windowText = "all";
    int64_t run = 0;
    cli.app
        .add_option("--format", format,
                    "text (default), json (documented in docs/report.md) or markdown")
        ->check(oneOf({"text", "json", "markdown"}));
    cli.app.add_option("--run", run, "only this run (default: every run)");
    cli.app.add_option("--window", windowText,
                       "all (default) or tokens:N: also give expert statistics per N-token window");
    if (auto exit = cli.parse(argv)) return *exit;
    if (cli.positional.size() != 1)
        return fail(2, "report needs exactly one session file (see --help)");
    ReportOptions options;
    if (cli.given("--run")) options.run = run;
    auto window = parseWindow(windowText);
    if (!window) return fail(2, window.error().message);
    options.analysis.window = *window;

    auto reader = SessionReader::open(cli.positional[0]);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto report = buildReport(**reader, options);
    if (!report) return fail(report.error().exitCode(), report.error().message);
    const std::string out = format == "json"       ? formatJson(*report) + "\n"
                            : format == "markdown" ? formatMarkdown(*report)
                                                   : formatText(*report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace mvp::cli
