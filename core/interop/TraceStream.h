#pragma once
// A trace file as a byte stream, gzip-compressed or not (zlib reads both):
// the importers parse it as it streams, so a 1 GB trace never sits in memory.

#include "core/Result.h"

#include <cstdint>
#include <istream>
#include <memory>
#include <string>

namespace mvp::interop {

class TraceStream {
public:
    // Fails when the file is missing, unreadable or a folder.
    static Result<std::unique_ptr<TraceStream>> open(const std::string& path);
    ~TraceStream();

    std::istream& stream();
    // Bytes of the (uncompressed) content read so far.
    int64_t bytesRead() const;
    // Why reading stopped early, empty if it did not: a damaged gzip member
    // (zlib's words), or a string longer than 4 MiB (a JSON parser holds a
    // string whole in memory, so an endless one would fill it).
    std::string readError() const;
    // The file's size on disk (compressed, for a .gz).
    int64_t fileBytes() const;

private:
    struct Impl;
    explicit TraceStream(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

} // namespace mvp::interop
