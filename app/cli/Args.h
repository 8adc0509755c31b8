#pragma once
// A small command-line parser for mvprof-cli: `--name value`, `--name=value`
// and `--flag`; anything unknown is a usage error naming the option.

#include "core/Result.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mvp::cli {

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    std::set<std::string> flags;

    bool has(const std::string& name) const { return values.count(name) || flags.count(name); }
    std::optional<std::string> value(const std::string& name) const;
    Result<int> intValue(const std::string& name, int fallback) const;
    Result<double> doubleValue(const std::string& name, double fallback) const;
};

// valueOptions take an argument; flagOptions do not. Names include the dashes.
Result<Args> parseArgs(const std::vector<std::string>& argv,
                       const std::set<std::string>& valueOptions,
                       const std::set<std::string>& flagOptions);

// Parses "1,3,5" or "0-3" or "all" (with `count` items) into indices.
Result<std::vector<int>> parseIndexList(const std::string& text, int count,
                                        const std::string& what);

} // namespace mvp::cli
