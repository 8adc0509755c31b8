// mvprof-cli: everything but the windows — capture, report, export, what-ifs.
#include "app/cli/Commands.h"
#include "capture/models/ExampleUserModel.h"
#include "core/session/SessionWriter.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr const char* kUsage = R"(mvprof-cli — the MoE-Visual Profiler's command line

Usage:
  mvprof-cli capture --image IMG --out FILE.mvprof [options]   run a model and record it
  mvprof-cli report FILE [--format text|json]                  summarise a session
  mvprof-cli export FILE --heatmap OUT.png [options]           write the patch heatmap
  mvprof-cli export FILE --chrome-trace OUT.json [--run ID]    a trace for Perfetto / chrome://tracing
  mvprof-cli export FILE --perfetto OUT.pftrace [--run ID]     the same as Perfetto protobuf
  mvprof-cli import TRACE… --out FILE.mvprof                   torch.profiler traces (.json[.gz]) into a session
  mvprof-cli whatif FILE TRANSFORM… [options]                  re-run with transforms and compare
  mvprof-cli diff FILE A B [--format text|json]                compare two runs, module by module
  mvprof-cli launch --out FILE -- python3 SCRIPT [ARGS…]       run a script that uses the mvprof package
  mvprof-cli example-model DIR                                 write an example TorchScript user model
  mvprof-cli devices [--format text|json]                      the CPU and CUDA devices capture can use
  mvprof-cli weights [--model P] [--save FILE.safetensors]     a preset's parameters; write them
  mvprof-cli make-set --out DIR [--n N]                        an eval set of generated scenes
  mvprof-cli eval --set SET.jsonl [--model P] [options]        a model's accuracy over an eval set
  mvprof-cli train --out FILE.safetensors [--steps N]          train a built-in model on generated scenes
  mvprof-cli eplb FILE --replicas N --gpus N [options]         an EPLB expert placement for a run's load
  mvprof-cli --version | --help
Run `mvprof-cli COMMAND --help` for a command's options.
Exit status: 0 success, 2 bad input or usage, 1 internal error.
)";
}

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::printf("mvprof-cli %s\n", mvp::appVersion());
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        if (command == "capture") return mvp::cli::captureCommand(args);
        if (command == "report") return mvp::cli::reportCommand(args);
        if (command == "export") return mvp::cli::exportCommand(args);
        if (command == "whatif") return mvp::cli::whatIfCommand(args);
        if (command == "import") return mvp::cli::importCommand(args);
        if (command == "diff") return mvp::cli::diffCommand(args);
        if (command == "launch") return mvp::cli::launchCommand(args);
        if (command == "devices") return mvp::cli::devicesCommand(args);
        if (command == "weights") return mvp::cli::weightsCommand(args);
        if (command == "make-set") return mvp::cli::makeSetCommand(args);
        if (command == "train") return mvp::cli::trainCommand(args);
        if (command == "eval") return mvp::cli::evalCommand(args);
        if (command == "eplb") return mvp::cli::eplbCommand(args);
        if (command == "example-model") {
            if (args.size() != 1 || args[0].rfind("--", 0) == 0)
                return mvp::cli::fail(2, "example-model needs one folder to write example-vlm.pt "
                                         "and example-vlm.json into");
            auto path = mvp::writeExampleUserModel(args[0]);
            if (!path) return mvp::cli::fail(path.error().exitCode(), path.error().message);
            std::printf("Wrote %s (capture it with: mvprof-cli capture --model-file %s --image IMG "
                        "--out FILE.mvprof)\n",
                        path->c_str(), path->c_str());
            return 0;
        }
    } catch (const std::exception& e) {
        return mvp::cli::fail(1, std::string("internal error: ") + e.what());
    }
    return mvp::cli::fail(2, "unknown command '" + command +
                                 "': use capture, report, export, import, whatif, diff, launch, "
                                 "devices, weights, make-set, eval, train, eplb or example-model (see --help)");
}
