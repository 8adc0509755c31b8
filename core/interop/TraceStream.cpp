#include "core/interop/TraceStream.h"

#include <array>
#include <filesystem>
#include <streambuf>
#include <zlib.h>

namespace mvp::interop {

namespace {
// A read-only streambuf over zlib's gzFile, which passes a file that is not
// gzip through unchanged: one path for .json and .json.gz.
class GzBuf : public std::streambuf {
public:
    explicit GzBuf(gzFile f) : file_(f) {}
    ~GzBuf() override { gzclose(file_); }
    GzBuf(const GzBuf&) = delete;
    GzBuf& operator=(const GzBuf&) = delete;

    int64_t bytesRead() const { return read_; }
    const std::string& error() const { return error_; }

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        const int n = gzread(file_, buffer_.data(), unsigned(buffer_.size()));
        if (n <= 0) {
            int code = Z_OK;
            const char* what = gzerror(file_, &code);
            if (n < 0 || (!gzeof(file_) && code != Z_OK))
                error_ = std::string(what) + " (a damaged or truncated .gz)";
            return traits_type::eof();
        }
        read_ += n;
        if (!guardTokens(buffer_.data(), size_t(n))) return traits_type::eof();
        setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
        return traits_type::to_int_type(*gptr());
    }

    // The JSON parser holds a whole string in memory before handing it over:
    // a string longer than any trace has (a damaged file, one endless line)
    // ends the stream here, with the reason, before it fills the memory.
    bool guardTokens(const char* p, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            const char c = p[i];
            if (!inString_) {
                inString_ = c == '"';
                stringBytes_ = 0;
                continue;
            }
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"')
                inString_ = false;
            if (++stringBytes_ > kMaxStringBytes) {
                error_ = "it holds a string longer than 4 MiB (no trace has one: the file is "
                         "damaged or not a trace)";
                return false;
            }
        }
        return true;
    }

private:
    gzFile file_;
    std::array<char, 1 << 16> buffer_{};
    int64_t read_ = 0;
    std::string error_;
    static constexpr int64_t kMaxStringBytes = 4 << 20;
    bool inString_ = false, escaped_ = false;
    int64_t stringBytes_ = 0;
};
} // namespace

struct TraceStream::Impl {
    std::unique_ptr<GzBuf> buf;
    std::istream in{nullptr};
    int64_t fileBytes = 0;
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
    gzbuffer(f, 1 << 17);
    auto impl = std::make_unique<Impl>();
    impl->buf = std::make_unique<GzBuf>(f);
    impl->in.rdbuf(impl->buf.get());
    impl->fileBytes = int64_t(fs::file_size(path, ec));
    return std::unique_ptr<TraceStream>(new TraceStream(std::move(impl)));
}

std::istream& TraceStream::stream() {
    return d->in;
}

int64_t TraceStream::bytesRead() const {
    return d->buf->bytesRead() - (d->buf->in_avail() > 0 ? d->buf->in_avail() : 0);
}

std::string TraceStream::readError() const {
    return d->buf->error();
}

int64_t TraceStream::fileBytes() const {
    return d->fileBytes;
}

} // namespace mvp::interop
