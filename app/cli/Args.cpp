#include "app/cli/Args.h"

#include <charconv>

namespace mvp::cli {

namespace {
template <typename T> bool parseNumber(const std::string& s, T& out) {
    if (s.empty()) return false;
    if constexpr (std::is_floating_point_v<T>) {
        try {
            size_t used = 0;
            out = T(std::stod(s, &used));
            return used == s.size();
        } catch (...) {
            return false;
        }
    } else {
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && p == s.data() + s.size();
    }
}
} // namespace

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

Result<int> Args::intValue(const std::string& name, int fallback) const {
    auto v = value(name);
    if (!v) return fallback;
    int out = 0;
    if (!parseNumber(*v, out))
        return makeError(ErrorCode::BadInput, name + " expects a whole number, not '" + *v + "'");
    return out;
}

Result<double> Args::doubleValue(const std::string& name, double fallback) const {
    auto v = value(name);
    if (!v) return fallback;
    double out = 0;
    if (!parseNumber(*v, out))
        return makeError(ErrorCode::BadInput, name + " expects a number, not '" + *v + "'");
    return out;
}

Result<Args> parseArgs(const std::vector<std::string>& argv,
                       const std::set<std::string>& valueOptions,
                       const std::set<std::string>& flagOptions) {
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
            a.positional.push_back(arg);
            continue;
        }
        std::string name = arg, inlineValue;
        bool hasInline = false;
        if (auto eq = arg.find('='); eq != std::string::npos) {
            name = arg.substr(0, eq);
            inlineValue = arg.substr(eq + 1);
            hasInline = true;
        }
        if (flagOptions.count(name) && !hasInline) {
            a.flags.insert(name);
        } else if (valueOptions.count(name)) {
            if (hasInline)
                a.values[name] = inlineValue;
            else if (i + 1 < argv.size())
                a.values[name] = argv[++i];
            else
                return makeError(ErrorCode::BadInput, name + " needs a value (see --help)");
        } else {
            return makeError(ErrorCode::BadInput, "unknown option " + name + " (see --help)");
        }
    }
    return a;
}

Result<std::vector<int>> parseIndexList(const std::string& text, int count,
                                        const std::string& what) {
    std::vector<int> out;
    if (text == "all") {
        for (int i = 0; i < count; ++i)
            out.push_back(i);
        return out;
    }
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, comma - start);
        int a = 0, b = 0;
        const auto dash = part.find('-');
        const bool ok = dash == std::string::npos ? parseNumber(part, a) && (b = a, true)
                                                  : parseNumber(part.substr(0, dash), a) &&
                                                        parseNumber(part.substr(dash + 1), b);
        if (!ok || a > b || a < 0)
            return makeError(ErrorCode::BadInput,
                             what + ": '" + text + "' is not a list like 0,2 or 1-3 or all");
        for (int i = a; i <= b; ++i)
            out.push_back(i);
        start = comma + 1;
    }
    return out;
}

} // namespace mvp::cli
