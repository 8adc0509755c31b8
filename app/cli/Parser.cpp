#include "app/cli/Parser.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

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

std::string number(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

// The option a CLI11 message is about: it starts "--name: …".
std::string optionOf(const std::string& message) {
    const auto colon = message.find(':');
    return colon == std::string::npos ? message : message.substr(0, colon);
}

// CLI11's error in mvprof-cli's words, on one line.
std::string usageMessage(const CLI::ParseError& e) {
    std::string m = e.what();
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && m.find("missing") != std::string::npos)
        return optionOf(m) + " needs a value (see --help)";
    if (dynamic_cast<const CLI::ConversionError*>(&e)) {
        // "Could not convert: --seed = x"
        const auto colon = m.find(": "), eq = m.find(" = ");
        if (colon != std::string::npos && eq != std::string::npos && eq > colon)
            return m.substr(colon + 2, eq - colon - 2) + " expects a number, not '" +
                   m.substr(eq + 3) + "' (see --help)";
    }
    std::replace(m.begin(), m.end(), '\n', ' ');
    return m + " (see --help)";
}

} // namespace

CommandLine::CommandLine(const std::string& command, const std::string& title,
                         const std::string& footer)
    : app(title, "mvprof-cli " + command) {
    app.footer(footer);
    // As mvprof-cli always had it: an option given twice takes its last value
    // (scripts append to a base command line).
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.allow_extras(); // unknown options are named below, in mvprof-cli's words
    app.add_option("arguments", positional)->group("");
}

std::optional<int> CommandLine::parse(const std::vector<std::string>& argv) {
    std::vector<std::string> reversed(argv.rbegin(), argv.rend()); // CLI11 takes them so
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return 0;
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "mvprof-cli: %s\n", usageMessage(e).c_str());
        return 2;
    }
    if (app.remaining().empty()) return std::nullopt;
    // What CLI11 did not know: the first is named (the positional list takes the rest).
    const std::string extra = app.remaining().front();
    const bool option = extra.size() > 1 && extra[0] == '-';
    const std::string name = extra.substr(0, extra.find('='));
    std::fprintf(stderr, "mvprof-cli: %s (see --help)\n",
                 (option ? "unknown option " + name : "unexpected argument '" + extra + "'").c_str());
    return 2;
}

CLI::Validator oneOf(const std::vector<std::string>& words) {
    std::string list, desc;
    for (size_t i = 0; i < words.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
        desc += (i ? "|" : "") + words[i];
    }
    return CLI::Validator(
        [words, list](std::string& text) -> std::string {
            return std::find(words.begin(), words.end(), text) != words.end()
                       ? std::string()
                       : "must be " + list + ", not '" + text + "'";
        },
        desc);
}

CLI::Validator numberWhere(std::function<bool(double)> ok, const std::string& says,
                           const std::string& desc) {
    return CLI::Validator(
        [ok, says](std::string& text) -> std::string {
            double v = 0;
            if (!parseNumber(text, v)) return "'" + text + "' is not a number: " + says;
            return ok(v) ? std::string() : says;
        },
        desc);
}

CLI::Validator atLeast(double min) {
    return numberWhere([min](double v) { return v >= min; }, "must be " + number(min) + " or more",
                       ">= " + number(min));
}

CLI::Validator inRange(double low, double high) {
    return numberWhere([low, high](double v) { return v >= low && v <= high; },
                       "must be between " + number(low) + " and " + number(high),
                       number(low) + ".." + number(high));
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
