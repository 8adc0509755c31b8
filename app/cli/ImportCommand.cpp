// `mvprof-cli import`: torch.profiler traces (Kineto JSON, the legacy array,
// .gz or plain) into a session, one run per file, for every view and report
// their data supports.
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "core/interop/TraceImport.h"

#include <cstdio>

namespace mvp::cli {

namespace {
constexpr const char* kFooter =
    R"(Each Chrome trace becomes one run; an Nsight Systems SQLite export (nsys export --type sqlite) one
run per profiled process. Ops (cpu_op) keep their shapes, and their FLOPs and bytes are estimated
from Input Dims with the same formulas as a capture; nn.Module and record_function spans (NVTX
ranges for Nsight) become the module tree; kernels, copies and fills are linked to the op (or NVTX
range) that launched them. Events of other kinds are counted in the run's import.skipped metric. A
trace has no phases: its ops and spans are outside every phase.)";
}

int importCommand(const std::vector<std::string>& argv) {
    CommandLine cli("import",
                    "mvprof-cli import TRACE… --out FILE.mvprof [--force] — "
                    "torch.profiler traces (.json, .json.gz) or Nsight Systems exports (.sqlite) "
                    "into a session",
                    kFooter);
    std::string out;
    bool force = false, quiet = false;
    cli.app.add_option("--out", out, "the session to write (FILE.mvprof)")->required();
    cli.app.add_flag("--force", force, "replace FILE.mvprof if it exists");
    cli.app.add_flag("--quiet", quiet, "print nothing on success");
    if (auto exit = cli.parse(argv)) return *exit;
    if (cli.positional.empty()) return fail(2, "import needs one or more trace files (see --help)");
    const std::atomic<bool>* cancel = installCancelHandlers();
    TraceImportOptions options;
    options.overwrite = force;
    options.progress = [cancel](const std::string&, int64_t, int64_t) { return !cancel->load(); };
    auto done = importTraces(cli.positional, out, options);
    if (!done) return fail(done.error().exitCode(), done.error().message);
    if (quiet) return 0;
    for (const auto& t : *done)
        std::printf(
            "run %lld: %s — %lld events: %lld ops, %lld spans in %lld modules, %lld GPU/API "
            "activities (%lld kernels linked), %lld skipped\n",
            (long long)t.run, t.file.c_str(), (long long)t.events, (long long)t.ops,
            (long long)t.spans, (long long)t.modules, (long long)t.activities, (long long)t.linked,
            (long long)t.skipped);
    std::printf("Wrote %s\n", out.c_str());
    return 0;
}

} // namespace mvp::cli
