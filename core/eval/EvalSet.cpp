#include "core/eval/EvalSet.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace mvp {

namespace fs = std::filesystem;

namespace {

Error lineError(const std::string& path, int line, const std::string& what) {
    return makeError(ErrorCode::BadInput, path + ":" + std::to_string(line) + ": " + what);
}

Result<std::vector<std::string>> answersOf(const nlohmann::json& j, const std::string& path,
                                           int line) {
    const auto it = j.find("answer");
    if (it == j.end() || it->is_null()) return std::vector<std::string>{};
    if (it->is_string()) return std::vector<std::string>{it->get<std::string>()};
    if (it->is_array() && !it->empty() &&
        std::all_of(it->begin(), it->end(), [](const auto& a) { return a.is_string(); }))
        return it->get<std::vector<std::string>>();
    return lineError(path, line, "\"answer\" must be a string or a non-empty list of strings");
}

Result<EvalItem> parseItem(const std::string& text, const fs::path& folder, const std::string& path,
                           int line) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return lineError(path, line,
                         "not a JSON object (one item a line: {\"image\", "
                         "\"prompt\", \"answer\", \"id\"})");
    EvalItem item;
    item.line = line;
    const auto str = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    item.prompt = str("prompt");
    if (item.prompt.empty()) return lineError(path, line, "no \"prompt\" (a non-empty string)");
    const std::string image = str("image");
    if (image.empty()) return lineError(path, line, "no \"image\" (a path relative to the file)");
    item.image = (folder / image).lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(item.image, ec))
        return makeError(ErrorCode::NotFound, path + ":" + std::to_string(line) + ": image " +
                                                  item.image + " does not exist");
    if (const auto id = j.find("id"); id != j.end() && !id->is_null())
        item.id = id->is_string() ? id->get<std::string>() : id->dump();
    else
        item.id = std::to_string(line);
    auto answers = answersOf(j, path, line);
    if (!answers) return answers.error();
    item.answers = std::move(*answers);
    item.kind = str("kind");
    return item;
}

bool isBlank(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

} // namespace

int EvalSet::unanswered() const {
    return int(std::count_if(items.begin(), items.end(),
                             [](const EvalItem& i) { return i.answers.empty(); }));
}

Result<EvalSet> readEvalSet(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return makeError(ErrorCode::NotFound, path + ": no such eval set (a JSONL file)");
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::Io, path + ": cannot be read");
    return parseEvalSet(in, path, fs::absolute(path, ec).parent_path().string());
}

Result<EvalSet> parseEvalSet(std::istream& in, const std::string& name,
                             const std::string& folder) {
    EvalSet set;
    set.path = name;
    std::set<std::string> ids;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
        if (isBlank(text)) continue;
        auto item = parseItem(text, folder, name, line);
        if (!item) return item.error();
        if (!ids.insert(item->id).second)
            return lineError(name, line, "id \"" + item->id + "\" is used twice");
        set.items.push_back(std::move(*item));
    }
    if (set.items.empty())
        return makeError(ErrorCode::BadInput, name + ": the eval set has no items");
    return set;
}

std::string normaliseAnswer(std::string_view text) {
    std::string out;
    bool space = false;
    for (unsigned char c : text) {
        if (std::isspace(c)) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += char(std::tolower(c));
    }
    const auto edge = [](unsigned char c) { return std::ispunct(c) || std::isspace(c); };
    while (!out.empty() && edge(out.back()))
        out.pop_back();
    size_t start = 0;
    while (start < out.size() && edge(out[start]))
        ++start;
    return out.substr(start);
}

bool answerMatches(std::string_view output, const std::vector<std::string>& answers) {
    const std::string said = normaliseAnswer(output);
    for (const auto& a : answers) {
        const std::string want = normaliseAnswer(a);
        if (want.empty()) continue;
        if (said == want) return true;
        if (said.size() > want.size() && said.compare(0, want.size(), want) == 0 &&
            (said[want.size()] == ' ' ||
             std::ispunct(static_cast<unsigned char>(said[want.size()]))))
            return true;
    }
    return false;
}

std::string evalItemLine(const EvalItem& item) {
    nlohmann::ordered_json j;
    j["id"] = item.id;
    j["image"] = item.image;
    j["prompt"] = item.prompt;
    if (item.answers.size() == 1)
        j["answer"] = item.answers[0];
    else if (!item.answers.empty())
        j["answer"] = item.answers;
    if (!item.kind.empty()) j["kind"] = item.kind;
    return j.dump();
}

} // namespace mvp
