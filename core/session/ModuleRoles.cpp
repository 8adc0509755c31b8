#include "core/session/ModuleRoles.h"

#include <array>
#include <cctype>
#include <set>
#include <utility>

namespace mvp {

namespace {
constexpr std::array<std::pair<ModuleRole, const char*>, 8> kRoleNames{{
    {ModuleRole::None, ""},
    {ModuleRole::Vision, "vision"},
    {ModuleRole::Projector, "projector"},
    {ModuleRole::Llm, "llm"},
    {ModuleRole::Attention, "attention"},
    {ModuleRole::Moe, "moe"},
    {ModuleRole::Router, "router"},
    {ModuleRole::Expert, "expert"},
}};

// The number a path component is or ends in ("3", "layer3"), if any.
std::optional<int> componentNumber(std::string_view c) {
    size_t digits = 0;
    while (digits < c.size() && std::isdigit(static_cast<unsigned char>(c[c.size() - 1 - digits])))
        ++digits;
    if (digits == 0 || digits > 6) return std::nullopt; // no index has seven digits
    int v = 0;
    for (size_t i = c.size() - digits; i < c.size(); ++i)
        v = v * 10 + (c[i] - '0');
    return v;
}

template <typename F> void forEachComponent(std::string_view path, F f) {
    size_t start = 0;
    while (start <= path.size()) {
        const size_t dot = path.find('.', start);
        const size_t end = dot == std::string_view::npos ? path.size() : dot;
        f(path.substr(start, end - start), end == path.size());
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
}
} // namespace

const char* toString(ModuleRole role) {
    for (const auto& [r, name] : kRoleNames)
        if (r == role) return name;
    return "";
}

std::optional<ModuleRole> moduleRoleFromString(std::string_view text) {
    for (const auto& [r, name] : kRoleNames)
        if (text == name) return r;
    return std::nullopt;
}

int roleSpecificity(ModuleRole role) {
    static constexpr std::array kMostSpecificFirst{
        ModuleRole::Router,    ModuleRole::Expert, ModuleRole::Attention, ModuleRole::Moe,
        ModuleRole::Projector, ModuleRole::Vision, ModuleRole::Llm};
    for (size_t i = 0; i < kMostSpecificFirst.size(); ++i)
        if (kMostSpecificFirst[i] == role) return int(i);
    return int(kMostSpecificFirst.size());
}

std::vector<int> pathNumbers(std::string_view path) {
    std::vector<int> out;
    forEachComponent(path, [&](std::string_view c, bool) {
        if (auto n = componentNumber(c)) out.push_back(*n);
    });
    return out;
}

void assignIndices(ModuleRow& m) {
    m.layer.reset();
    m.expert.reset();
    const bool layered = m.role == ModuleRole::Attention || m.role == ModuleRole::Moe ||
                         m.role == ModuleRole::Router || m.role == ModuleRole::Expert;
    if (!layered) return;
    std::optional<int> last;
    size_t numbered = 0;
    forEachComponent(m.path, [&](std::string_view c, bool isLast) {
        const auto n = componentNumber(c);
        if (!n) return;
        if (numbered++ == 0) m.layer = *n;
        if (isLast) last = n;
    });
    if (m.role != ModuleRole::Expert) return;
    m.expert = last;
    if (last && numbered == 1) m.layer.reset(); // its only number is the expert's
}

void inferLegacyRole(ModuleRow& m) {
    static const std::array<std::pair<const char*, ModuleRole>, 7> kinds{{
        {"VisionEncoder", ModuleRole::Vision},
        {"Projector", ModuleRole::Projector},
        {"Decoder", ModuleRole::Llm},
        {"Attention", ModuleRole::Attention},
        {"MoE", ModuleRole::Moe},
        {"Router", ModuleRole::Router},
        {"Expert", ModuleRole::Expert},
    }};
    m.role = ModuleRole::None;
    for (const auto& [kind, role] : kinds)
        if (m.kind == kind) m.role = role;
    assignIndices(m);
}

bool withinRole(const ModuleRow& module, ModuleRole role,
                const std::unordered_map<int64_t, const ModuleRow*>& byId) {
    std::set<int64_t> seen;
    const ModuleRow* m = &module;
    while (m && seen.insert(m->id).second) {
        if (m->role == role) return true;
        if (!m->parent) return false;
        const auto it = byId.find(*m->parent);
        m = it == byId.end() ? nullptr : it->second;
    }
    return false;
}

} // namespace mvp
