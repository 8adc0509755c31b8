#include "core/interop/Safetensors.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

namespace mvp::safetensors {

namespace {

struct DtypeInfo {
    Dtype dtype;
    const char* name;
    int bytes;
};
constexpr DtypeInfo kDtypes[] = {
    {Dtype::Bool, "BOOL", 1}, {Dtype::U8, "U8", 1},          {Dtype::I8, "I8", 1},
    {Dtype::I16, "I16", 2},   {Dtype::U16, "U16", 2},        {Dtype::F16, "F16", 2},
    {Dtype::BF16, "BF16", 2}, {Dtype::I32, "I32", 4},        {Dtype::U32, "U32", 4},
    {Dtype::F32, "F32", 4},   {Dtype::F64, "F64", 8},        {Dtype::I64, "I64", 8},
    {Dtype::U64, "U64", 8},   {Dtype::F8E4M3, "F8_E4M3", 1}, {Dtype::F8E5M2, "F8_E5M2", 1},
};

const DtypeInfo& info(Dtype d) {
    for (const auto& i : kDtypes)
        if (i.dtype == d) return i;
    return kDtypes[0]; // unreachable: every enumerator is listed
}

Error bad(const std::string& what) {
    return makeError(ErrorCode::BadInput, what);
}

uint64_t readLength(std::span<const uint8_t> b) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | b[size_t(i)];
    return n;
}

// Bytes of dtype × shape, or nothing where a dimension is negative or the
// product overflows (a hostile header's "shape": [2^40, 2^40]).
std::optional<uint64_t> byteLength(Dtype d, const std::vector<int64_t>& shape) {
    uint64_t n = uint64_t(dtypeBytes(d));
    for (int64_t dim : shape) {
        if (dim < 0) return std::nullopt;
        if (dim != 0 && n > UINT64_MAX / uint64_t(dim)) return std::nullopt;
        n *= uint64_t(dim);
    }
    return n;
}

Result<Entry> parseEntry(const std::string& name, const nlohmann::json& j, uint64_t dataSize) {
    const std::string where = "tensor '" + name + "': ";
    if (!j.is_object()) return bad(where + "its entry is not a JSON object");
    const auto dt = j.find("dtype");
    const auto sh = j.find("shape");
    const auto off = j.find("data_offsets");
    if (dt == j.end() || sh == j.end() || off == j.end())
        return bad(where + "needs \"dtype\", \"shape\" and \"data_offsets\"");
    Entry e;
    e.name = name;
    if (!dt->is_string()) return bad(where + "\"dtype\" is not a string");
    const auto known = std::find_if(std::begin(kDtypes), std::end(kDtypes),
                                    [&](const DtypeInfo& i) { return *dt == i.name; });
    if (known == std::end(kDtypes))
        return bad(where + "unknown dtype " + dt->dump() +
                   " (known: BOOL, U8, I8, I16, U16, "
                   "F16, BF16, I32, U32, F32, F64, I64, U64, F8_E4M3, F8_E5M2)");
    e.dtype = known->dtype;
    if (!sh->is_array()) return bad(where + "\"shape\" is not an array");
    for (const auto& d : *sh) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0)
            return bad(where + "shape " + sh->dump() +
                       " has a dimension that is not a "
                       "non-negative integer");
        e.shape.push_back(d.get<int64_t>());
    }
    if (!off->is_array() || off->size() != 2 || !(*off)[0].is_number_unsigned() ||
        !(*off)[1].is_number_unsigned())
        return bad(where + "\"data_offsets\" is not two non-negative integers");
    e.begin = (*off)[0].get<uint64_t>();
    e.end = (*off)[1].get<uint64_t>();
    if (e.begin > e.end || e.end > dataSize)
        return bad(where + "its bytes [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                   ") are outside the data section (" + std::to_string(dataSize) +
                   " bytes): the file is truncated or corrupt");
    const auto want = byteLength(e.dtype, e.shape);
    if (!want || *want != e.end - e.begin)
        return bad(where + info(e.dtype).name + " " + shapeText(e.shape) + " needs " +
                   (want ? std::to_string(*want) : std::string("an impossible number of")) +
                   " bytes but its range holds " + std::to_string(e.end - e.begin));
    return e;
}

Result<std::map<std::string, std::string>> parseMetadata(const nlohmann::json& j) {
    if (!j.is_object()) return bad("\"__metadata__\" is not a JSON object");
    std::map<std::string, std::string> m;
    for (const auto& [k, v] : j.items()) {
        if (!v.is_string()) return bad("\"__metadata__\" value of '" + k + "' is not a string");
        m[k] = v.get<std::string>();
    }
    return m;
}

// The ranges, sorted, must tile the data section: an overlap lets two
// tensors alias, a gap hides bytes no tensor claims.
Status checkTiling(std::vector<Entry>& tensors, uint64_t dataSize) {
    std::sort(tensors.begin(), tensors.end(), [](const Entry& a, const Entry& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    uint64_t at = 0;
    for (const auto& e : tensors) {
        if (e.begin < at)
            return bad("tensor '" + e.name + "' overlaps the tensor before it (bytes from " +
                       std::to_string(e.begin) + ")");
        if (e.begin > at)
            return bad("bytes [" + std::to_string(at) + ", " + std::to_string(e.begin) +
                       ") of the data belong to no tensor");
        at = e.end;
    }
    if (at != dataSize)
        return bad("the last " + std::to_string(dataSize - at) +
                   " bytes of the data belong to no tensor");
    return Ok{};
}

} // namespace

std::string dtypeName(Dtype d) {
    return info(d).name;
}
int dtypeBytes(Dtype d) {
    return info(d).bytes;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

int64_t Entry::elements() const {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

Result<Header> parseHeader(std::span<const uint8_t> prefix, uint64_t fileSize) {
    if (fileSize < 8 || prefix.size() < 8)
        return bad("it is " + std::to_string(fileSize) +
                   " bytes long, shorter than the 8-byte header length: not a safetensors file");
    const uint64_t n = readLength(prefix);
    if (n > kMaxHeaderBytes || n > fileSize - 8)
        return bad("its header length " + std::to_string(n) + " is impossible for a " +
                   std::to_string(fileSize) + "-byte file: not a safetensors file, or truncated");
    if (prefix.size() < 8 + n) return bad("the header is cut short");
    const auto text = prefix.subspan(8, size_t(n));
    if (text.empty() || text[0] != '{')
        return bad("the header does not start with '{': not a safetensors file");
    nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return bad("the header is not a JSON object");
    Header h;
    h.dataStart = 8 + n;
    const uint64_t dataSize = fileSize - h.dataStart;
    for (const auto& [name, value] : j.items()) {
        if (name == "__metadata__") {
            auto m = parseMetadata(value);
            if (!m) return m.error();
            h.metadata = std::move(*m);
            continue;
        }
        auto e = parseEntry(name, value, dataSize);
        if (!e) return e.error();
        h.tensors.push_back(std::move(*e));
    }
    if (auto s = checkTiling(h.tensors, dataSize); !s) return s.error();
    return h;
}

Result<File> File::fromBytes(std::vector<uint8_t> bytes, const std::string& name) {
    auto h = parseHeader(bytes, bytes.size());
    if (!h) return bad(name + ": " + h.error().message);
    File f;
    f.bytes_ = std::move(bytes);
    f.header_ = std::move(*h);
    return f;
}

Result<File> File::read(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return makeError(ErrorCode::NotFound, path + ": no such weights file");
    std::ifstream in(path, std::ios::binary);
    const auto size = std::filesystem::file_size(path, ec);
    if (!in || ec) return makeError(ErrorCode::Io, path + ": cannot be read");
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
        return makeError(ErrorCode::Io, path + ": reading it failed");
    return fromBytes(std::move(bytes), path);
}

const Entry* File::find(const std::string& name) const {
    for (const auto& e : header_.tensors)
        if (e.name == name) return &e;
    return nullptr;
}

std::span<const uint8_t> File::data(const Entry& e) const {
    return std::span<const uint8_t>(bytes_).subspan(size_t(header_.dataStart + e.begin),
                                                    size_t(e.end - e.begin));
}

Result<std::vector<uint8_t>> serialise(const std::vector<TensorBytes>& tensors,
                                       const std::map<std::string, std::string>& metadata) {
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::set<std::string> names;
    uint64_t at = 0;
    for (const auto& t : tensors) {
        if (t.name == "__metadata__" || !names.insert(t.name).second)
            return bad("tensor name '" + t.name + "' is reserved or used twice");
        const auto want = byteLength(t.dtype, t.shape);
        if (!want || *want != t.bytes.size())
            return bad("tensor '" + t.name + "': " + dtypeName(t.dtype) + " " + shapeText(t.shape) +
                       " does not match its " + std::to_string(t.bytes.size()) + " bytes");
        header[t.name] = {{"dtype", dtypeName(t.dtype)},
                          {"shape", t.shape},
                          {"data_offsets", {at, at + t.bytes.size()}}};
        at += t.bytes.size();
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::vector<uint8_t> out;
    out.reserve(8 + text.size() + size_t(at));
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(uint64_t(text.size()) >> (8 * i)));
    out.insert(out.end(), text.begin(), text.end());
    for (const auto& t : tensors)
        out.insert(out.end(), t.bytes.begin(), t.bytes.end());
    return out;
}

Status write(const std::string& path, const std::vector<TensorBytes>& tensors,
             const std::map<std::string, std::string>& metadata) {
    auto bytes = serialise(tensors, metadata);
    if (!bytes) return bytes.error();
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes->data()), std::streamsize(bytes->size()));
        out.close();
        if (!out) {
            std::remove(partial.c_str());
            return makeError(ErrorCode::Io, path + ": writing it failed (disk full or no "
                                                   "permission)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    if (ec) {
        std::remove(partial.c_str());
        return makeError(ErrorCode::Io, path + ": " + ec.message());
    }
    return Ok{};
}

} // namespace mvp::safetensors
