#include "core/interop/TraceStream.h"

#include <algorithm>
#include <filesystem>
#include <zlib.h>

namespace mvp::interop {

// zlib's gzFile passes a file that is not gzip through unchanged: one path
// for .json and .json.gz.
struct TraceStream::Impl {
    gzFile file = nullptr;
    int64_t read = 0, fileBytes = 0;
    std::string error;
    ~Impl() {
        if (file) gzclose(file);
    }
};

TraceStream::TraceStream(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}
TraceStream::~TraceStream() = default;

Result<std::unique_ptr<TraceStream>> TraceStream::open(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) return makeError(ErrorCode::NotFound, path + ": no such file");
    if (fs::is_directory(status))
        return makeError(ErrorCode::BadInput, path + " is a folder, not a trace file");
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return makeError(ErrorCode::Io, path + ": cannot be read (permission?)");
    gzbuffer(f, 1 << 18);
    auto impl = std::make_unique<Impl>();
    impl->file = f;
    impl->fileBytes = int64_t(fs::file_size(path, ec));
    return std::unique_ptr<TraceStream>(new TraceStream(std::move(impl)));
}

int64_t TraceStream::read(char* dst, int64_t n) {
    if (!d->error.empty() || n <= 0) return 0;
    const int got = gzread(d->file, dst, unsigned(std::min<int64_t>(n, 1 << 30)));
    if (got <= 0) {
        int code = Z_OK;
        const char* what = gzerror(d->file, &code);
        if (got < 0 || (!gzeof(d->file) && code != Z_OK))
            d->error = std::string(what) + " (a damaged or truncated .gz)";
        return 0;
    }
    d->read += got;
    return got;
}

int64_t TraceStream::bytesRead() const {
    return d->read;
}

std::string TraceStream::readError() const {
    return d->error;
}

int64_t TraceStream::fileBytes() const {
    return d->fileBytes;
}

} // namespace mvp::interop
