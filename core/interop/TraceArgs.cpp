#include "core/interop/TraceArgs.h"

#include <charconv>
#include <cstring>
#include <unordered_map>

namespace mvp::interop {

namespace {
struct TypeInfo {
    std::string_view scalarType;
    int size;
};

const TypeInfo* typeInfo(std::string_view t) {
    static const std::unordered_map<std::string_view, TypeInfo> types = {
        {"float", {"Float", 4}},
        {"double", {"Double", 8}},
        {"c10::Half", {"Half", 2}},
        {"c10::BFloat16", {"BFloat16", 2}},
        {"long int", {"Long", 8}},
        {"long", {"Long", 8}},
        {"int64_t", {"Long", 8}},
        {"int", {"Int", 4}},
        {"short int", {"Short", 2}},
        {"short", {"Short", 2}},
        {"signed char", {"Char", 1}},
        {"unsigned char", {"Byte", 1}},
        {"bool", {"Bool", 1}},
        {"c10::complex<float>", {"ComplexFloat", 8}},
        {"c10::complex<double>", {"ComplexDouble", 16}},
        {"c10::Float8_e4m3fn", {"Float8_e4m3fn", 1}},
        {"c10::Float8_e5m2", {"Float8_e5m2", 1}},
        {"c10::qint8", {"QInt8", 1}},
        {"c10::quint8", {"QUInt8", 1}},
        {"c10::qint32", {"QInt32", 4}},
    };
    const auto it = types.find(t);
    return it == types.end() ? nullptr : &it->second;
}

bool integerList(const Json& v, Dims& out) {
    if (!v.is_array()) return false;
    out.clear();
    for (const auto& x : v) {
        if (!x.is_number_integer() && !x.is_number_unsigned()) return false;
        out.push_back(x.get<int64_t>());
    }
    return true;
}

std::optional<int64_t> parseInt(std::string_view s) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// Concrete Inputs holds text: "1", "[1, 1]", "False", "" (not a scalar).
std::optional<Dims> parseIntList(std::string_view s) {
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
    Dims out;
    s = s.substr(1, s.size() - 2);
    while (!s.empty()) {
        const auto comma = s.find(',');
        std::string_view item = s.substr(0, comma);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        const auto v = parseInt(item);
        if (!v) return std::nullopt;
        out.push_back(*v);
        if (comma == std::string_view::npos) break;
        s.remove_prefix(comma + 1);
    }
    return out;
}

std::string_view concreteAt(const Json& concrete, size_t i) {
    if (!concrete.is_array() || i >= concrete.size() || !concrete[i].is_string()) return {};
    return concrete[i].get_ref<const std::string&>();
}

OpArg tensorArg(const Dims& dims, int size) {
    OpArg a;
    a.kind = OpArg::Tensor;
    a.values = dims;
    a.elemSize = size;
    return a;
}

// One entry of Input Dims with its type and concrete value.
OpArg argAt(const Json& dims, std::string_view type, std::string_view concrete, int fallbackSize) {
    OpArg a;
    Dims values;
    if (type == "TensorList" || (dims.is_array() && !dims.empty() && dims.front().is_array())) {
        a.kind = OpArg::TensorList;
        for (const auto& item : dims)
            if (integerList(item, values)) a.items.push_back(tensorArg(values, fallbackSize));
        return a;
    }
    if (const TypeInfo* t = typeInfo(type); t && integerList(dims, values))
        return tensorArg(values, t->size);
    if (type == "Scalar") {
        if (const auto v = parseInt(concrete)) {
            a.kind = OpArg::Int;
            a.values = {*v};
        }
        return a;
    }
    if (type == "ScalarList") {
        if (auto v = parseIntList(concrete)) {
            a.kind = OpArg::IntList;
            a.values = std::move(*v);
        }
        return a;
    }
    // No type (an older trace): a non-empty shape is a tensor of unknown dtype.
    if (type.empty() && integerList(dims, values) && !values.empty())
        return tensorArg(values, fallbackSize);
    return a;
}

void appendShape(std::string& out, const Dims& d) {
    out += '[';
    for (size_t i = 0; i < d.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(d[i]);
    }
    out += ']';
}

const Json& member(const Json& args, const char* key) {
    static const Json null;
    const auto it = args.find(key);
    return it == args.end() ? null : *it;
}
} // namespace

std::string_view scalarTypeName(std::string_view t) {
    const TypeInfo* info = typeInfo(t);
    return info ? info->scalarType : t;
}

int elementSize(std::string_view t) {
    const TypeInfo* info = typeInfo(t);
    return info ? info->size : 0;
}

std::vector<OpArg> opArgs(const Json& args) {
    const Json& dims = member(args, "Input Dims");
    const Json& types = member(args, "Input type");
    const Json& concrete = member(args, "Concrete Inputs");
    std::vector<OpArg> out;
    if (!dims.is_array()) return out;
    int fallbackSize = 4;
    if (types.is_array())
        for (const auto& t : types)
            if (t.is_string() && elementSize(t.get_ref<const std::string&>()) > 0) {
                fallbackSize = elementSize(t.get_ref<const std::string&>());
                break;
            }
    out.reserve(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) {
        const std::string_view type = types.is_array() && i < types.size() && types[i].is_string()
                                          ? std::string_view(types[i].get_ref<const std::string&>())
                                          : std::string_view();
        out.push_back(argAt(dims[i], type, concreteAt(concrete, i), fallbackSize));
    }
    return out;
}

OpCall opCall(std::string_view name, const Json& args) {
    OpCall call;
    const std::vector<OpArg> in = opArgs(args);
    const OpTraits traits = opTraits(name);
    call.cost = estimateOpCost(name, traits, in);
    call.arithmetic = traits.cls == OpClass::Arithmetic && call.cost.flops.has_value();
    call.unevaluated = traits.cls == OpClass::Arithmetic && !call.cost.flops;
    call.shapes = "[";
    bool first = true;
    for (const auto& a : in) {
        const auto add = [&](const OpArg& t) {
            if (!first) call.shapes += ',';
            first = false;
            appendShape(call.shapes, t.values);
        };
        if (a.kind == OpArg::Tensor) add(a);
        for (const auto& item : a.items)
            add(item);
    }
    call.shapes += ']';
    const Json& types = member(args, "Input type");
    if (types.is_array())
        for (const auto& t : types)
            if (t.is_string() && elementSize(t.get_ref<const std::string&>()) > 0) {
                call.dtype = std::string(scalarTypeName(t.get_ref<const std::string&>()));
                break;
            }
    return call;
}

} // namespace mvp::interop
