#pragma once
// User models: a TorchScript archive plus a small JSON manifest naming its
// input size, normalisation and tokenizer (models/USER_MODELS.md). Plain C++.

#include "core/Result.h"
#include "core/session/Records.h"

#include <array>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace mvp {

struct UserModelManifest {
    std::string path;        // the manifest file
    std::string torchscript; // the archive, resolved against the manifest's folder
    std::string name;        // what the session calls the model
    int imageSize = 224, patch = 14;
    int vocab = 320, bos = 256, maxSeq = 512;
    std::array<float, 3> mean{0.48145466f, 0.4578275f, 0.40821073f};
    std::array<float, 3> std{0.26862954f, 0.26130258f, 0.27577711f};
    std::string json; // the manifest as read, stored as the run's model config
    // "roles": regular expressions over module paths (ECMAScript, searched),
    // in the JSON reader's key order; RolePatterns decides between matches.
    struct RolePattern {
        ModuleRole role = ModuleRole::None;
        std::string key, pattern; // "router", "\\.gate$"
    };
    std::vector<RolePattern> roles;
    std::optional<int> topK;         // experts per token; else read from the router module
    int visualFirst = 1;             // sequence position of the first patch token
    std::optional<int> gridH, gridW; // the patch grid; else image_size / patch squared
};

// A manifest's role patterns, compiled. A module that several patterns match
// gets the most specific role (roleSpecificity: its router before the `llm`
// container it sits in), whatever order the manifest's keys are in.
class RolePatterns {
public:
    explicit RolePatterns(const std::vector<UserModelManifest::RolePattern>& roles);
    ModuleRole roleOf(const std::string& path) const; // None where no pattern matches

private:
    std::vector<std::pair<ModuleRole, std::regex>> patterns_; // most specific first
};

// Reads and checks a manifest; errors say which field is wrong.
Result<UserModelManifest> loadUserModelManifest(const std::string& path);

} // namespace mvp
