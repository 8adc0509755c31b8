#include "app/cli/Args.h"
#include "app/cli/Commands.h"
#include "core/report/Report.h"
#include "core/session/SessionReader.h"

#include <cstdio>

namespace mvp::cli {

namespace {
constexpr const char* kHelp = R"(mvprof-cli report FILE [options] — analyse a session

  --format F        text (default), json (documented in core/report/REPORT.md) or markdown
  --run ID          only this run (default: every run)
  --window W        all (default) or tokens:N: also give expert statistics per N-token window

Prints each run: phases, modules by self time, expert balance by layer,
modality and phase, gate vs expert time, head redundancy, roofline, KV
regions, batch advice and the findings with their suggestions. Times and
memory are measured; FLOPs and bytes are estimated; advice is predicted.
)";
} // namespace

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "mvprof-cli: %s\n", message.c_str());
    return code;
}

int reportCommand(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(argv, {"--format", "--run", "--window"}, {"--help", "-h"});
    if (!parsed) return fail(2, parsed.error().message);
    if (parsed->has("--help") || parsed->has("-h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (parsed->positional.size() != 1)
        return fail(2, "report needs exactly one session file (see --help)");
    const std::string format = parsed->value("--format").value_or("text");
    if (format != "text" && format != "json" && format != "markdown")
        return fail(2, "--format must be text, json or markdown");
    ReportOptions options;
    if (parsed->has("--run")) {
        auto id = parsed->intValue("--run", 0);
        if (!id) return fail(2, id.error().message);
        options.run = *id;
    }
    auto window = parseWindow(parsed->value("--window").value_or("all"));
    if (!window) return fail(2, window.error().message);
    options.analysis.window = *window;

    auto reader = SessionReader::open(parsed->positional[0]);
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
