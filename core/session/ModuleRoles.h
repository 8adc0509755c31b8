#pragma once
// What a module is to the analyses (vision tower, router, expert …),
// independent of what its author named it. The capture stores a role, a
// layer and an expert index with every module; the analyses read those and
// never parse module paths.

#include "core/session/Records.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mvp {

// "" for None; the rest as their names ("vision", "router" …) in the session.
const char* toString(ModuleRole role);
// nullopt for text that is no role (a damaged or newer file): treat as None.
std::optional<ModuleRole> moduleRoleFromString(std::string_view text);

// Which role wins when several role patterns match one module: the most
// specific (router 0, expert 1, attention 2, moe 3) before the containers it
// sits in (projector 4, vision 5, llm 6); None last. A module inside the LLM
// can be its router, and a projector can sit inside the vision tower.
int roleSpecificity(ModuleRole role);

// The numbers in a module path, one per component that is a number or ends
// in one: "model.layers.3.mlp.experts.1" → {3, 1}, "llm.layer0.expert2" →
// {0, 2}. Components that are too long to be an index are ignored.
std::vector<int> pathNumbers(std::string_view path);

// Layer and expert index of a module with the given role, from its path: the
// layer is the path's first number, the expert index the number of its last
// component (an expert whose path has only that number has no layer).
void assignIndices(ModuleRow& module);

// Role, layer and expert of a module in a session written before v3, whose
// roles were implied by the built-in model's kinds.
void inferLegacyRole(ModuleRow& module);

// Whether the module or one of its ancestors has `role` ("is this attention
// block inside the LLM?"); `byId` maps module id → row. A cycle in a damaged
// file ends the walk.
bool withinRole(const ModuleRow& module, ModuleRole role,
                const std::unordered_map<int64_t, const ModuleRow*>& byId);

} // namespace mvp
