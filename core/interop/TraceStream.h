#pragma once
// A trace file as a byte stream, gzip-compressed or not (zlib reads both):
// the importers parse it as it streams, so a 1 GB trace never sits in memory.

#include "core/Result.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mvp::interop {

class TraceStream {
public:
    // Fails when the file is missing, unreadable or a folder.
    static Result<std::unique_ptr<TraceStream>> open(const std::string& path);
    ~TraceStream();
    TraceStream(const TraceStream&) = delete;
    TraceStream& operator=(const TraceStream&) = delete;

    // Up to `n` bytes of the (uncompressed) content into `dst`: how many, 0 at
    // the end or when reading failed (readError() then says why).
    int64_t read(char* dst, int64_t n);
    // Bytes of the (uncompressed) content read so far.
    int64_t bytesRead() const;
    // Why reading stopped early, empty if it did not: a damaged gzip member
    // (zlib's words).
    std::string readError() const;
    // The file's size on disk (compressed, for a .gz).
    int64_t fileBytes() const;

private:
    struct Impl;
    explicit TraceStream(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

} // namespace mvp::interop
