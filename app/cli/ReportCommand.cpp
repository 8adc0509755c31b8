#include "app/cli/Args.h"
#include "app/cli/Commands.h"
#include "core/report/Report.h"
#include "core/session/SessionReader.h"

#include <cstdio>

namespace mvp::cli {

namespace {
constexpr const char* kHelp = R"(mvprof-cli report FILE [--format text|json] — summarise a session

Prints each run: model, device, BLAS, phases, the modules by self time, the
expert load per MoE layer and the most-attended image patches. Times and
memory are measured; FLOPs and bytes are estimated from op shapes.
)";
} // namespace

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "mvprof-cli: %s\n", message.c_str());
    return code;
}

int reportCommand(const std::vector<std::string>& argv) {
    auto parsed = parseArgs(argv, {"--format"}, {"--help", "-h"});
    if (!parsed) return fail(2, parsed.error().message);
    if (parsed->has("--help") || parsed->has("-h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (parsed->positional.size() != 1) return fail(2, "report needs exactly one session file (see --help)");
    const std::string format = parsed->value("--format").value_or("text");
    if (format != "text" && format != "json") return fail(2, "--format must be text or json");

    auto reader = SessionReader::open(parsed->positional[0]);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto report = buildReport(**reader);
    if (!report) return fail(report.error().exitCode(), report.error().message);
    const std::string out = format == "json" ? formatJson(*report) + "\n" : formatText(*report);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace mvp::cli
