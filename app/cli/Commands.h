#pragma once
// mvprof-cli's subcommands. Each returns the process exit status:
// 0 success, 2 bad input or usage (one line on stderr saying what to do),
// 1 internal error.

#include <string>
#include <vector>

namespace mvp::cli {

int captureCommand(const std::vector<std::string>& args);
int reportCommand(const std::vector<std::string>& args);
int exportCommand(const std::vector<std::string>& args);
int whatIfCommand(const std::vector<std::string>& args);
int diffCommand(const std::vector<std::string>& args);
int launchCommand(const std::vector<std::string>& args);
int importCommand(const std::vector<std::string>& args);
int devicesCommand(const std::vector<std::string>& args);
int weightsCommand(const std::vector<std::string>& args);
int makeSetCommand(const std::vector<std::string>& args);
int trainCommand(const std::vector<std::string>& args);
int evalCommand(const std::vector<std::string>& args);
int eplbCommand(const std::vector<std::string>& args);

// Prints "mvprof-cli: <message>" on stderr and returns `code`.
int fail(int code, const std::string& message);

} // namespace mvp::cli
