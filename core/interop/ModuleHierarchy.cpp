// Module spans of a TorchScript trace from its ops' "Module Hierarchy"
// (TraceModel.h addModuleHierarchySpans).
#include "core/interop/TraceModel.h"

#include <algorithm>
#include <unordered_map>

namespace mvp::interop {

namespace {
struct Component {
    std::string path, type;
};

// "TOP(ResNet)::forward.layer1(Sequential)::forward" → ResNet, ResNet.layer1.
std::vector<Component> parseHierarchy(std::string text) {
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        text = text.substr(1, text.size() - 2);
    std::vector<Component> out;
    size_t at = 0;
    while (at < text.size()) {
        // Frames hold no "." (types lose their qualifiers, methods have none).
        size_t end = text.find('.', at);
        if (end == std::string::npos) end = text.size();
        const std::string frame = text.substr(at, end - at);
        at = end + 1;
        const auto open = frame.find('('), close = frame.find(')');
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        const std::string instance = frame.substr(0, open);
        const std::string type = frame.substr(open + 1, close - open - 1);
        if (instance == "SELF" || instance == "CALL_FUNCTION") continue;
        const std::string name =
            instance == "TOP" || instance == "INSTANCE_NAME_UNKNOWN" ? type : instance;
        if (name.empty()) continue;
        out.push_back({out.empty() ? name : out.back().path + "." + name, type});
    }
    return out;
}

struct Open {
    Component module;
    int64_t start, end;
};
} // namespace

void addModuleHierarchySpans(TraceModel& m) {
    const auto hierarchyOf = [&](const TraceRecord& r) {
        return r.kind == EventKind::Op ? m.signature(r.detail).hierarchy : 0;
    };
    std::vector<uint32_t> ops; // 4 bytes an op: a TorchScript trace may hold millions
    for (size_t i = 0; i < m.records().size(); ++i)
        if (hierarchyOf(m.records()[i])) ops.push_back(uint32_t(i));
    if (ops.empty()) return;
    std::sort(ops.begin(), ops.end(), [&](uint32_t a, uint32_t b) {
        const auto &x = m.records()[a], &y = m.records()[b];
        return std::tie(x.track, x.startNs, x.order) < std::tie(y.track, y.startNs, y.order);
    });
    std::unordered_map<uint32_t, std::vector<Component>> parsed;
    std::vector<Open> stack;
    uint32_t track = m.records()[ops.front()].track;
    auto closeTo = [&](size_t depth) {
        while (stack.size() > depth) {
            TraceRecord span;
            span.kind = EventKind::ModuleSpan;
            span.startNs = stack.back().start;
            span.durNs = stack.back().end - stack.back().start;
            span.detail = m.intern(stack.back().module.type);
            m.addRecordOnTrack(span, stack.back().module.path, track);
            stack.pop_back();
        }
    };
    for (const uint32_t i : ops) {
        const TraceRecord op = m.records()[i]; // a copy: the spans are added as we go
        if (op.track != track) {
            closeTo(0);
            track = op.track;
        }
        const uint32_t hierarchy = hierarchyOf(op);
        auto it = parsed.find(hierarchy);
        if (it == parsed.end())
            it = parsed.emplace(hierarchy, parseHierarchy(m.text(hierarchy))).first;
        const auto& modules = it->second;
        size_t common = 0;
        while (common < stack.size() && common < modules.size() &&
               stack[common].module.path == modules[common].path)
            ++common;
        closeTo(common);
        for (size_t d = common; d < modules.size(); ++d)
            stack.push_back({modules[d], op.startNs, op.startNs + op.durNs});
        for (auto& o : stack)
            o.end = std::max(o.end, op.startNs + op.durNs);
    }
    closeTo(0);
}

} // namespace mvp::interop
