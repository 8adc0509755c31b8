#pragma once
// Safetensors, Hugging Face's tensor file: an 8-byte little-endian header
// length N, N bytes of a JSON object naming each tensor's dtype, shape and
// byte range [begin, end) in the data that follows, and the raw row-major
// little-endian data. Plain C++: the reader treats the file as hostile and
// checks every number before using it (docs/weights.md lists the checks);
// the writer makes files any safetensors reader accepts.

#include "core/Result.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace mvp::safetensors {

enum class Dtype {
    Bool,
    U8,
    I8,
    I16,
    U16,
    F16,
    BF16,
    I32,
    U32,
    F32,
    F64,
    I64,
    U64,
    F8E4M3,
    F8E5M2
};

std::string dtypeName(Dtype d); // "F32", as the header spells it
int dtypeBytes(Dtype d);

// "[2, 3]"
std::string shapeText(const std::vector<int64_t>& shape);

struct Entry {
    std::string name;
    Dtype dtype = Dtype::F32;
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0; // in the data section
    int64_t elements() const;
};

struct Header {
    std::vector<Entry> tensors;                  // in the file's data order
    std::map<std::string, std::string> metadata; // the optional "__metadata__"
    uint64_t dataStart = 0;                      // 8 + N: where the data section starts
};

// The largest header accepted (the reference implementation's limit too).
inline constexpr uint64_t kMaxHeaderBytes = 100ull << 20;

// Parses and checks the header of a file of `fileSize` bytes whose first
// bytes are `prefix` (at least 8 + N of them, or the whole file). Errors
// (ErrorCode::BadInput) name the first problem: the header length against
// the file, the JSON, each dtype and shape, each range against its dtype ×
// shape and the data's size, ranges that overlap or leave a gap.
Result<Header> parseHeader(std::span<const uint8_t> prefix, uint64_t fileSize);

// A checked file in memory.
class File {
public:
    // Reads and checks `path`; errors name the file.
    static Result<File> read(const std::string& path);
    // Checks bytes already in memory (`name` labels errors).
    static Result<File> fromBytes(std::vector<uint8_t> bytes, const std::string& name);

    const Header& header() const { return header_; }
    const Entry* find(const std::string& name) const;
    std::span<const uint8_t> data(const Entry& e) const;
    const std::vector<uint8_t>& bytes() const { return bytes_; }

private:
    std::vector<uint8_t> bytes_;
    Header header_;
};

// A tensor to write: its bytes must be dtype × shape long, row-major,
// little-endian.
struct TensorBytes {
    std::string name;
    Dtype dtype = Dtype::F32;
    std::vector<int64_t> shape;
    std::span<const uint8_t> bytes;
};

// The file's bytes: tensors in the given order, the header padded with
// spaces to a multiple of 8 so every tensor starts aligned. Names must be
// unique and not "__metadata__".
Result<std::vector<uint8_t>> serialise(const std::vector<TensorBytes>& tensors,
                                       const std::map<std::string, std::string>& metadata = {});
// Writes `path` through `path`.partial, renamed at the end: a failure
// (a full disk) leaves no half-written file.
Status write(const std::string& path, const std::vector<TensorBytes>& tensors,
             const std::map<std::string, std::string>& metadata = {});

} // namespace mvp::safetensors
