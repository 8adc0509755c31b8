#include "capture/models/UserModel.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace mvp {

namespace fs = std::filesystem;

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
        return bad("\"format\" must be \"mvprof-model\" (see USER_MODELS.md)");
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
    return m;
}

} // namespace mvp
