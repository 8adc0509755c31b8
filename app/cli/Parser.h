#pragma once
// mvprof-cli's option parsing, through CLI11 (Debian's libcli11-dev): each
// subcommand declares typed options with validators and gets its --help
// generated; usage errors come back in mvprof-cli's words, on one line, with
// exit status 2, so a command's body is its work, not its validation.

#include "core/Result.h"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mvp::cli {

class CommandLine {
public:
    // `command`: its word ("capture"); `title`: the usage line and what it does;
    // `footer`: notes after the options.
    CommandLine(const std::string& command, const std::string& title,
                const std::string& footer = {});

    // Parses `argv` (the arguments after the subcommand's name). nullopt: go on;
    // otherwise the exit status to return: 0 after printing --help, 2 after a
    // usage error ("unknown option --bogus (see --help)").
    std::optional<int> parse(const std::vector<std::string>& argv);

    // Whether the user passed the option (by its long name, e.g. "--run").
    bool given(const std::string& name) const { return app.count(name) > 0; }

    CLI::App app;
    std::vector<std::string> positional; // the arguments that are no option, in order
};

// Validators that say what is wrong the way mvprof-cli always has:
// "--format: must be text, json or markdown", "--warmup: must be 0 or more".
CLI::Validator oneOf(const std::vector<std::string>& words);
CLI::Validator atLeast(double min);
CLI::Validator inRange(double low, double high); // low ≤ x ≤ high
// A number `ok` accepts; otherwise `says` ("must be a fraction in (0, 1)").
CLI::Validator numberWhere(std::function<bool(double)> ok, const std::string& says,
                           const std::string& desc);

// Parses "1,3,5" or "0-3" or "all" (with `count` items) into indices; the
// error names `what`.
Result<std::vector<int>> parseIndexList(const std::string& text, int count,
                                        const std::string& what);

} // namespace mvp::cli
