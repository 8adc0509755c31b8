#include "app/cli/CudaInject.h"

#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace mvp::cli {

namespace fs = std::filesystem;

std::optional<std::string> injectionLibrary() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("MVPROF_INJECT_LIBRARY")) candidates.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        candidates.push_back(exe.parent_path().parent_path() / "lib/mvprof/libmvprof_inject.so");
    for (const auto& c : candidates)
        if (fs::is_regular_file(c, ec)) return fs::absolute(c, ec).string();
    return std::nullopt;
}

std::string injectedPattern(const std::string& session) {
    const std::string ext = ".mvprof";
    std::string stem = session;
    if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0)
        stem.resize(stem.size() - ext.size());
    return stem + ".cuda.%p" + ext;
}

std::vector<std::string> injectedSessions(const std::string& pattern, fs::file_time_type since) {
    const fs::path p(pattern);
    const std::string name = p.filename().string();
    const auto at = name.find("%p");
    const std::string prefix = name.substr(0, at), suffix = name.substr(at + 2);
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(p.parent_path(), ec)) {
        const std::string n = entry.path().filename().string();
        const bool matches = n.size() > prefix.size() + suffix.size() &&
                             n.compare(0, prefix.size(), prefix) == 0 &&
                             n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
        if (matches && entry.is_regular_file(ec) && entry.last_write_time(ec) >= since)
            out.push_back(entry.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

namespace {
const char* plural(ActivityKind kind) {
    switch (kind) {
    case ActivityKind::Kernel:
        return "kernels";
    case ActivityKind::Memcpy:
        return "copies";
    case ActivityKind::Memset:
        return "fills";
    case ActivityKind::Runtime:
        return "runtime calls";
    case ActivityKind::Driver:
        return "driver calls";
    }
    return "records";
}
} // namespace

void printInjected(const std::vector<std::string>& files) {
    for (const auto& f : files) {
        auto reader = SessionReader::open(f);
        auto runs = reader ? (*reader)->runs() : Result<std::vector<RunInfo>>(reader.error());
        if (!runs || runs->empty()) {
            std::printf("%s: unreadable (%s)\n", f.c_str(),
                        runs ? "no run" : runs.error().message.c_str());
            continue;
        }
        const RunInfo& run = runs->front();
        auto rows = (*reader)->activities(run.id);
        std::map<ActivityKind, int64_t> byKind;
        if (rows)
            for (const auto& r : *rows)
                ++byKind[r.kind];
        std::string counts;
        for (const auto& [kind, n] : byKind)
            counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + plural(kind);
        std::printf("%s: %s, %s (measured, %.1f ms of GPU activity)\n", f.c_str(),
                    run.model.c_str(), counts.empty() ? "no CUDA activity" : counts.c_str(),
                    double(run.wallNs) / 1e6);
    }
}

namespace {

// Copies the run of one injected session into `w`.
Result<RunInfo> copyRun(const std::string& file, SessionWriter& w) {
    auto reader = SessionReader::open(file);
    if (!reader) return reader.error();
    auto runs = (*reader)->runs();
    if (!runs) return runs.error();
    if (runs->size() != 1)
        return makeError(ErrorCode::NotASession, file + " is not an injected process's session");
    RunInfo info = runs->front();
    auto activities = (*reader)->activities(info.id);
    if (!activities) return activities.error();
    auto metrics = (*reader)->runMetrics(info.id);
    if (!metrics) return metrics.error();
    auto id = w.beginRun(info);
    if (!id) return id.error();
    Batch batch;
    batch.run = *id;
    batch.activities = std::move(*activities);
    batch.runMetrics = std::move(*metrics);
    w.submit(std::move(batch));
    RunResult result;
    result.status = info.status;
    result.wallNs = info.wallNs;
    if (auto s = w.endRun(*id, result); !s) return s.error();
    info.id = *id;
    return info;
}

} // namespace

Result<std::vector<RunInfo>> gatherInjected(const std::string& session,
                                            const std::vector<std::string>& files) {
    std::vector<RunInfo> added;
    if (files.empty()) return added;
    std::error_code ec;
    const auto mode =
        fs::exists(session, ec) ? SessionWriter::Mode::Append : SessionWriter::Mode::CreateNew;
    auto writer = SessionWriter::open(session, mode);
    if (!writer) return writer.error();
    for (const auto& f : files) {
        auto run = copyRun(f, **writer);
        if (!run) return makeError(run.error().code, f + ": " + run.error().message);
        added.push_back(std::move(*run));
    }
    if (auto s = (*writer)->close(); !s) return s.error();
    for (const auto& f : files)
        removeSessionFiles(f);
    return added;
}

} // namespace mvp::cli
