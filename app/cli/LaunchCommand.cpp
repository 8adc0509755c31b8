// `mvprof-cli launch`: runs a user's Python script (or any program using the
// mvprof package) with the package importable and the session path in
// $MVPROF_OUT, forwards its progress lines and a stop request, and reports
// the runs it wrote. The script runs in a child process: whatever it does,
// this process survives to say what the session holds.
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/CudaInject.h"
#include "app/cli/Parser.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace mvp::cli {

namespace {

constexpr const char* kTitle = R"(mvprof-cli launch --out FILE.mvprof [options] -- PROGRAM [ARGS…]

Runs PROGRAM (e.g. python3 script.py) with the mvprof Python package
importable and MVPROF_OUT=FILE, so that mvprof.profile(None, model, …) in the
script records into FILE; every run the script records is appended to it.
With --cuda-inject, any unmodified CUDA program is traced through CUPTI
(CUDA_INJECTION64_PATH): each process that uses CUDA writes its kernels,
copies, fills and CUDA API calls to a session of its own, FILE.cuda.PID.mvprof,
and when PROGRAM ends they are gathered into FILE, one run per process.)";
constexpr const char* kFooter =
    R"(SIGINT or SIGTERM stops the script (as Ctrl-C would); its open run is kept, marked incomplete.
Exit status: PROGRAM's failure is 1, no run written is 2.)";

namespace fs = std::filesystem;

// The folder that holds the mvprof package: $MVPROF_PYTHON_DIR, the build
// tree's <build>/python beside <build>/bin, or Debian's dist-packages.
std::optional<std::string> packageDirectory() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("MVPROF_PYTHON_DIR")) candidates.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        candidates.push_back(exe.parent_path().parent_path() / "python");
        candidates.push_back(exe.parent_path().parent_path() / "lib/python3/dist-packages");
    }
    for (const auto& c : candidates)
        if (fs::exists(c / "mvprof" / "__init__.py", ec)) return fs::absolute(c, ec).string();
    return std::nullopt;
}

using Environment = std::vector<std::pair<std::string, std::string>>;

struct Child {
    pid_t pid = -1;
    int progressFd = -1; // read end of the progress pipe; -1 without --progress
};

// Forks PROGRAM in its own process group (a terminal's Ctrl-C reaches it only
// through this process, once) with the environment the package reads.
Result<Child> spawn(const std::vector<std::string>& command, const Environment& env,
                    const std::string& cwd, bool progress) {
    int pipeFds[2] = {-1, -1};
    if (progress && ::pipe(pipeFds) != 0)
        return makeError(ErrorCode::Internal, std::string("pipe: ") + std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0)
        return makeError(ErrorCode::Internal, std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGINT); // this process killed: the script stops as on Ctrl-C
        if (progress) {
            ::close(pipeFds[0]);
            ::setenv("MVPROF_PROGRESS_FD", std::to_string(pipeFds[1]).c_str(), 1);
        }
        for (const auto& [name, value] : env)
            ::setenv(name.c_str(), value.c_str(), 1);
        if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) {
            std::fprintf(stderr, "mvprof-cli: cannot enter %s: %s\n", cwd.c_str(),
                         std::strerror(errno));
            ::_exit(127);
        }
        std::vector<char*> argv;
        for (const auto& a : command)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        std::fprintf(stderr, "mvprof-cli: cannot run %s: %s\n", argv[0], std::strerror(errno));
        ::_exit(127);
    }
    if (progress) ::close(pipeFds[1]);
    return Child{pid, progress ? pipeFds[0] : -1};
}

// Copies the child's progress lines to stdout until it exits; a stop request
// becomes SIGINT for the child (Python: KeyboardInterrupt, so the package
// ends its run as incomplete). Returns the child's wait status.
int superviseChild(const Child& child, const std::atomic<bool>* cancel, bool* stopped) {
    bool forwarded = false;
    int fd = child.progressFd;
    for (;;) {
        if (*cancel && !forwarded) {
            ::kill(child.pid, SIGINT);
            forwarded = *stopped = true;
        }
        if (fd >= 0) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 200) > 0) {
                char buf[4096];
                const ssize_t n = ::read(fd, buf, sizeof buf);
                if (n > 0) {
                    std::fwrite(buf, 1, size_t(n), stdout);
                    std::fflush(stdout);
                } else if (n == 0) {
                    ::close(fd);
                    fd = -1;
                }
            }
        } else {
            ::usleep(100 * 1000);
        }
        int status = 0;
        const pid_t done = ::waitpid(child.pid, &status, WNOHANG);
        if (done == child.pid) {
            if (fd >= 0) ::close(fd);
            return status;
        }
    }
}

// The runs in `session` written by process `pid`.
std::vector<RunInfo> runsWrittenBy(const std::string& session, int64_t pid) {
    std::vector<RunInfo> out;
    auto reader = SessionReader::open(session);
    if (!reader) return out;
    auto runs = (*reader)->runs();
    if (!runs) return out;
    for (const auto& r : *runs)
        if (r.writerPid == pid) out.push_back(r);
    return out;
}

// What the script left in the session, and the exit status that says so.
int reportLaunch(const std::string& session, const std::vector<RunInfo>& runs, int status,
                 bool stopped, bool jsonl) {
    if (jsonl && !runs.empty()) {
        nlohmann::json ids = nlohmann::json::array();
        for (const auto& r : runs)
            ids.push_back(r.id);
        const nlohmann::json j{{"event", "done"}, {"run", runs.back().id},
                               {"runs", ids},     {"status", toString(runs.back().status)},
                               {"out", session},  {"wall_ms", double(runs.back().wallNs) / 1e6}};
        std::printf("%s\n", j.dump().c_str());
    } else if (!jsonl) {
        for (const auto& r : runs)
            std::printf("Run %lld (%s, %s) of %s: %.1f ms wall (measured)\n",
                        static_cast<long long>(r.id), r.label.c_str(), toString(r.status),
                        r.model.c_str(), double(r.wallNs) / 1e6);
    }
    const std::string kept = runs.empty() ? std::string()
                                          : "; " + session + " keeps the " +
                                                std::to_string(runs.size()) + " run(s) it wrote";
    if (stopped) return fail(1, "the program was stopped" + kept + " (an open run is incomplete)");
    if (!WIFEXITED(status))
        return fail(1,
                    "the program was killed by signal " + std::to_string(WTERMSIG(status)) + kept);
    if (WEXITSTATUS(status) != 0)
        return fail(1,
                    "the program exited with status " + std::to_string(WEXITSTATUS(status)) + kept);
    if (runs.empty())
        return fail(2, "the script wrote no run into " + session +
                           ": profile with mvprof.profile(None, model, ...), which reads "
                           "$MVPROF_OUT");
    return 0;
}

// The child's environment: the package importable and MVPROF_OUT for the
// Python package; with --cuda-inject, the injection library and its session
// pattern too. PYTHONPATH keeps what the caller had after the package.
Result<Environment> childEnvironment(const std::string& session, bool cudaInject) {
    Environment env{{"MVPROF_OUT", session}};
    const auto packageDir = packageDirectory();
    if (packageDir) {
        const char* old = std::getenv("PYTHONPATH");
        env.emplace_back("PYTHONPATH",
                         *packageDir + (old && *old ? ":" + std::string(old) : std::string()));
    } else if (!cudaInject) {
        return makeError(ErrorCode::BadInput,
                         "the mvprof Python package was not found beside mvprof-cli: install "
                         "mvprof's DEB, or set MVPROF_PYTHON_DIR to the folder holding mvprof/");
    }
    if (cudaInject) {
        const auto library = injectionLibrary();
        if (!library)
            return makeError(ErrorCode::BadInput,
                             "--cuda-inject: libmvprof_inject.so was not found in lib/mvprof "
                             "beside mvprof-cli (this mvprof was built without the CUDA "
                             "toolkit?); set MVPROF_INJECT_LIBRARY to its path");
        env.emplace_back("CUDA_INJECTION64_PATH", *library);
        env.emplace_back("MVPROF_INJECT_SESSION", injectedPattern(session));
    }
    return env;
}

} // namespace

int launchCommand(const std::vector<std::string>& all) {
    const auto dashes = std::find(all.begin(), all.end(), "--");
    const std::vector<std::string> options(all.begin(), dashes);
    const std::vector<std::string> command(dashes == all.end() ? all.end() : dashes + 1, all.end());
    CommandLine cli("launch", kTitle, kFooter);
    std::string out, cwd, progress;
    bool force = false, cudaInject = false;
    cli.app.add_option("--out", out, "the session file (created, or appended to)");
    cli.app.add_flag("--force", force, "replace FILE if it exists");
    cli.app.add_option("--cwd", cwd, "the folder to run PROGRAM in (default: this one)");
    cli.app
        .add_option("--progress", progress,
                    "jsonl: one JSON object per phase on stdout, then {\"event\": \"done\", …}")
        ->check(oneOf({"jsonl"}));
    cli.app.add_flag("--cuda-inject", cudaInject,
                     "trace any CUDA program's GPU work through CUPTI: one run per CUDA "
                     "process, gathered into FILE");
    if (auto exit = cli.parse(options)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] +
                           "': end the options with -- before the program (see --help)");
    const bool jsonl = progress == "jsonl";
    if (out.empty()) return fail(2, "no output given: pass --out FILE.mvprof");
    if (command.empty())
        return fail(2, "no program given: end the options with -- and name it, e.g. "
                       "mvprof-cli launch --out run.mvprof -- python3 script.py");
    std::error_code ec;
    if (!cwd.empty() && !fs::is_directory(cwd, ec))
        return fail(2, "--cwd " + cwd + " is not a folder");
    const std::string session = fs::absolute(out, ec).string();
    const bool exists = fs::exists(session, ec);
    if (exists && force) fs::remove(session, ec);
    const auto mode =
        exists && !force ? SessionWriter::Mode::Append : SessionWriter::Mode::CreateNew;
    if (auto ok = SessionWriter::checkTarget(session, mode); !ok)
        return fail(ok.error().exitCode(), ok.error().message);
    auto env = childEnvironment(session, cudaInject);
    if (!env) return fail(env.error().exitCode(), env.error().message);
    const auto started = fs::file_time_type::clock::now();
    const auto* cancel = installCancelHandlers();
    auto child = spawn(command, *env, cwd, jsonl);
    if (!child) return fail(1, child.error().message);
    bool stopped = false;
    const int status = superviseChild(*child, cancel, &stopped);
    auto runs = runsWrittenBy(session, child->pid);
    if (!cudaInject) return reportLaunch(session, runs, status, stopped, jsonl);
    const auto injected = injectedSessions(injectedPattern(session), started);
    if (!jsonl) printInjected(injected);
    auto gathered = gatherInjected(session, injected);
    if (!gathered)
        return fail(1, "the traced processes' sessions could not be gathered into " + session +
                           ": " + gathered.error().message + " (the files stay as they are)");
    runs.insert(runs.end(), gathered->begin(), gathered->end());
    if (runs.empty() && !stopped && WIFEXITED(status) && !WEXITSTATUS(status))
        return fail(2, "no CUDA process was traced: the program used no GPU, or CUPTI could not "
                       "trace it (its mvprof-inject lines on stderr say why)");
    return reportLaunch(session, runs, status, stopped, jsonl);
}

} // namespace mvp::cli
