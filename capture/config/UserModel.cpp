#include "capture/config/UserModel.h"

#include "core/session/ModuleRoles.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace mvp {

namespace fs = std::filesystem;

namespace {

// "roles", "top_k" and "visual_tokens" (docs/user-models.md, docs/user-model.schema.json).
Status readRoles(const nlohmann::json& j, UserModelManifest& m) {
    auto bad = [](const std::string& why) { return makeError(ErrorCode::BadInput, why); };
    if (j.contains("roles")) {
        if (!j["roles"].is_object()) return bad("\"roles\" must map role names to patterns");
        for (const auto& [key, value] : j["roles"].items()) {
            const auto role = moduleRoleFromString(key);
            if (!role || *role == ModuleRole::None)
                return bad("\"roles\": unknown role \"" + key +
                           "\" (use vision, projector, llm, attention, moe, router, expert)");
            if (!value.is_string() || value.get<std::string>().empty())
                return bad("\"roles." + key + "\" must be a regular expression");
            try {
                (void)std::regex(value.get<std::string>());
            } catch (const std::regex_error& e) {
                return bad("\"roles." + key + "\" is not a valid regular expression: " + e.what());
            }
            m.roles.push_back({*role, key, value.get<std::string>()});
        }
    }
    if (j.contains("top_k")) {
        if (!j["top_k"].is_number_integer() || j["top_k"].get<int>() < 1 ||
            j["top_k"].get<int>() > 1024)
            return bad("\"top_k\" must be an integer in [1, 1024]");
        m.topK = j["top_k"].get<int>();
    }
    if (j.contains("visual_tokens")) {
        const auto& v = j["visual_tokens"];
        if (!v.is_object())
            return bad("\"visual_tokens\" must be {\"first\": N, \"grid\": [H, W]}");
        if (v.contains("first")) {
            if (!v["first"].is_number_integer() || v["first"].get<int>() < 0 ||
                v["first"].get<int>() > m.maxSeq)
                return bad("\"visual_tokens.first\" must be a position in [0, max_seq]");
            m.visualFirst = v["first"].get<int>();
        }
        if (v.contains("grid")) {
            const auto& g = v["grid"];
            if (!g.is_array() || g.size() != 2 || !g[0].is_number_integer() ||
                !g[1].is_number_integer() || g[0].get<int>() < 1 || g[1].get<int>() < 1 ||
                g[0].get<int>() > 1024 || g[1].get<int>() > 1024)
                return bad("\"visual_tokens.grid\" must be [rows, columns], each in [1, 1024]");
            m.gridH = g[0].get<int>();
            m.gridW = g[1].get<int>();
        }
    }
    return Ok{};
}

} // namespace

RolePatterns::RolePatterns(const std::vector<UserModelManifest::RolePattern>& roles) {
    for (const auto& r : roles)
        patterns_.emplace_back(r.role, std::regex(r.pattern));
    std::stable_sort(patterns_.begin(), patterns_.end(), [](const auto& a, const auto& b) {
        return roleSpecificity(a.first) < roleSpecificity(b.first);
    });
}

ModuleRole RolePatterns::roleOf(const std::string& path) const {
    for (const auto& [role, re] : patterns_)
        if (std::regex_search(path, re)) return role;
    return ModuleRole::None;
}

Result<UserModelManifest> loadUserModelManifest(const std::string& path) {
    auto bad = [&](const std::string& why) {
        return makeError(ErrorCode::BadInput, path + ": " + why);
    };
    std::ifstream in(path);
    if (!in) return bad("cannot read the model manifest");
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (!j.is_object()) return bad("not a JSON model manifest");
    if (j.value("format", std::string()) != "mvprof-model")
        return bad("\"format\" must be \"mvprof-model\" (see docs/user-models.md)");
    UserModelManifest m;
    m.path = fs::absolute(path).string();
    m.json = j.dump();
    if (!j.contains("torchscript") || !j["torchscript"].is_string())
        return bad("\"torchscript\" must name the model archive");
    fs::path archive = j["torchscript"].get<std::string>();
    if (archive.is_relative()) archive = fs::absolute(path).parent_path() / archive;
    m.torchscript = archive.lexically_normal().string();
    if (!fs::is_regular_file(m.torchscript))
        return bad("the TorchScript archive " + m.torchscript + " does not exist");
    m.name = j.value("name", fs::path(path).stem().string());
    auto integer = [&](const char* key, int& into, int lo, int hi) -> Status {
        if (!j.contains(key)) return Ok{};
        if (!j[key].is_number_integer() || j[key].get<int>() < lo || j[key].get<int>() > hi)
            return bad(std::string("\"") + key + "\" must be an integer in [" + std::to_string(lo) +
                       ", " + std::to_string(hi) + "]");
        into = j[key].get<int>();
        return Ok{};
    };
    for (auto s : {integer("image_size", m.imageSize, 14, 4096), integer("patch", m.patch, 1, 256),
                   integer("vocab", m.vocab, 258, 1 << 20), integer("bos", m.bos, 0, (1 << 20) - 1),
                   integer("max_seq", m.maxSeq, 2, 1 << 20)})
        if (!s) return s.error();
    if (m.imageSize % m.patch) return bad("\"image_size\" must be a multiple of \"patch\"");
    if (j.value("tokenizer", std::string("bytes")) != "bytes")
        return bad("only the \"bytes\" tokenizer is supported");
    for (const char* key : {"mean", "std"}) {
        if (!j.contains(key)) continue;
        if (!j[key].is_array() || j[key].size() != 3)
            return bad(std::string("\"") + key + "\" must be three numbers (R, G, B)");
        auto& into = std::string(key) == "mean" ? m.mean : m.std;
        for (size_t i = 0; i < 3; ++i) {
            if (!j[key][i].is_number())
                return bad(std::string("\"") + key + "\" must be three numbers (R, G, B)");
            into[i] = j[key][i].get<float>();
        }
    }
    for (float s : m.std)
        if (!(s > 0)) return bad("\"std\" must be positive");
    if (auto s = readRoles(j, m); !s) return bad(s.error().message);
    return m;
}

} // namespace mvp
